/**
 * 导入: an .xlsx of the module's template, in one of two modes (部分导入: the good rows; 全部成功才导入:
 * nothing unless every row is good). The job runs on the server; the dialog polls it, shows the
 * progress, then every bad row with its problem and the error report to download.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Progress, Space } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import { TaskStatus } from '../../../shared/constants';
import { ImportChooser, ImportErrorTable, importChooseFooter } from '../../core/import';
import { moduleApi, moduleKeys, type ImportMode } from '../api';

const POLL_MS = 800;

export function ImportDialog({ module, title, open, onClose }: { module: string; title: string; open: boolean; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<ImportMode>('partial');
  const [file, setFile] = useState<File>();
  const [jobId, setJobId] = useState<number>();
  // The page the import's message leads back to (it shows the job and its error report).
  const { pathname } = useLocation();
  const [starting, setStarting] = useState(false);
  const job = useQuery({
    queryKey: [...moduleKeys.all(module), 'import', jobId],
    queryFn: () => moduleApi.importStatus(module, jobId!),
    enabled: jobId !== undefined,
    refetchInterval: (q) => (q.state.data && q.state.data.status >= TaskStatus.SUCCESS ? false : POLL_MS),
  });
  const status = job.data;
  const finished = !!status && status.status >= TaskStatus.SUCCESS;
  const running = jobId !== undefined && !finished;

  const start = async () => {
    if (!file) {
      message.warning('请选择要导入的 .xlsx 文件');
      return;
    }
    setStarting(true);
    try {
      const { jobId: id } = await moduleApi.importFile(module, file, mode, pathname);
      setJobId(id);
    } catch {
      // Shown by the request layer.
    } finally {
      setStarting(false);
    }
  };

  const close = () => {
    if (status?.imported) void queryClient.invalidateQueries({ queryKey: moduleKeys.all(module) });
    setJobId(undefined);
    setFile(undefined);
    onClose();
  };

  const percent = status ? (finished ? 100 : status.total ? Math.floor((status.processed / status.total) * 100) : 0) : 0;
  const ok = finished && status.status === TaskStatus.SUCCESS && !status.errors.length;

  return (
    <Modal
      open={open}
      title={`导入${title}`}
      width={700}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      onCancel={close}
      footer={
        jobId === undefined
          ? importChooseFooter({ onTemplate: () => void moduleApi.template(module, title), onCancel: close, onStart: () => void start(), starting })
          : [
              status?.reportUrl ? (
                <Button key="report" icon={<DownloadOutlined />} onClick={() => void moduleApi.importReport(status.reportUrl!, title)}>
                  下载错误报告
                </Button>
              ) : null,
              <Button key="close" type="primary" disabled={running} onClick={close}>
                {running ? '导入中…' : '完成'}
              </Button>,
            ]
      }
    >
      {jobId === undefined ? (
        <ImportChooser mode={mode} onModeChange={setMode} file={file} onFileChange={setFile} />
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <div className="rf-import-progress">
            <Progress percent={percent} status={finished ? (ok ? 'success' : status.imported ? 'normal' : 'exception') : 'active'} />
            {!finished && (
              <div className="rf-import-line">{status ? `${status.statusLabel}：已处理 ${status.processed} / ${status.total || '…'} 行` : '正在上传…'}</div>
            )}
          </div>
          {finished && (
            <Alert
              type={ok ? 'success' : status.imported ? 'warning' : 'error'}
              showIcon
              title={status.message || (ok ? '导入成功' : '导入失败')}
              description={status.errors.length ? `共 ${status.errors.length} 处错误，可下载错误报告修改后重新导入。` : undefined}
            />
          )}
          {finished && status.errors.length > 0 && <ImportErrorTable errors={status.errors} />}
        </Space>
      )}
    </Modal>
  );
}
