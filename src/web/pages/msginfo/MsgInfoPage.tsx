import { useQueryClient } from '@tanstack/react-query';
import { Badge, Card, Tabs } from 'antd';
import { useEffect, useRef } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { BADGE_MAX } from '../../../shared/constants';
import { useCounters } from '../../core/stores/counters';
import { MessagesTab } from './MessagesTab';
import { TodosTab } from './TodosTab';
import './msginfo.css';

type Tab = 'private' | 'system' | 'todo';

/** The tab a path opens: `?tab=todo|private|system` (user menu), else the menu page's own path (…/todo). */
export function tabFor(pathname: string, query: string | null): Tab {
  if (query === 'todo' || query === 'private' || query === 'system') return query;
  return /\/todo\/?$/.test(pathname) ? 'todo' : 'private';
}

/** Reloads the lists under `key` when `value` (a badge counter) changes after the first render. */
function useRefetchOnChange(value: number, key: string) {
  const queryClient = useQueryClient();
  const previous = useRef(value);
  useEffect(() => {
    if (previous.current === value) return;
    previous.current = value;
    void queryClient.invalidateQueries({ queryKey: [key] });
  }, [value, key, queryClient]);
}

/**
 * 私信与待办 (/message/msginfo, and the core:msginfo menu pages): the current user's private messages, the
 * system's messages (reminders, notices: a badge of 私信 that was mostly reminders told a user nothing) and to-dos.
 * The lists follow the badge counters, so a message pushed over the websocket shows without a reload.
 */
export default function MsgInfoPage() {
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const tab = tabFor(pathname, params.get('tab'));
  const remind = useCounters((s) => s.remind.totalElements);
  const unread = useCounters((s) => s.unread);
  const todo = useCounters((s) => s.todo.totalElements);

  useRefetchOnChange(remind + unread.private + unread.system, 'msg-list');
  useRefetchOnChange(todo, 'todo-list');

  return (
    <Card className="msginfo-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
        items={[
          { key: 'private', label: <Badge count={unread.private} overflowCount={BADGE_MAX} size="small" offset={[8, -2]}>私信</Badge>, children: <MessagesTab kind="private" /> },
          { key: 'system', label: <Badge count={unread.system} overflowCount={BADGE_MAX} size="small" offset={[8, -2]}>系统消息</Badge>, children: <MessagesTab kind="system" /> },
          { key: 'todo', label: <Badge count={todo} overflowCount={BADGE_MAX} size="small" offset={[8, -2]}>待办</Badge>, children: <TodosTab /> },
        ]}
      />
    </Card>
  );
}
