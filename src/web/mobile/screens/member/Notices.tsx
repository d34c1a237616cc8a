/** 通知: the notices sent to me (messages of type notice); opening an unread one marks it read. */
import { useState } from 'react';
import { get, post, type Page } from '../../api';
import { Section, timeText } from '../../ui';
import { useLoad } from '../../useLoad';
import type { Message } from '../Home';

export default function Notices() {
  const list = useLoad(() => get<Page<Message>>('/api/msgPushHistory?type=notice&page=0&size=30'));
  const [open, setOpen] = useState<number | null>(null);
  const show = (m: Message) => {
    setOpen(open === m.id ? null : m.id);
    if (!m.isRead) {
      m.isRead = true;
      void post('/api/msgPushHistory/updateRemind', { ids: [m.id] }).catch(() => undefined);
    }
  };
  return (
    <Section title="通知公告" loading={list.loading} error={list.error} empty={list.data?.content.length === 0}>
      <ul className="m-list" aria-label="通知公告">
        {list.data?.content.map((m) => (
          <li key={m.id} className="m-item">
            <button type="button" className="m-item-main m-item-button" aria-expanded={open === m.id} onClick={() => show(m)}>
              <div className="m-item-title">{!m.isRead && <span className="m-dot" aria-label="未读" />}{m.title}</div>
              <div className={open === m.id ? 'm-item-text' : 'm-item-text m-clamp'}>{m.content}</div>
              <div className="m-item-meta">{m.senderName} · {timeText(m.createTime)}</div>
            </button>
          </li>
        ))}
      </ul>
    </Section>
  );
}
