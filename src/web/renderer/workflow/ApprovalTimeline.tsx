/** The approval log of a record as a timeline, oldest first: step, result, who at which level, values, comment, warnings. */
import { WarningOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Result, Skeleton, Tag, Timeline } from 'antd';
import { formatDateTime } from '../model';
import { workflowApi, workflowKeys, type Approval } from './api';

const RESULT_COLORS: Record<Approval['result'], string> = { pass: 'blue', return: 'orange', reject: 'red', withdraw: 'gray' };

function Entry({ a }: { a: Approval }) {
  return (
    <div className="wf-entry" data-transition={a.transition}>
      <div className="wf-entry-head">
        <b>{a.title}</b>
        <Tag color={RESULT_COLORS[a.result]}>{a.resultTitle}</Tag>
        {a.from !== a.to && (
          <span className="wf-entry-states">
            {a.fromTitle} → {a.toTitle}
          </span>
        )}
      </div>
      <div className="wf-entry-who">
        {a.levelTitle}
        {a.actingOrgName ? ` · ${a.actingOrgName}` : ''} · {a.actorName || '系统'} · {formatDateTime(a.at)}
      </div>
      {a.valueTexts.length > 0 && (
        <dl className="wf-entry-values">
          {a.valueTexts.map((v) => (
            <div key={v.field}>
              <dt>{v.title}</dt>
              <dd>{v.text}</dd>
            </div>
          ))}
        </dl>
      )}
      {a.comment && <div className="wf-entry-comment">意见：{a.comment}</div>}
      {a.warnings.map((w) => (
        <div key={w} className="wf-entry-warning">
          <WarningOutlined /> {w}
        </div>
      ))}
    </div>
  );
}

export function ApprovalTimeline({ module, recordId, version }: { module: string; recordId: number; version?: number }) {
  const log = useQuery({ queryKey: [...workflowKeys.approvals(module, recordId), version], queryFn: () => workflowApi.approvals(module, recordId) });
  if (log.isLoading) return <Skeleton active />;
  if (log.isError) return <Result status="error" title="办理记录加载失败" extra={<Button onClick={() => void log.refetch()}>重试</Button>} />;
  const entries = log.data ?? [];
  if (!entries.length) return <Empty description="暂无办理记录" />;
  return (
    <Timeline
      className="wf-timeline"
      items={entries.map((a) => ({ key: a.id, color: RESULT_COLORS[a.result], content: <Entry a={a} /> }))}
    />
  );
}
