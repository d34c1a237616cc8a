import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import { keepListening, type Listening } from '../../db/keep-listening.js';
import type { DB } from '../../db/types.js';
import { PushHub } from './hub.js';
import type { MessageType } from './tables.js';

/** Message types listed as reminders and counted on the remind badge. */
export const REMIND_TYPES: MessageType[] = ['remind', 'private'];
export const TODO_OPEN = 0;
export const TODO_DONE = 1;

/** The badge counters of spec §3; the remind counter also says how many unread messages each tab of 消息中心 holds. */
export interface Counters {
  todo: { totalElements: number };
  remind: { totalElements: number; private: number; system: number };
}
/** Message types of the 系统消息 tab (sent by the system, not by a person). */
export const SYSTEM_TYPES: MessageType[] = ['remind', 'notice'];

export interface NewMessage {
  toUserIds: number[];
  type: MessageType;
  title: string;
  content?: string;
  link?: string | null;
  senderId?: number | null;
  /** Defaults to the sender's name, or 系统 for messages the system sends. */
  senderName?: string;
  /** The reminder this message announces: the remind counter counts the reminder, not the message too. */
  reminderId?: number | null;
}

export interface NewTodo {
  toUserIds: number[];
  title: string;
  content?: string;
  link?: string | null;
  /** The module and record the to-do is about, so the code that created it can close it (`completeTodos`). */
  module?: string | null;
  refId?: string | number | null;
  createdBy?: number | null;
}

/** What a websocket client receives about a change (besides the fresh counters that follow). */
export interface PushEvent {
  /** `gb_base_refresh`: the cadre base changed (spec §9; open cadre pages reload). */
  type: 'message' | 'todo' | 'upload' | 'gb_base_refresh';
  action?: 'created' | 'updated' | 'deleted';
  [key: string]: unknown;
}

type Change = { userId: number; event: PushEvent };
/** What travels between app servers: changes for users, and whether they change the badge counters. */
interface Relayed {
  changes: Change[];
  counters: boolean;
}

/** The LISTEN/NOTIFY channel of pushes between app servers. */
export const PUSH_CHANNEL = 'dj_push';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more: parts stay well below. */
const NOTIFY_MAX_BYTES = 7000;

/** Splits a relayed push into parts whose JSON stays under NOTIFY's limit (a single huge change is cut short to its user and type). */
export function notifyParts(relayed: Relayed): Relayed[] {
  const parts: Relayed[] = [];
  let current: Change[] = [];
  let size = 0;
  for (const change of relayed.changes) {
    let c = change;
    let bytes = Buffer.byteLength(JSON.stringify(c)) + 1;
    if (bytes > NOTIFY_MAX_BYTES - 100) {
      c = { userId: change.userId, event: { type: change.event.type, action: change.event.action } };
      bytes = Buffer.byteLength(JSON.stringify(c)) + 1;
    }
    if (size + bytes > NOTIFY_MAX_BYTES - 100 && current.length) {
      parts.push({ changes: current, counters: relayed.counters });
      current = [];
      size = 0;
    }
    current.push(c);
    size += bytes;
  }
  if (current.length) parts.push({ changes: current, counters: relayed.counters });
  return parts;
}

/**
 * Private messages, reminders and to-dos for routes and domain code (reminders, workflows). Every change
 * is pushed at once to the recipients' open websockets, followed by their fresh badge counters.
 */
export class MessageService {
  readonly hub = new PushHub();
  /** The PostgreSQL relay, while it runs (see `start`). */
  private relay?: Listening;
  /** Started reminders per user, added to the remind counter (a port the runtime's reminders fill). */
  private remindSource?: (userIds: number[]) => Promise<Map<number, number>>;
  constructor(private readonly database: Database) {}

  /**
   * On PostgreSQL, pushes travel through LISTEN/NOTIFY so that the sockets on every app server behind a
   * load balancer get them: each server publishes, and each delivers what it hears to its own sockets.
   * Without it (the embedded engine, or a lost connection) pushes go to this server's sockets directly.
   */
  async start(log: FastifyBaseLogger): Promise<void> {
    this.relay = await keepListening(this.database, PUSH_CHANNEL, (payload) => {
      try {
        void this.deliver(JSON.parse(payload) as Relayed).catch((err: unknown) => log.warn({ err }, 'delivering a relayed push failed'));
      } catch (err) {
        log.warn({ err }, 'a relayed push could not be read');
      }
    }, log, 'the push relay');
  }

  async stop(): Promise<void> {
    await this.relay?.stop();
    this.relay = undefined;
  }


  setRemindSource(source: (userIds: number[]) => Promise<Map<number, number>>): void {
    this.remindSource = source;
  }

  /** Pushes fresh counters to these users (their reminders changed). */
  async notifyCounters(userIds: number[]): Promise<void> {
    if (userIds.length) await this.publish({ changes: [...new Set(userIds)].map((userId) => ({ userId, event: { type: 'message', action: 'updated' } })), counters: true });
  }

