/** 消息: my messages (private, reminders, notices); opening an unread one marks it read. */
import { useState } from 'react';
import { get, post, type Page } from '../api';
import { Section, timeText } from '../ui';
import { useLoad } from '../useLoad';
import type { Message } from './Home';
import { desktopUrlOf, mobilePathOf } from '../../../shared/mobile-links';

const TYPES = [
  { key: '', label: '全部' },
  { key: 'private', label: '私信' },
  { key: 'remind', label: '提醒' },
  { key: 'notice', label: '通知' },
];

export function Messages({ go }: { go: (screen: string) => void }) {
  const [type, setType] = useState('');
  const [open, setOpen] = useState<number | null>(null);
  const list = useLoad(() => get<Page<Message>>(`/api/msgPushHistory?page=0&size=30${type ? `&type=${type}` : ''}`), [type]);
  const show = async (m: Message) => {
    setOpen(open === m.id ? null : m.id);
    if (!m.isRead) {
      await post('/api/msgPushHistory/updateRemind', { ids: [m.id] }).catch(() => undefined);
      m.isRead = true;
    }
  };
  return (
    <>
      <div className="m-chips" role="tablist" aria-label="消息类型">
        {TYPES.map((t) => (
          <button key={t.key} type="button" role="tab" aria-selected={type === t.key} className={type === t.key ? 'm-chip m-chip-on' : 'm-chip'} onClick={() => setType(t.key)}>
            {t.label}
          </button>
        ))}
      </div>
      <Section title="消息" loading={list.loading} error={list.error} empty={list.data?.content.length === 0}>
        <ul className="m-list" aria-label="消息列表">
          {list.data?.content.map((m) => (
            <li key={m.id} className="m-item">
              <button type="button" className="m-item-main m-item-button" aria-expanded={open === m.id} onClick={() => void show(m)}>
                <div className="m-item-title">
                  {!m.isRead && <span className="m-dot" aria-label="未读" />}
                  {m.title}
                </div>
                <div className={open === m.id ? 'm-item-text' : 'm-item-text m-clamp'}>{m.content}</div>
                <div className="m-item-meta">
                  {m.senderName} · {timeText(m.createTime)}
                </div>
              </button>
              {open === m.id && m.link && (
                <button type="button" className="m-btn" onClick={() => (mobilePathOf(m) !== null ? go(mobilePathOf(m)!) : window.location.assign(desktopUrlOf(m.link!)))}>
                  查看
                </button>
              )}
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
