/**
 * A background job's progress (runtime/jobs.ts through `GET /api/jobs/{id}`): a bar polled every second
 * while it runs, then its outcome — the failure's message, or what `done` makes of its result (a download).
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Progress, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { ExportState, type Job } from '../../../shared/statistics';
import { get } from '../../core/request/request';

export default function JobProgress({ jobId, done }: { jobId: number; done?: (job: Job) => ReactNode }) {
  const job = useQuery({
    queryKey: ['job', jobId],
    queryFn: () => get<Job>(`/api/jobs/${jobId}`),
    refetchInterval: (q) => (q.state.data && q.state.data.state !== ExportState.START ? false : 1000),
  });
  const j = job.data;
  if (job.isError) return <Alert type="error" showIcon title="任务不存在或无权查看" />;
  if (!j) return <Progress percent={0} status="active" />;
  const percent = j.total ? Math.round((j.progress / j.total) * 100) : j.state === ExportState.FINISH ? 100 : 0;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} className="job-progress" data-state={j.state}>
      <Typography.Text>
        {j.title}
        {j.total ? `（${j.progress} / ${j.total}）` : ''}
      </Typography.Text>
      <Progress percent={percent} status={j.state === ExportState.ERROR ? 'exception' : j.state === ExportState.FINISH ? 'success' : 'active'} />
      {j.state === ExportState.ERROR && <Alert type="error" showIcon title={j.message || '任务执行失败'} />}
      {j.state === ExportState.FINISH && done?.(j)}
    </Space>
  );
}