  async sendMessage(m: NewMessage): Promise<number[]> {
    const userIds = [...new Set(m.toUserIds)];
    if (!userIds.length) return [];
    const { db } = this.database;
    let senderName = m.senderName;
    if (senderName === undefined) {
      const sender = m.senderId ? await db.selectFrom('users').select(['nick_name', 'username']).where('id', '=', m.senderId).executeTakeFirst() : undefined;
      senderName = sender ? sender.nick_name || sender.username : '系统';
    }
    const rows = await db
      .insertInto('msg_push_history')
      .values(userIds.map((user_id) => ({ user_id, sender_id: m.senderId ?? null, sender_name: senderName, type: m.type, title: m.title, content: m.content ?? '', link: m.link ?? null, reminder_id: m.reminderId ?? null })))
      .returning(['id', 'user_id'])
      .execute();
    await this.notify(rows.map((r) => ({ userId: r.user_id, event: { type: 'message', action: 'created', id: r.id, messageType: m.type, title: m.title, senderName, link: m.link ?? null } })));
    return rows.map((r) => r.id);
  }

  async addTodo(t: NewTodo): Promise<number[]> {
    const userIds = [...new Set(t.toUserIds)];
    if (!userIds.length) return [];
    const rows = await this.database.db
      .insertInto('msg_todo')
      .values(userIds.map((user_id) => ({ user_id, title: t.title, content: t.content ?? '', link: t.link ?? null, module: t.module ?? null, ref_id: t.refId == null ? null : String(t.refId), created_by: t.createdBy ?? null })))
      .returning(['id', 'user_id'])
      .execute();
    await this.notify(rows.map((r) => ({ userId: r.user_id, event: { type: 'todo', action: 'created', id: r.id, title: t.title, link: t.link ?? null } })));
    return rows.map((r) => r.id);
  }

  /**
   * To-do writes inside the caller's transaction (a workflow step): they commit or roll back with it,
   * and their pushes wait for `flush()`, called after the commit.
   */
  inTransaction(trx: Kysely<DB>): TodoTransaction {
    return new TodoTransaction(trx, (changes) => this.notify(changes));
  }

  /** Marks the open to-dos about one record done (e.g. once a transfer is approved); returns how many. */
  async completeTodos(where: { module: string; refId: string | number; userIds?: number[] }): Promise<number> {
    let q = this.database.db
      .updateTable('msg_todo')
      .set({ status: TODO_DONE, done_at: new Date() })
      .where('module', '=', where.module)
      .where('ref_id', '=', String(where.refId))
      .where('status', '=', TODO_OPEN);
    if (where.userIds?.length) q = q.where('user_id', 'in', where.userIds);
    const rows = await q.returning(['id', 'user_id']).execute();
    await this.notify(rows.map((r) => ({ userId: r.user_id, event: { type: 'todo', action: 'updated', ids: [r.id] } })));
    return rows.length;
  }

  async counters(userId: number): Promise<Counters> {
    return (await this.countersOf([userId])).get(userId)!;
  }

  private async countersOf(userIds: number[]): Promise<Map<number, Counters>> {
    const { db } = this.database;
    const [todos, unread] = await Promise.all([
      db.selectFrom('msg_todo').select(['user_id', sql<number>`count(*)::int`.as('n')]).where('user_id', 'in', userIds).where('status', '=', TODO_OPEN).groupBy('user_id').execute(),
      db.selectFrom('msg_push_history')
        .select(['user_id', 'type', sql<boolean>`reminder_id is null`.as('plain'), sql<number>`count(*)::int`.as('n')])
        .where('user_id', 'in', userIds).where('is_read', '=', false)
        .groupBy(['user_id', 'type', sql`reminder_id is null`]).execute(),
    ]);
    const todo = new Map(todos.map((r) => [r.user_id, r.n]));
    const empty = () => ({ remind: 0, private: 0, system: 0 });
    const messages = new Map<number, ReturnType<typeof empty>>();
    for (const r of unread) {
      const m = messages.get(r.user_id) ?? messages.set(r.user_id, empty()).get(r.user_id)!;
      // A started reminder's announcement is not counted on the badge again (the reminder itself is, below).
      if (r.plain && REMIND_TYPES.includes(r.type as MessageType)) m.remind += r.n;
      if (r.type === 'private') m.private += r.n;
      else if (SYSTEM_TYPES.includes(r.type as MessageType)) m.system += r.n;
    }
    // Spec §4: a started reminder of an enabled type counts until it ends (its announcement is not counted again).
    const started = this.remindSource ? await this.remindSource(userIds) : new Map<number, number>();
    return new Map(userIds.map((id) => {
      const m = messages.get(id) ?? empty();
      return [id, { todo: { totalElements: todo.get(id) ?? 0 }, remind: { totalElements: m.remind + (started.get(id) ?? 0), private: m.private, system: m.system } }];
    }));
  }

  /**
   * Pushes each change to its user's open sockets, then one counters frame per user. Users without an
   * open socket cost no query.
   */
  async notify(changes: Change[]): Promise<void> {
    if (changes.length) await this.publish({ changes, counters: true });
  }

