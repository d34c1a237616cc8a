import { CameraOutlined, UserOutlined } from '@ant-design/icons';
import { App, Avatar, Button, Modal, Upload } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { IMAGE_TYPES, MAX_AVATAR_BYTES } from '../../../shared/file-types';
import { endpoints } from '../../core/config/endpoints';
import { useFileObjectUrl } from '../../core/files';
import { useSession } from '../../core/stores/session';
import { UploadProgress, uploadProblem, useUpload } from '../../core/upload';

const ACCEPT_IMAGES = Object.keys(IMAGE_TYPES)
  .map((ext) => `.${ext}`)
  .join(',');
const checkImage = (file: File) => uploadProblem(file, MAX_AVATAR_BYTES, IMAGE_TYPES);

/** The own avatar with 更换头像: pick a picture, see it, then upload it (`POST /api/users/updateAvatar`). */
export function AvatarUpload() {
  const { message } = App.useApp();
  const avatar = useSession((s) => s.user?.avatar);
  const shown = useFileObjectUrl(avatar);
  const [picked, setPicked] = useState<File>();
  const preview = useMemo(() => (picked ? URL.createObjectURL(picked) : undefined), [picked]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  const upload = useUpload({ url: endpoints.avatarUpload, check: checkImage });

  const choose = (file: File) => {
    const problem = checkImage(file);
    if (problem) message.error(problem);
    else {
      upload.reset();
      setPicked(file);
    }
    return Upload.LIST_IGNORE;
  };

  const confirm = async () => {
    if (!picked) return;
    const result = await upload.upload(picked);
    if (!result) return;
    await useSession.getState().getInfo().catch(() => undefined);
    message.success('头像修改成功');
    setPicked(undefined);
  };

  return (
    <div className="user-avatar">
      <Avatar size={100} src={shown} icon={<UserOutlined />} alt="头像" />
      <Upload accept={ACCEPT_IMAGES} showUploadList={false} beforeUpload={choose}>
        <Button size="small" icon={<CameraOutlined />}>
          更换头像
        </Button>
      </Upload>
      <Modal
        open={!!picked}
        title="更换头像"
        okText="确定上传"
        onOk={() => void confirm()}
        onCancel={() => setPicked(undefined)}
        confirmLoading={upload.uploading}
        mask={{ closable: false }}
        keyboard={false}
        destroyOnHidden
      >
        <div className="avatar-preview">
          {preview ? <img src={preview} alt="头像预览" /> : null}
          <Avatar size={64} src={preview} />
        </div>
        <UploadProgress state={upload} />
      </Modal>
    </div>
  );
}
