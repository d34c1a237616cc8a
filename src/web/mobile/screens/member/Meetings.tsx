/** 会议: the meetings of my organisation I should attend (三会一课, 主题党日 …), whether I am marked present. */
import type { ScreenContext } from '../../screen';
import { Section } from '../../ui';
import { useLoad } from '../../useLoad';
import { myMeetings } from './meetings';

export default function Meetings({ go }: ScreenContext) {
  const list = useLoad(myMeetings);
  const today = new Date().toISOString().slice(0, 10);
  return (
    <Section title="我的会议" loading={list.loading} error={list.error} empty={list.data?.content.length === 0}>
      <p className="m-hint">到会后扫描会议现场的二维码签到。</p>
      <ul className="m-list" aria-label="我的会议">
        {list.data?.content.map((m) => (
          <li key={m.id} className="m-item">
            <button type="button" className="m-item-main m-item-button" onClick={() => go(`meetings/${m.id}`)}>
              <div className="m-item-title">{m.topic}</div>
              <div className="m-item-meta">{m.type} · {m.date}{m.place ? ` · ${m.place}` : ''}</div>
            </button>
            <span className={m.attended ? 'm-tag m-tag-ok' : 'm-tag'}>{m.attended ? '已签到' : m.date >= today ? '待参加' : '未签到'}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}
