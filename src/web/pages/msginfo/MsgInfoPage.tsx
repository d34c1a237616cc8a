import { useQueryClient } from '@tanstack/react-query';
import { Badge, Card, Tabs } from 'antd';
import { useEffect, useRef } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { BADGE_MAX } from '../../../shared/constants';
import { useCounters } from '../../core/stores/counters';
import { MessagesTab } from './MessagesTab';
import { TodosTab } from './TodosTab';
import './msginfo.css';

type Tab = 'private' | 'todo';

/** The tab a path opens: `?tab=todo|private` (user menu), else the menu page's own path (…/todo). */
export function tabFor(pathname: string, query: string | null): Tab {
  if (query === 'todo' || query === 'private') return query;
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
 * 私信与待办 (/message/msginfo, and the core:msginfo menu pages): the current user's messages and to-dos.
 * The lists follow the badge counters, so a message pushed over the websocket shows without a reload.
 */
export default function MsgInfoPage() {
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const tab = tabFor(pathname, params.get('tab'));
  const remind = useCounters((s) => s.remind.totalElements);
  const todo = useCounters((s) => s.todo.totalElements);

  useRefetchOnChange(remind, 'msg-list');
  useRefetchOnChange(todo, 'todo-list');

  return (
    <Card className="msginfo-page">
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
        items={[
          { key: 'private', label: <Badge count={remind} overflowCount={BADGE_MAX} size="small" offset={[8, -2]}>私信</Badge>, children: <MessagesTab /> },
          { key: 'todo', label: <Badge count={todo} overflowCount={BADGE_MAX} size="small" offset={[8, -2]}>待办</Badge>, children: <TodosTab /> },
        ]}
      />
    </Card>
  );
}
