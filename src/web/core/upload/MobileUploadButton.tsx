import { CheckCircleFilled, MobileOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Modal, Result, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { MOBILE_POLL_MS, createMobileToken, mobileTokenState, mobileUploadLink, qrDataUrl } from './mobile';
import type { UploadedFile } from './upload';

interface Props {
  onUploaded?: (file: UploadedFile) => void;
  text?: string;
  disabled?: boolean;
}

interface Code {
  token: string;
  link: string;
  image: string;
}

/**
 * 手机上传: shows a QR code of a one-time link to `/mobileUpload` and waits until the phone has uploaded
 * through it; the file then counts as this user's upload.
 */
export function MobileUploadButton({ onUploaded, text = '手机上传', disabled }: Props) {
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState<Code>();
  const [creating, setCreating] = useState(false);

  const newCode = async () => {
    setCreating(true);
    setCode(undefined);
    try {
      const { token } = await createMobileToken();
      const link = mobileUploadLink(token);
      setCode({ token, link, image: await qrDataUrl(link) });
    } catch {
      // the request layer has said why
    } finally {
      setCreating(false);
    }
  };

  const state = useQuery({
    queryKey: ['mobile-upload', code?.token],
    queryFn: () => mobileTokenState(code!.token),
    enabled: open && !!code,
    refetchInterval: (q) => (q.state.data?.used || q.state.data?.expired ? false : MOBILE_POLL_MS),
    staleTime: 0,
    gcTime: 0,
  });
  const received = state.data?.used ? state.data.file : null;
  const expired = !!state.data?.expired;

  // One notification per received file, whatever the caller's callback identity.
  const onUploadedRef = useRef(onUploaded);
  onUploadedRef.current = onUploaded;
  useEffect(() => {
    if (!received) return;
    message.success(`已收到手机上传的文件：${received.name}`);
    onUploadedRef.current?.(received);
  }, [received, message]);

  const show = () => {
    setOpen(true);
    setCreating(true); // the spinner, not the failure, until the first answer
    void newCode();
  };
  const close = () => {
    setOpen(false);
    setCode(undefined);
  };

  return (
    <>
      <Button icon={<MobileOutlined />} onClick={show} disabled={disabled}>
        {text}
      </Button>
      <Modal open={open} title="手机上传" footer={<Button onClick={close}>{received ? '完成' : '关闭'}</Button>} onCancel={close} mask={{ closable: false }} keyboard={false} width={360} destroyOnHidden>
        <div className="mobile-upload-code">
          {received ? (
            <Result icon={<CheckCircleFilled style={{ color: '#52c41a' }} />} title="上传成功" subTitle={<span className="mobile-upload-received">{received.name}</span>} />
          ) : creating ? (
            <Spin />
          ) : !code ? (
            <Result status="error" title="获取二维码失败" extra={<Button type="primary" onClick={() => void newCode()}>重试</Button>} />
          ) : expired ? (
            <Result status="warning" title="二维码已失效" extra={<Button type="primary" onClick={() => void newCode()}>刷新二维码</Button>} />
          ) : (
            <>
              <img src={code.image} alt="手机上传二维码" width={220} height={220} />
              <Typography.Paragraph>请使用手机扫描二维码，在手机上选择或拍摄文件上传。二维码10分钟内有效，只能使用一次。</Typography.Paragraph>
              <Typography.Paragraph className="mobile-upload-link" copyable={{ text: code.link }}>
                <a href={code.link} target="_blank" rel="noreferrer">
                  {code.link}
                </a>
              </Typography.Paragraph>
            </>
          )}
        </div>
      </Modal>
    </>
  );
}
