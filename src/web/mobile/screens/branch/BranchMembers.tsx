/**
 * 支部党员: the branch's members with their dues standing (paid up to, owed: `GET /api/dues/branch/members`), and
 * 提醒缴费 for a member behind, or for all those behind (`POST /api/dues/branch/remind`: a reminder message).
 */
import { useState } from 'react';
import { get, post } from '../../api';
import { Section } from '../../ui';
import { useLoad } from '../../useLoad';

interface Standing {
  memberId: number;
  name: string;
  orgName: string;
  paidUpTo: string | null;
  unpaidMonths: string[];
  owed: string;
  hasUnpaid: boolean;
  reachable: boolean;
}

interface RemindAnswer {
  sent: number;
  skipped: { memberId: number; name: string; reason: string }[];
}

const monthText = (m: string) => `${m.slice(0, 4)}年${Number(m.slice(5, 7))}月`;

export default function BranchMembers() {
  const [behind, setBehind] = useState(false);
  const list = useLoad(() => get<{ content: Standing[]; totalElements: number; behind: number }>(`/api/dues/branch/members?size=500${behind ? '&behind=true' : ''}`), [behind]);
  const [reminded, setReminded] = useState<Set<number>>(new Set());
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const remind = async (ids: number[]) => {
    setBusy(true);
    setNote(null);
    try {
      const answer = await post<RemindAnswer>('/api/dues/branch/remind', { memberIds: ids });
      const skipped = new Set(answer.skipped.map((s) => s.memberId));
      setReminded((r) => new Set([...r, ...ids.filter((id) => !skipped.has(id))]));
      setNote({ text: `已提醒 ${answer.sent} 人${answer.skipped.length ? `；未提醒：${answer.skipped.map((s) => `${s.name}（${s.reason}）`).join('、')}` : ''}`, error: false });
    } catch (e) {
      setNote({ text: (e as Error).message, error: true });
    } finally {
      setBusy(false);
    }
  };
  const rows = list.data?.content ?? [];
  const waiting = rows.filter((m) => m.hasUnpaid && m.reachable && !reminded.has(m.memberId));
  return (
    <>
      <div className="m-chips" role="tablist" aria-label="党员范围">
        {[{ key: false, label: '全部' }, { key: true, label: `欠缴${list.data ? `（${list.data.behind}）` : ''}` }].map((t) => (
          <button key={String(t.key)} type="button" role="tab" aria-selected={behind === t.key} className={behind === t.key ? 'm-chip m-chip-on' : 'm-chip'} onClick={() => setBehind(t.key)}>
            {t.label}
          </button>
        ))}
      </div>
      {note && <p className={note.error ? 'm-note m-error' : 'm-done'} role={note.error ? 'alert' : 'status'}>{note.text}</p>}
      <Section
        title={`支部党员${list.data ? `（${list.data.totalElements}）` : ''}`}
        extra={waiting.length > 1 ? <button type="button" className="m-link" disabled={busy} onClick={() => void remind(waiting.map((m) => m.memberId))}>全部提醒（{waiting.length}）</button> : undefined}
        loading={list.loading}
        error={list.error}
        empty={rows.length === 0}
      >
        <ul className="m-list" aria-label="支部党员">
          {rows.map((m) => (
            <li key={m.memberId} className="m-item">
              <div className="m-item-main">
                <div className="m-item-title">{m.name}</div>
                <div className="m-item-meta">已缴至 {m.paidUpTo ? monthText(m.paidUpTo) : '—'}</div>
                {m.hasUnpaid && <div className="m-item-text m-warn">欠缴 {m.owed} 元（{m.unpaidMonths.length}个月）</div>}
              </div>
              {m.hasUnpaid &&
                (reminded.has(m.memberId) ? (
                  <span className="m-item-meta">已提醒</span>
                ) : m.reachable ? (
                  <button type="button" className="m-btn" disabled={busy} onClick={() => void remind([m.memberId])}>
                    提醒缴费
                  </button>
                ) : (
                  <span className="m-item-meta">无账号</span>
                ))}
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
