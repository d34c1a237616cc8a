import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';

/** The buttons of an import dialog's first step: 下载模板, 取消, 开始导入. */
export function importChooseFooter({ onTemplate, onCancel, onStart, starting }: { onTemplate: () => void; onCancel: () => void; onStart: () => void; starting: boolean }) {
  return [
    <Button key="template" icon={<DownloadOutlined />} onClick={onTemplate}>
      下载模板
    </Button>,
    <Button key="cancel" onClick={onCancel}>
      取消
    </Button>,
    <Button key="start" type="primary" loading={starting} onClick={onStart}>
      开始导入
    </Button>,
  ];
}
