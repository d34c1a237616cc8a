import { Progress, Typography } from 'antd';
import type { UploadState } from './useUpload';

/** The progress line of an upload: file name, percentage (0–100), and the error when it failed. */
export function UploadProgress({ state }: { state: Pick<UploadState<unknown>, 'status' | 'percent' | 'name' | 'error'> }) {
  if (state.status === 'idle') return null;
  const status = state.status === 'error' ? 'exception' : state.status === 'done' ? 'success' : 'active';
  return (
    <div className="upload-progress" data-status={state.status} data-percent={state.percent}>
      {state.name ? (
        <Typography.Text className="upload-progress-name" ellipsis={{ tooltip: state.name }}>
          {state.name}
        </Typography.Text>
      ) : null}
      <Progress percent={state.percent} status={status} size="small" />
      {state.status === 'error' && state.error ? <Typography.Text type="danger">{state.error}</Typography.Text> : null}
    </div>
  );
}
