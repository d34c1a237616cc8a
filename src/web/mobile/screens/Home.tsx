/**
 * 首页: tiles of the screens offered on 首页, my open to-dos (mark one done, msgTodo) and my reminders: the
 * 智能提醒 in progress as the desktop's list and workbench count them (`/api/reminders?state=2`, issue 43.5);
 * for a user without 智能提醒, the unread reminder messages.
 */
import { useState } from 'react';
import { get, post, type Page } from '../api';
import { Section, timeText } from '../ui';
import { useLoad } from '../useLoad';
import type { PublicUser } from '../../../shared/session-user';
import { entriesOf } from '.';
import { desktopUrlOf, mobilePathOf } from '../../../shared/mobile-links';
import { REMINDER_LIST, type ReminderDto } from '../../../shared/reminders';

/** A to-do opens its record's mobile screen where there is one (shared/mobile-links.ts), else the full site. */
function openTodo(t: Todo, go: (screen: string) => void): void {
  const screen = mobilePathOf(t);
  if (screen !== null) go(screen);
  else if (t.link) window.location.assign(desktopUrlOf(t.link));
}

interface Todo {
  id: number;
  title: string;
  content: string;
  link: string | null;
  module: string | null;
  refId: string | null;
  status: number;
  createTime: string;
}

export interface Message {
  id: number;
  type: string;
  title: string;
  content: string;
  senderName: string;
  link?: string | null;
  isRead: boolean;
  createTime: string;
}

/** One entry of 我的提醒, from a dated reminder or a reminder message. */
interface ReminderItem {
  id: number;
  title: string;
  text: string;
  meta: string;
  link: string | null;
}

export function Home({ name, user, go }: { name: string; user: PublicUser; go: (screen: string) => void }) {
  const todos = useLoad(() => get<Page<Todo>>('/api/msgTodo/getTodo?status=0&page=0&size=20'));
  const datedReminders = user.isSuper || user.roles.includes(REMINDER_LIST);
  const reminders = useLoad(async (): Promise<Page<ReminderItem>> => {
    if (datedReminders) {
      const page = await get<Page<ReminderDto>>('/api/reminders?state=2&page=0&size=10');
      return { ...page, content: page.content.map((r) => ({ id: r.id, title: `${r.title}：${r.recordName}`, text: r.moduleTitle, meta: `到期日 ${r.dueDate}`, link: r.link })) };
    }
    const page = await get<Page<Message>>('/api/msgPushHistory?type=remind&read=false&page=0&size=10');
    return { ...page, content: page.content.map((m) => ({ id: m.id, title: m.title, text: m.content, meta: timeText(m.createTime), link: m.link ?? null })) };
  });
  const [error, setError] = useState('');
  const done = async (id: number) => {
    setError('');
    try {
      await post('/api/msgTodo/updateTodo', { ids: [id], status: 1 });
      todos.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <>
      <p className="m-greeting">{name}，您好</p>
      {entriesOf('home', user).length > 0 && (
        <nav className="m-tiles" aria-label="常用">
          {entriesOf('home', user).map((s) => (
            <button key={s.path} type="button" className="m-tile" onClick={() => go(s.path)}>
              {s.entry!.label}
            </button>
          ))}
        </nav>
      )}
      <Section title={`我的待办${todos.data ? `（${todos.data.totalElements}）` : ''}`} loading={todos.loading} error={todos.error || error} empty={todos.data?.content.length === 0}>
        <ul className="m-list" aria-label="我的待办">
          {todos.data?.content.map((t) => (
            <li key={t.id} className="m-item">
              <div className="m-item-main">
                {t.link || mobilePathOf(t) !== null ? (
                  <button type="button" className="m-todo-open m-item-title" onClick={() => openTodo(t, go)}>
                    {t.title}
                  </button>
                ) : (
                  <div className="m-item-title">{t.title}</div>
                )}
                {t.content && <div className="m-item-text">{t.content}</div>}
                <div className="m-item-meta">{timeText(t.createTime)}</div>
              </div>
              <button type="button" className="m-btn" onClick={() => void done(t.id)}>
                完成
              </button>
            </li>
          ))}
        </ul>
      </Section>
      <Section title={`我的提醒${reminders.data ? `（${reminders.data.totalElements}）` : ''}`} loading={reminders.loading} error={reminders.error} empty={reminders.data?.content.length === 0}>
        <ul className="m-list" aria-label="我的提醒">
          {reminders.data?.content.map((m) => (
            <li key={m.id} className="m-item" data-reminder={m.id}>
              <div className="m-item-main">
                {m.link ? (
                  <button type="button" className="m-todo-open m-item-title" onClick={() => window.location.assign(desktopUrlOf(m.link!))}>
                    {m.title}
                  </button>
                ) : (
                  <div className="m-item-title">{m.title}</div>
                )}
                <div className="m-item-text">{m.text}</div>
                <div className="m-item-meta">{m.meta}</div>
              </div>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
