/**
 * 会议签到二维码 (`/meetings/checkin/:id`, a link on a meeting's detail): the code members scan with their phones
 * to be marked present (the mobile terminal's /web/m/checkin/<token>; GET /api/meetings/{id}/checkin), large
 * enough to show on a projector.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { get } from '../../core/request/request';
import { qrDataUrl } from '../../core/upload/mobile';

interface CheckinCode {
  path: string;
  until: string;
  topic: string;
  date: string;
}

export default function CheckinQrPage() {
  // The layout resolves the constant route itself: the id is the path's last part.
  const id = /\/meetings\/checkin\/(\d+)/.exec(useLocation().pathname)?.[1];
  const code = useQuery({ queryKey: ['meeting-checkin', id], queryFn: () => get<CheckinCode>(`/api/meetings/${id}/checkin`, undefined, { skipErrorNotify: true }), retry: false, enabled: !!id });
  const link = code.data ? `${window.location.origin}${code.data.path}` : '';
  const [qr, setQr] = useState('');
  useEffect(() => {
    if (link) void qrDataUrl(link).then(setQr, () => setQr(''));
  }, [link]);
  if (code.isLoading) return <Spin style={{ margin: 48 }} />;
  if (!code.data) return <Alert type="warning" showIcon style={{ margin: 24 }} title={(code.error as { response?: { data?: { message?: string } } } | null)?.response?.data?.message ?? '无法生成签到二维码'} />;
  return (
    <div className="page-container">
      <Card title={`会议签到：${code.data.topic}`} style={{ maxWidth: 560, margin: '0 auto', textAlign: 'center' }}>
        {qr && <img src={qr} alt="会议签到二维码" width={320} height={320} data-link={link} />}
        <Typography.Paragraph style={{ marginTop: 12 }}>会议日期 {code.data.date}。请参会党员用手机扫码签到，签到码 {code.data.until} 前有效。</Typography.Paragraph>
        <Typography.Paragraph type="secondary" copyable={{ text: link }}>{link}</Typography.Paragraph>
      </Card>
    </div>
  );
}
