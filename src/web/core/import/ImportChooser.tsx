import { InboxOutlined } from '@ant-design/icons';
import { App, Radio, Space, Upload } from 'antd';
import type { ImportMode } from '../../../shared/module-schema/api';
import './import.css';

export interface ImportChooserProps {
  mode: ImportMode;
  onModeChange: (mode: ImportMode) => void;
  file: File | undefined;
  onFileChange: (file: File | undefined) => void;
}

/**
 * The first step of an import dialog: the mode (部分导入: the good rows; 全部成功才导入: nothing unless
 * every row is good) and one .xlsx file, kept in the browser until the dialog sends it.
 */
export function ImportChooser({ mode, onModeChange, file, onFileChange }: ImportChooserProps) {
  const { message } = App.useApp();
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <div>
        <div className="import-label">导入方式</div>
        <Radio.Group value={mode} onChange={(e) => onModeChange(e.target.value as ImportMode)}>
          <Radio value="partial">部分导入（导入正确的行，跳过有误的行）</Radio>
          <Radio value="all">全部成功才导入（有任何错误则不导入）</Radio>
        </Radio.Group>
      </div>
      <Upload.Dragger
        accept=".xlsx"
        maxCount={1}
        fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
        beforeUpload={(f) => {
          if (!/\.xlsx$/i.test(f.name)) {
            message.error('只能导入 .xlsx 文件（请使用导入模板）');
            return Upload.LIST_IGNORE;
          }
          onFileChange(f);
          return false;
        }}
        onRemove={() => onFileChange(undefined)}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">点击或拖拽 .xlsx 文件到此处</p>
        <p className="ant-upload-hint">请先下载导入模板，按模板的列填写；带 * 的列必填。</p>
      </Upload.Dragger>
    </Space>
  );
}