  /** A push that changes no counter (e.g. a phone upload arriving for the desktop page). */
  push(userIds: number[], event: PushEvent): void {
    void this.publish({ changes: userIds.map((userId) => ({ userId, event })), counters: false });
  }

  /**
   * Through the relay when it runs (in NOTIFY-sized parts), else straight to this server's sockets. A push
   * never fails the write that caused it: if NOTIFY fails, this server's sockets still get it.
   */
  private async publish(relayed: Relayed): Promise<void> {
    if (this.relay?.active) {
      try {
        for (const part of notifyParts(relayed)) await sql`SELECT pg_notify(${PUSH_CHANNEL}, ${JSON.stringify(part)})`.execute(this.database.db);
        return;
      } catch {
        // fall through: deliver here
      }
    }
    await this.deliver(relayed).catch(() => undefined);
  }

  /** Pushes each change to its user's open sockets here, then (for counted changes) one counters frame per user. */
  private async deliver({ changes, counters }: Relayed): Promise<void> {
    const online = [...new Set(changes.map((c) => c.userId))].filter((id) => this.hub.isOnline(id));
    if (!online.length) return;
    for (const c of changes) if (this.hub.isOnline(c.userId)) this.hub.push([c.userId], c.event);
    if (!counters) return;
    for (const [userId, value] of await this.countersOf(online)) this.hub.push([userId], { type: 'counters', ...value });
  }

  /** Closes the sockets whose session was ended (logout, expiry, kicked out); called periodically. */
  async closeEndedSessions(): Promise<number> {
    const ids = this.hub.sessionIds();
    if (!ids.length) return 0;
    const alive = await this.database.db.selectFrom('sessions').select('id').where('id', 'in', ids).where('expires_at', '>', sql<Date>`now()`).execute();
    const aliveIds = new Set(alive.map((r) => r.id));
    return this.hub.closeSessions(new Set(ids.filter((id) => !aliveIds.has(id))));
  }
}

/** See `MessageService.inTransaction`. */
/** A LIKE pattern matching what starts with `prefix` (its own % and _ taken literally). */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export class TodoTransaction {
  private changes: Change[] = [];
  constructor(
    /** The transaction the to-dos are written in. */
    readonly trx: Kysely<DB>,
    private readonly push: (changes: Change[]) => Promise<void>,
  ) {}

  async add(todos: NewTodo[]): Promise<number> {
    const rows = todos.flatMap((t) =>
      [...new Set(t.toUserIds)].map((user_id) => ({ user_id, title: t.title, content: t.content ?? '', link: t.link ?? null, module: t.module ?? null, ref_id: t.refId == null ? null : String(t.refId), created_by: t.createdBy ?? null })),
    );
    if (!rows.length) return 0;
    const inserted = await this.trx.insertInto('msg_todo').values(rows).returning(['id', 'user_id', 'title', 'link']).execute();
    this.changes.push(...inserted.map((r) => ({ userId: r.user_id, event: { type: 'todo' as const, action: 'created' as const, id: r.id, title: r.title, link: r.link } })));
    return inserted.length;
  }

  /** Marks open to-dos of the module done: those with one of these `refIds`, or whose ref id starts with `refIdPrefix`. */
  async complete(where: { module: string; refIds?: string[]; refIdPrefix?: string }): Promise<number> {
    if (!where.refIds?.length && !where.refIdPrefix) return 0;
    let q = this.trx.updateTable('msg_todo').set({ status: TODO_DONE, done_at: new Date() }).where('module', '=', where.module).where('status', '=', TODO_OPEN);
    if (where.refIds?.length) q = q.where('ref_id', 'in', where.refIds);
    else q = q.where('ref_id', 'like', likePrefix(where.refIdPrefix!));
    const rows = await q.returning(['id', 'user_id']).execute();
    this.changes.push(...rows.map((r) => ({ userId: r.user_id, event: { type: 'todo' as const, action: 'updated' as const, ids: [r.id] } })));
    return rows.length;
  }

  /** Opens again the to-dos of the module whose ref id starts with `refIdPrefix` that their recipients ticked off by hand. */
  async reopenDismissed(where: { module: string; refIdPrefix: string }): Promise<number> {
    const rows = await this.trx.updateTable('msg_todo').set({ status: TODO_OPEN, done_at: null, dismissed: false })
      .where('module', '=', where.module).where('status', '=', TODO_DONE).where('dismissed', '=', true)
      .where('ref_id', 'like', likePrefix(where.refIdPrefix))
      .returning(['id', 'user_id']).execute();
    this.changes.push(...rows.map((r) => ({ userId: r.user_id, event: { type: 'todo' as const, action: 'updated' as const, ids: [r.id] } })));
    return rows.length;
  }

  /** After the commit: pushes the changes to the recipients' sockets. */
  async flush(): Promise<void> {
    const changes = this.changes;
    this.changes = [];
    if (changes.length) await this.push(changes);
  }
}
