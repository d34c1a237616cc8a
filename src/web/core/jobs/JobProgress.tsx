/**
 * A background job in a page: its title, a progress bar while it runs, the download when it made a file
 * (an export, an import's error report), its message when it ended, the error when it failed.
 */
import { CloseOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Progress, Space } from 'antd';
import { ExportState, jobDownload } from '../../../shared/jobs';
import { download } from '../request/download';
import { useJob } from './useJob';

export default function JobProgress({ id, onClose }: { id: number; onClose?: () => void }) {
  const { data: job, isError } = useJob(id);
  if (isError) return <Alert className="job-progress" type="warning" showIcon title="任务不存在或无权查看" closable={!!onClose} onClose={onClose} style={{ marginBottom: 12 }} />;
  if (!job) return null;
  const file = jobDownload(job);
  const percent = job.total ? Math.min(100, Math.floor((job.progress * 100) / job.total)) : 0;
  const running = job.state === ExportState.START;
  const close = onClose && <Button type="text" size="small" aria-label="关闭" icon={<CloseOutlined />} onClick={onClose} />;
  return (
    <Alert
      className="job-progress"
      data-state={job.state}
      type={running ? 'info' : job.state === ExportState.FINISH ? 'success' : 'error'}
      showIcon
      style={{ marginBottom: 12 }}
      title={
        <Space wrap>
          {/* A finished job's message names it already (导出“…”已完成…). */}
          {(running || !job.message.startsWith(job.title)) && <span>{job.title}</span>}
          {running && <span>{job.total ? `${job.progress} / ${job.total}` : '准备中'}</span>}
          {running && <span className="job-progress-hint">后台进行中，完成后将在消息中通知您</span>}
          {!running && <span className="job-progress-message">{job.message}</span>}
        </Space>
      }
      description={
        running ? (
          <Progress percent={percent} status="active" size="small" aria-label="任务进度" />
        ) : file ? (
          <Button type="link" icon={<DownloadOutlined />} style={{ paddingInline: 0 }} onClick={() => void download(file.url, file.params, file.name)}>
            下载{file.name}
          </Button>
        ) : undefined
      }
      action={close}
    />
  );
}
