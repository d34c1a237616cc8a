import { create } from 'zustand';
import { REMIND_COUNTER_DELAY, REMIND_COUNTER_INTERVAL, TODO_COUNTER_DELAY, TODO_COUNTER_INTERVAL } from '../../../shared/constants';
import type { Page } from '../../../shared/paging';
import { get } from '../request/request';

export interface Counter {
  totalElements: number;
}
/** The remind counter also says how many unread messages each tab of 消息中心 holds (私信, 系统消息). */
export interface RemindCounter extends Counter {
  private?: number;
  system?: number;
}

/** The badge counters of spec §3: to-dos and unread reminders (private messages included). */
export interface Counters {
  todo: Counter;
  remind: Counter;
}

/** A message or to-do as the lists of the message API return it (only what the layout shows). */
export interface MessageSummary {
  id: number;
  title: string;
  createTime?: string;
}

interface CountersState extends Counters {
  /** Unread private messages and unread system messages (reminders, notices), for the 消息中心 tabs. */
  unread: { private: number; system: number };
  /** The newest unread reminders and open to-dos, loaded when the layout starts. */
  reminders: MessageSummary[];
  todos: MessageSummary[];
  setCounters(counters: Partial<{ todo: Counter; remind: RemindCounter }>): void;
  fetchTodo(): Promise<void>;
  fetchRemind(): Promise<void>;
  loadAtStart(): Promise<void>;
  reset(): void;
}

export const COUNTER_URLS = { todo: '/api/msgTodo/count', remind: '/api/msgPushHistory/count' } as const;
export const START_LIST_URLS = { reminders: '/api/msgPushHistory/remind', todos: '/api/msgTodo/getTodo' } as const;
const START_LIST_SIZE = 5;
/** Open to-dos (status 0), as the todo counter counts them. */
const OPEN_TODO = 0;

const quiet = { skipErrorNotify: true } as const;
const asCounter = (value: unknown): Counter | undefined => {
  const n = (value as Counter | null)?.totalElements;
  return typeof n === 'number' && Number.isFinite(n) ? { totalElements: n } : undefined;
};

const count = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

const initial = { todo: { totalElements: 0 }, remind: { totalElements: 0 }, unread: { private: 0, system: 0 }, reminders: [], todos: [] };

export const useCounters = create<CountersState>((set, getState) => ({
  ...initial,
  setCounters(counters) {
    const todo = asCounter(counters.todo);
    const remind = asCounter(counters.remind);
    const privateUnread = count(counters.remind?.private);
    const systemUnread = count(counters.remind?.system);
    const unread = privateUnread === undefined || systemUnread === undefined ? undefined : { private: privateUnread, system: systemUnread };
    set({ ...(todo && { todo }), ...(remind && { remind }), ...(unread && { unread }) });
  },
  // A failing counter keeps the last value: a badge must not flicker to 0 because of one bad request.
  async fetchTodo() {
    const todo = await get<Counter>(COUNTER_URLS.todo, undefined, quiet).catch(() => undefined);
    getState().setCounters({ todo });
  },
  async fetchRemind() {
    const remind = await get<RemindCounter>(COUNTER_URLS.remind, undefined, quiet).catch(() => undefined);
    getState().setCounters({ remind });
  },
  /** Spec §7: the layout loads reminders and to-dos at start; their totals fill the badges at once. */
  async loadAtStart() {
    const [reminders, todos] = await Promise.all([
      get<Page<MessageSummary>>(START_LIST_URLS.reminders, { page: 0, size: START_LIST_SIZE }, quiet).catch(() => undefined),
      get<Page<MessageSummary>>(START_LIST_URLS.todos, { status: OPEN_TODO, page: 0, size: START_LIST_SIZE }, quiet).catch(() => undefined),
    ]);
    set({ ...(reminders?.content && { reminders: reminders.content }), ...(todos?.content && { todos: todos.content }) });
    getState().setCounters({ remind: reminders, todo: todos });
  },
  reset() {
    set(initial);
  },
}));

/** Runs `tick` first after `delay`, then every `interval`; returns the stop function. */
export function schedule(tick: () => void, delay: number, interval: number): () => void {
  let repeat: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    tick();
    repeat = setInterval(tick, interval);
  }, delay);
  return () => {
    clearTimeout(first);
    if (repeat) clearInterval(repeat);
  };
}

/** Spec §4: the todo counter first after 10 s then every 180 s; the remind counter first after 5 s then every 120 s. */
export function startCounterPolling(): () => void {
  const { fetchTodo, fetchRemind } = useCounters.getState();
  const stops = [
    schedule(() => void fetchTodo(), TODO_COUNTER_DELAY, TODO_COUNTER_INTERVAL),
    schedule(() => void fetchRemind(), REMIND_COUNTER_DELAY, REMIND_COUNTER_INTERVAL),
  ];
  return () => stops.forEach((stop) => stop());
}
