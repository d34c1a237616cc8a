import { del, get, post } from '../../core/request/request';
import { useCounters } from '../../core/stores/counters';
import type { Page } from '../../core/usePagedQuery';

export type MessageType = 'private' | 'remind' | 'notice';

export interface Message {
  id: number;
  userId: number;
  senderId: number | null;
  senderName: string;
  type: MessageType;
  title: string;
  content: string;
  link: string | null;
  isRead: boolean;
  createTime: string;
}

export const TODO_OPEN = 0;
export const TODO_DONE = 1;

export interface Todo {
  id: number;
  userId: number;
  title: string;
  content: string;
  link: string | null;
  /** The module of a record's to-do (a workflow step waiting on it); null for a to-do someone sent. */
  module: string | null;
  status: typeof TODO_OPEN | typeof TODO_DONE;
  createTime: string;
  doneTime: string | null;
}

export const MESSAGE_TYPE_LABELS: Record<MessageType, string> = { private: '私信', remind: '提醒', notice: '通知' };

export interface MessageFilter {
  /** '' all, 'false' unread, 'true' read. */
  read: '' | 'true' | 'false';
  /** `system`: reminders and notices together (the 系统消息 tab). */
  type?: MessageType | 'system';
  blurry?: string;
}

export interface TodoFilter {
  /** '' all, '0' open, '1' done. */
  status: '' | '0' | '1';
  blurry?: string;
}

const filled = (v: string | undefined) => (v ? v : undefined);

/** The current user's messages (`GET api/msgPushHistory`): the server lists only the caller's own. */
export const listMessages = (page: number, size: number, f: MessageFilter) =>
  get<Page<Message>>('/api/msgPushHistory', { page, size, read: filled(f.read), type: f.type, blurry: filled(f.blurry?.trim()) });

/** Marks messages read (`POST api/msgPushHistory/updateRemind`); `'all'`: every unread one. */
export const markRead = (ids: number[] | 'all') => post('/api/msgPushHistory/updateRemind', ids === 'all' ? { all: true } : { ids });

export const deleteMessages = (ids: number[]) => del('/api/msgPushHistory/', { ids });

export interface NewMessage {
  userIds?: number[];
  roleIds?: number[];
  title: string;
  content?: string;
}

/** Sends a private message to users, or (with msg:send) to every member of roles. */
export const sendMessage = (m: NewMessage) => post<{ ids: number[]; totalElements: number }>('/api/msgPushHistory', { ...m, type: 'private' });

export const listTodos = (page: number, size: number, f: TodoFilter) =>
  get<Page<Todo>>('/api/msgTodo/getTodo', { page, size, status: filled(f.status), blurry: filled(f.blurry?.trim()) });

/** Marks to-dos done, or open again (`POST api/msgTodo/updateTodo`). */
export const setTodoStatus = (ids: number[], status: Todo['status']) => post('/api/msgTodo/updateTodo', { ids, status });

export interface UserOption {
  id: number;
  username: string;
  nickName: string;
}

/** Users matching a search, for the recipient picker (`POST /api/users/list`, needs user:list). */
/** People a private message can go to, by name or username (any signed-in user may look them up). */
export const searchUsers = (keyword: string) => get<{ content: UserOption[] }>('/api/msgPushHistory/recipients', { keyword: keyword.trim() || undefined });

export const allRoles = () => get<{ id: number; name: string }[]>('/api/roles/all');

/** After a change here the navbar badges follow at once instead of at the next poll. */
export function refreshCounters(): void {
  const counters = useCounters.getState();
  void counters.fetchRemind();
  void counters.fetchTodo();
}
