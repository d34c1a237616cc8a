/**
 * 全部 | 待我审批 (with the number of records the caller can act on now) above a workflow module's list, and
 * 待到期 where a step waits on a date (`notBefore`): records the caller will act on once it has come; the
 * x-progress tab (下发进度) where the module has one.
 */
import { useQuery } from '@tanstack/react-query';
import { Badge, Tabs } from 'antd';
import { workflowApi, workflowKeys } from './api';

export type ListTab = 'all' | 'waiting' | 'later' | 'progress';

/** `progress`: the title of the x-progress tab (下发进度), when the module has one. */
export function WaitingTabs({ module, value, onChange, later, progress }: { module: string; value: ListTab; onChange: (tab: ListTab) => void; later?: boolean; progress?: string }) {
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
        ...(later ? [{ key: 'later', label: <span data-tab="later">待到期</span> }] : []),
        ...(progress ? [{ key: 'progress', label: <span data-tab="progress">{progress}</span> }] : []),
      ]}
    />
  );
}
