import { UploadOutlined } from '@ant-design/icons';
import { Button, Space, Upload } from 'antd';
import { MobileUploadButton } from './MobileUploadButton';
import { ACCEPT_ALL, type UploadedFile } from './upload';
import { UploadProgress } from './UploadProgress';
import { useUpload, type UseUploadOptions } from './useUpload';
import './upload.css';

export interface UploadButtonProps extends UseUploadOptions {
  onUploaded?: (file: UploadedFile) => void;
  text?: string;
  /** `accept` of the file chooser; defaults to every type the server accepts. */
  accept?: string;
  /** Also offer 手机上传 (a QR code for uploading from a phone). */
  mobile?: boolean;
  disabled?: boolean;
}

/**
 * The upload control used across the app: choose a file, `POST /api/file/upload` (multipart `file`,
 * optional `moduleName` and `tag`), progress 0–100 % shown under the button (spec S7.F4a/b).
 */
export function UploadButton({ onUploaded, text = '上传文件', accept = ACCEPT_ALL, mobile = true, disabled, ...options }: UploadButtonProps) {
  const upload = useUpload(options);
  const pick = (file: File) => {
    void upload.upload(file).then((result) => result && onUploaded?.(result));
    return Upload.LIST_IGNORE;
  };
  return (
    <div className="upload-button">
      <Space wrap>
        <Upload accept={accept} showUploadList={false} beforeUpload={pick} disabled={disabled || upload.uploading}>
          <Button type="primary" icon={<UploadOutlined />} loading={upload.uploading} disabled={disabled}>
            {text}
          </Button>
        </Upload>
        {mobile ? <MobileUploadButton onUploaded={onUploaded} disabled={disabled} /> : null}
      </Space>
      <UploadProgress state={upload} />
    </div>
  );
}
