/**
 * What the workbench shows, each from the API its own page reads (so a figure equals the list it opens),
 * in the caller's scope as those APIs answer it.
 */
import { get, post } from '../../core/request/request';
import { useMemo } from 'react';
import type { AppRoute } from '../../../shared/menus';
import { usePermission } from '../../core/stores/permission';

export interface Todo {
  id: number;
  title: string;
  content: string;
  link: string | null;
  createTime: string;
}
export interface Reminder {
  id: number;
  title: string;
  recordName: string;
  moduleTitle: string;
  dueDate: string;
  link: string | null;
}
export interface Notice {
  id: number;
  title: string;
  content: string;
  senderName: string;
  isRead: boolean;
  createTime: string;
}
export interface Page<T> {
  content: T[];
  totalElements: number;
}

/** Areas whose records wait for approval (x-workflow), by the menu page that lists them. */
export const APPROVAL_AREAS = [
  { module: 'development', component: 'core:development-process' },
  { module: 'transfer-internal', component: 'module:transfer-internal' },
  { module: 'transfer-out', component: 'module:transfer-out' },
  { module: 'transfer-in', component: 'module:transfer-in' },
  { module: 'floating', component: 'module:floating' },
] as const;

/** Pages offered as shortcuts, most used first; a role sees those of its menu. */
export const SHORTCUTS = [
  'core:dues-my', 'core:pschool-study-center', 'core:pschool-online-exam', 'module:member', 'core:development-process', 'core:dues-onsite',
  'core:dues-batch', 'module:transfer-internal', 'module:transfer-out', 'core:member-roster', 'module:org', 'core:dues-report', 'core:users', 'core:msginfo',
];

/** Every page of a menu tree, depth first (absolute-path pages such as /pschool are not among the registered ones). */
const pagesOf = (routes: AppRoute[]): AppRoute[] => routes.flatMap((r) => [...(r.component ? [r] : []), ...pagesOf(r.children ?? [])]);

/** The menu page of a component the user may open: its path and title, or undefined. */
export function usePageOf(): (component: string) => { path: string; title: string } | undefined {
  const topbar = usePermission((s) => s.topbarRouters);
  const pages = useMemo(() => pagesOf(topbar), [topbar]);
  return (component) => {
    const r = pages.find((x) => x.component === component && !x.meta.hidden) ?? pages.find((x) => x.component === component);
    return r && { path: r.path, title: r.meta.title };
  };
}

const year = () => new Date().getFullYear();
/** A card that cannot load stays quiet: no message, no 401 page (a figure is not worth leaving the home page). */
const QUIET = { inPlace: true, skipErrorNotify: true };

export const workbenchApi = {
  todos: () => get<Page<Todo>>('/api/msgTodo/getTodo', { status: 0, page: 0, size: 5 }, QUIET),
  reminders: () => get<Page<Reminder>>('/api/reminders', { state: 2, page: 0, size: 5 }, QUIET),
  notices: () => get<Page<Notice>>('/api/msgPushHistory', { type: 'notice', page: 0, size: 5 }, QUIET),
  waiting: async (module: string) => (await post<Page<unknown>>(`/api/m/${module}/list`, { $waiting: true }, { params: { page: 0, size: 1 }, ...QUIET })).totalElements,
  count: async (module: string, filter: Record<string, unknown> = {}) => (await post<Page<unknown>>(`/api/m/${module}/list`, filter, { params: { page: 0, size: 1 }, ...QUIET })).totalElements,
  funnel: () => get<{ stages: { value: string; title: string; count: number }[] }>('/api/development/funnel', undefined, QUIET),
  duesYear: () => get<{ year: number; totals: { items: number; paidItems: number; due: string; paid: string; rate: number } }>('/api/dues/reports/year', { year: year() }, QUIET),
  transfers: () => get<{ kinds: { key: string; title: string; underway: number }[] }>('/api/transfers/stats', { year: year() }, QUIET),
  myDues: () => get<{ member: { name: string } | null; items: { id: number; title: string; months: string[]; due: string; canPay: boolean }[] }>('/api/dues/my', { year: year() }, QUIET),
  study: () =>
    get<{ classes: { classId: number; className: string; statusLabel: string; completed: boolean; hoursDone: number; requiredHours: number; examRequired: boolean; examPassed: boolean }[] }>('/api/pschool/home', undefined, QUIET),
  publishNotice: (body: { title: string; content: string; roleIds: number[] }) => post('/api/msgPushHistory', { ...body, type: 'notice' }),
  roles: () => get<{ id: number; name: string }[]>('/api/roles/all'),
};
