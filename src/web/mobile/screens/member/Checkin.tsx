/** 会议签到: the page a meeting's QR code opens; it marks me present at once (POST /api/meetings/checkin) and says so. */
import { post } from '../../api';
import type { ScreenContext } from '../../screen';
import { Section } from '../../ui';
import { useLoad } from '../../useLoad';

interface Answer {
  meeting: { id: number; topic: string; date: string; type: string };
  member: string;
  already: boolean;
}

export default function Checkin({ params, go }: ScreenContext) {
  const result = useLoad(() => post<Answer>('/api/meetings/checkin', { token: params.token }), [params.token]);
  const a = result.data;
  return (
    <Section title="会议签到" loading={result.loading} error={result.error}>
      {a && (
        <div className="m-card m-center" role="status">
          <div className="m-big-ok" aria-hidden>✓</div>
          <div className="m-item-title">{a.already ? '您已签到' : '签到成功'}</div>
          <p className="m-item-text">{a.member} · {a.meeting.type} · {a.meeting.date}</p>
          <p className="m-item-text">{a.meeting.topic}</p>
          <button type="button" className="m-btn m-block" onClick={() => go('meetings')}>查看我的会议</button>
        </div>
      )}
    </Section>
  );
}
