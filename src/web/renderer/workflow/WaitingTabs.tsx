/** 全部 | 待我审批 (with the number of records waiting for the caller) above a workflow module's list. */
import { useQuery } from '@tanstack/react-query';
import { Badge, Tabs } from 'antd';
import { workflowApi, workflowKeys } from './api';

export type ListTab = 'all' | 'waiting';

export function WaitingTabs({ module, value, onChange }: { module: string; value: ListTab; onChange: (tab: ListTab) => void }) {
  const count = useQuery({ queryKey: workflowKeys.waitingCount(module), queryFn: () => workflowApi.waitingCount(module) });
  return (
    <Tabs
      className="wf-tabs"
      activeKey={value}
      onChange={(key) => onChange(key as ListTab)}
      items={[
        { key: 'all', label: '全部' },
        {
          key: 'waiting',
          label: (
            <span data-tab="waiting">
              待我审批 <Badge count={count.data ?? 0} overflowCount={999} size="small" showZero={false} />
            </span>
          ),
        },
      ]}
    />
  );
}
