/**
 * A meeting of my organisation; for those who may edit the meeting (the branch secretary), its check-in QR code:
 * members scan it with the phone's camera and open /web/m/checkin/<token> (GET /api/meetings/{id}/checkin).
 */
import { useEffect, useState } from 'react';
import { get } from '../../api';
import { holds, type ScreenContext } from '../../screen';
import { Section } from '../../ui';
import { useLoad } from '../../useLoad';
import { myMeetings } from './meetings';

interface CheckinCode {
  path: string;
  until: string;
}

/** The QR image of a link (the library loads only when a code is shown). */
async function qrOf(text: string): Promise<string> {
  const QRCode = await import('qrcode');
  return QRCode.toDataURL(text, { width: 260, margin: 1, errorCorrectionLevel: 'M' });
}

function CheckinQr({ meetingId }: { meetingId: number }) {
  const code = useLoad(() => get<CheckinCode>(`/api/meetings/${meetingId}/checkin`), [meetingId]);
  const [image, setImage] = useState('');
  const link = code.data ? `${window.location.origin}${code.data.path}` : '';
  useEffect(() => {
    if (link) void qrOf(link).then(setImage);
  }, [link]);
  return (
    <Section title="签到二维码" loading={code.loading} error={code.error}>
      <div className="m-card m-center">
        {image && <img className="m-qr" src={image} alt="会议签到二维码" data-link={link} />}
        <p className="m-hint">请参会党员用手机扫码签到，{code.data?.until} 前有效。</p>
      </div>
    </Section>
  );
}

export default function MeetingDetail({ params, user }: ScreenContext) {
  const id = Number(params.id);
  const list = useLoad(myMeetings);
  const m = list.data?.content.find((x) => x.id === id);
  return (
    <>
      <Section title="会议" loading={list.loading} error={list.error} empty={!!list.data && !m}>
        {m && (
          <div className="m-card">
            <div className="m-item-title">{m.topic}</div>
            <div className="m-kv"><span>类型</span><span>{m.type}</span></div>
            <div className="m-kv"><span>日期</span><span>{m.date}</span></div>
            {m.place && <div className="m-kv"><span>地点</span><span>{m.place}</span></div>}
            <div className="m-kv"><span>党组织</span><span>{m.orgName}</span></div>
            <div className="m-kv"><span>我的签到</span><span>{m.attended ? '已签到' : '未签到'}</span></div>
          </div>
        )}
      </Section>
      {m && m.state === -1 && holds('meeting:edit')(user) && <CheckinQr meetingId={m.id} />}
    </>
  );
}
