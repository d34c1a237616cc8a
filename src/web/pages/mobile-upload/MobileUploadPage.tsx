import { CameraOutlined, CheckCircleFilled, CloseCircleFilled, FolderOpenOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Progress, Result, Spin } from 'antd';
import { useRef, type ChangeEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import { endpoints } from '../../core/config/endpoints';
import { get } from '../../core/request/request';
import { ACCEPT_ALL, useUpload } from '../../core/upload';
import './mobile-upload.css';

/** What the server says when a link was used, expired or never existed. */
const LINK_GONE = '二维码已失效，请在电脑端刷新';

const errorMessage = (error: unknown) => (error as { response?: { data?: { message?: string } } } | null)?.response?.data?.message ?? LINK_GONE;

/**
 * /mobileUpload (spec §2): the phone side of 手机上传, open without a session. The one-time `token` of the
 * QR code lets the phone upload one file into the desktop user's uploads.
 */
export default function MobileUploadPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const photoInput = useRef<HTMLInputElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useUpload({ url: endpoints.mobileUpload, params: { token }, skipErrorNotify: true });

  // Says at once whether a scanned code is still good, before the user picks a file.
  const link = useQuery({
    queryKey: ['mobile-upload-link', token],
    queryFn: () => get<{ valid: boolean; expiresAt: string }>(endpoints.mobileUpload, { token }, { skipErrorNotify: true }),
    enabled: !!token,
    retry: false,
    staleTime: Infinity,
  });

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void upload.upload(file);
  };

  let body;
  if (!token) body = <Result status="info" title="请扫描二维码" subTitle="请使用电脑端页面上的“手机上传”二维码打开本页面。" />;
  else if (link.isLoading) body = <Spin size="large" />;
  else if (link.isError) body = <Result icon={<CloseCircleFilled className="mobile-upload-bad" />} title="无法上传" subTitle={errorMessage(link.error)} />;
  else if (upload.status === 'done')
    body = <Result icon={<CheckCircleFilled className="mobile-upload-ok" />} title="上传成功" subTitle={<>文件“{upload.name}”已上传，请回到电脑端继续操作。本页面可以关闭。</>} />;
  else
    body = (
      <>
        <p className="mobile-upload-hint">拍照或选择一个文件上传到电脑端。</p>
        <div className="mobile-upload-actions">
          <Button type="primary" size="large" block icon={<CameraOutlined />} disabled={upload.uploading} onClick={() => photoInput.current?.click()}>
            拍照上传
          </Button>
          <Button size="large" block icon={<FolderOpenOutlined />} disabled={upload.uploading} onClick={() => fileInput.current?.click()}>
            选择文件
          </Button>
        </div>
        <input ref={photoInput} type="file" accept="image/*" capture="environment" hidden onChange={pick} data-testid="photo-input" />
        <input ref={fileInput} type="file" accept={ACCEPT_ALL} hidden onChange={pick} data-testid="file-input" />
        {upload.status !== 'idle' ? (
          <div className="mobile-upload-progress" data-status={upload.status} data-percent={upload.percent}>
            <div className="mobile-upload-name">{upload.name}</div>
            <Progress percent={upload.percent} status={upload.status === 'error' ? 'exception' : 'active'} />
            {upload.status === 'error' ? <p className="mobile-upload-error">{upload.error ?? LINK_GONE}</p> : null}
          </div>
        ) : null}
      </>
    );

  return (
    <div className="mobile-upload-page">
      <h1>上传文件</h1>
      <div className="mobile-upload-body">{body}</div>
    </div>
  );
}
