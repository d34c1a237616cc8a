/** 工资表导入: the payroll spreadsheet of a year (one row per person), answered at once with every bad row. */
import { Alert, App, Button, Descriptions, Modal, Space } from 'antd';
import { useState } from 'react';
import type { PayrollResult } from '../../../shared/dues/api';
import type { ImportMode } from '../../../shared/module-schema/api';
import { ImportChooser, ImportErrorTable, importChooseFooter } from '../../core/import';
import { duesApi } from './api';

export default function PayrollImportDialog({ year, onClose }: { year: number; onClose: (changed: boolean) => void }) {
  const { message } = App.useApp();
  const [mode, setMode] = useState<ImportMode>('partial');
  const [file, setFile] = useState<File>();
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<PayrollResult>();

  const start = async () => {
    if (!file) {
      message.warning('请选择工资表 .xlsx 文件');
      return;
    }
    setRunning(true);
    try {
      setResult(await duesApi.importPayroll(year, file, mode));
    } catch {
      // Shown by the request layer.
    } finally {
      setRunning(false);
    }
  };
  const changed = !!result && result.created + result.updated > 0;

  return (
    <Modal
      open
      width={760}
      title={`工资表导入（${year}年度党费标准）`}
      mask={{ closable: false }}
      keyboard={false}
      onCancel={() => onClose(changed)}
      footer={
        result ? (
          <Button type="primary" onClick={() => onClose(changed)}>
            完成
          </Button>
        ) : (
          importChooseFooter({ onTemplate: () => void duesApi.payrollTemplate(year), onCancel: () => onClose(false), onStart: () => void start(), starting: running })
        )
      }
    >
      {!result ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert type="info" showIcon title="每行一人：身份证号或工号，以及“党费基数”或本校公式中的工资项目（元）。学生党员和无固定收入党员按定额，无需导入。" />
          <ImportChooser mode={mode} onModeChange={setMode} file={file} onFileChange={setFile} />
        </Space>
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }} className="payroll-result">
          <Alert type={result.failed ? 'warning' : 'success'} showIcon title={`导入完成：新增${result.created}人，更新${result.updated}人，未变化${result.unchanged}人，失败${result.failed}行`} />
          <Descriptions size="small" column={1} items={[{ key: 'formula', label: '基数公式', children: result.formulaText }]} />
          {result.errors.length > 0 && <ImportErrorTable errors={result.errors} />}
        </Space>
      )}
    </Modal>
  );
}
