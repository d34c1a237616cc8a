/**
 * 导入用户: the filled-in user template, in one of the two import modes. The server checks every row and
 * answers at once; the dialog then shows how many users were imported and every bad row.
 */
import { Alert, App, Button, Modal, Space } from 'antd';
import { useState } from 'react';
import type { ImportMode, ImportResult } from '../../../../shared/module-schema/api';
import { ImportChooser, ImportErrorTable, importChooseFooter } from '../../../core/import';
import { post } from '../../../core/request/request';
import { downloadUserTemplate } from './template';


function importUsers(file: File, mode: ImportMode) {
  const form = new FormData();
  form.append('mode', mode);
  form.append('file', file, file.name);
  return post<ImportResult>('/api/users/import', form, { headers: { 'Content-Type': 'multipart/form-data' } });
}

/** The outcome in one line: imported count, and how many rows were bad. */
function summary(result: ImportResult, mode: ImportMode): { type: 'success' | 'warning' | 'error'; title: string } {
  const badRows = new Set(result.errors.map((e) => e.row)).size;
  if (!badRows) return { type: 'success', title: `成功导入 ${result.imported} 条` };
  if (!result.imported) return { type: 'error', title: `${badRows} 行数据有误，${mode === 'all' ? '未导入任何数据' : '没有可导入的用户'}` };
  return { type: 'warning', title: `成功导入 ${result.imported} 条，${badRows} 行数据有误未导入` };
}

export function UserImportDialog({ open, onClose, onImported }: { open: boolean; onClose: () => void; onImported: () => void }) {
  const { message } = App.useApp();
  const [mode, setMode] = useState<ImportMode>('partial');
  const [file, setFile] = useState<File>();
  const [result, setResult] = useState<ImportResult>();
  const [importing, setImporting] = useState(false);

  const start = async () => {
    if (!file) {
      message.warning('请选择要导入的 .xlsx 文件');
      return;
    }
    setImporting(true);
    try {
      const answer = await importUsers(file, mode);
      setResult(answer);
      if (answer.imported) onImported();
    } catch {
      // Shown by the request layer (a file that is not a template, too many rows...).
    } finally {
      setImporting(false);
    }
  };

  /** Back to choosing a file (the corrected one). */
  const again = () => {
    setResult(undefined);
    setFile(undefined);
  };

  const close = () => {
    again();
    onClose();
  };

  const outcome = result && summary(result, mode);

  return (
    <Modal
      open={open}
      title="导入用户"
      width={700}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      onCancel={close}
      footer={
        result
          ? [
              <Button key="again" onClick={again}>
                继续导入
              </Button>,
              <Button key="close" type="primary" onClick={close}>
                完成
              </Button>,
            ]
          : importChooseFooter({ onTemplate: () => void downloadUserTemplate(), onCancel: close, onStart: () => void start(), starting: importing })
      }
    >
      {result && outcome ? (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Alert
            type={outcome.type}
            showIcon
            title={outcome.title}
            description={result.errors.length ? `共 ${result.errors.length} 处错误，请按下表修改后重新导入。` : '导入的用户尚不能登录：请在“未登录用户”中选中并开通账号，系统会为每人生成一次性密码（有手机号码的用户通过短信收到）。'}
          />
          {result.errors.length > 0 && <ImportErrorTable errors={result.errors} />}
        </Space>
      ) : (
        <ImportChooser mode={mode} onModeChange={setMode} file={file} onFileChange={setFile} />
      )}
    </Modal>
  );
}
