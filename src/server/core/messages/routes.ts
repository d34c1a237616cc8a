import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { HttpError } from '../../errors.js';
import { LOGIN, currentUser, perm } from '../auth/guard.js';
import { hasAnyPermission, type SessionUser } from '../auth/session-user.js';
import { idsOf } from '../ids.js';
import { likeContains, parsePaging } from '../paging.js';
import { REMIND_TYPES, SYSTEM_TYPES, TODO_DONE, TODO_OPEN } from './service.js';
import { assertSameOrigin } from './same-origin.js';
import type { MessageType } from './tables.js';
import { reachOf, withinReach } from './reach.js';

/** Sends to-dos and messages to others, notices to roles, and manages anyone's messages. */
const SEND = 'msg:send';
/** How long a sender may still correct a private message. */
const EDIT_WINDOW_MS = 2 * 60_000;
/** How often dead sockets and sockets of ended sessions are closed. */
const SWEEP_MS = 30_000;

const text = (title: string, maxLength: number, minLength = 0) => ({ type: 'string', title, maxLength, ...(minLength ? { minLength } : {}) });
const idList = (title: string) => ({ type: 'array', title, items: { type: 'integer', minimum: 1 }, maxItems: 5000 });
const fields = {
  title: text('标题', 200, 1),
  content: text('内容', 5000),
  // A path inside the web app ("/member/list?id=3"); never another site or a javascript: URL.
  link: { type: ['string', 'null'], title: '链接', maxLength: 500, pattern: '^/(?![/\\\\])' },
};
const recipients = {
  userId: { type: 'integer', title: '接收人', minimum: 1 },
  userIds: idList('接收人'),
  roleIds: idList('接收角色'),
};

const like = likeContains;
/** How many people the recipient lookup answers: enough to pick from, never the whole directory. */
const RECIPIENTS_LIMIT = 20;
const blurryOf = (req: FastifyRequest) => String((req.query as { blurry?: unknown }).blurry ?? '').trim();

function todoDto(r: { id: number; user_id: number; title: string; content: string; link: string | null; module: string | null; ref_id: string | null; status: number; created_by: number | null; created_at: Date; done_at: Date | null }) {
  return { id: r.id, userId: r.user_id, title: r.title, content: r.content, link: r.link, module: r.module, refId: r.ref_id, status: r.status, createdBy: r.created_by, createTime: r.created_at, doneTime: r.done_at };
}

function messageDto(r: { id: number; user_id: number; sender_id: number | null; sender_name: string; type: string; title: string; content: string; link: string | null; is_read: boolean; created_at: Date }) {
  return { id: r.id, userId: r.user_id, senderId: r.sender_id, senderName: r.sender_name, type: r.type, title: r.title, content: r.content, link: r.link, isRead: r.is_read, createTime: r.created_at };
}

/** To-dos, private messages and reminders of the current user, their counters, and the push websocket. */
export async function messageRoutes(app: FastifyInstance): Promise<void> {
  const { database, messages, orgTree } = app.services;
  const { db } = database;
  const canSend = (user: SessionUser) => hasAnyPermission(user, [SEND]);

  /** Users named directly plus the members of the named roles; only accounts that can sign in. */
  async function resolveRecipients(b: { userId?: number; userIds?: number[]; roleIds?: number[] }): Promise<number[]> {
    const direct = [...new Set([...(b.userIds ?? []), ...(b.userId ? [b.userId] : [])])];
    const ids = new Set<number>();
    if (direct.length) {
      const found = await db.selectFrom('users').select('id').where('id', 'in', direct).execute();
      if (found.length !== direct.length) throw new HttpError(400, '接收人不存在', { errors: [{ field: 'userIds', message: '接收人不存在' }] });
      found.forEach((r) => ids.add(r.id));
    }
    if (b.roleIds?.length) {
      const members = await db.selectFrom('user_roles').select('user_id').where('role_id', 'in', b.roleIds).execute();
      members.forEach((r) => ids.add(r.user_id));
    }
    if (!ids.size) throw new HttpError(400, '请选择接收人', { errors: [{ field: 'userIds', message: '请选择接收人' }] });
    const active = await db.selectFrom('users').select('id').where('id', 'in', [...ids]).where('enabled', '=', true).where('has_left', '=', false).execute();
    if (!active.length) throw new HttpError(400, '所选接收人均已停用或离校');
    return active.map((r) => r.id);
  }

  /** The rows among `ids` the caller may change: their own, or any with msg:send; others are not found (404). */
  async function ownRows(table: 'msg_todo' | 'msg_push_history', ids: number[], user: SessionUser) {
    const rows = await db.selectFrom(table).select(['id', 'user_id']).where('id', 'in', ids).execute();
    if (rows.length !== new Set(ids).size || (!canSend(user) && rows.some((r) => r.user_id !== user.id))) throw new HttpError(404, '记录不存在或已被删除');
    return rows;
  }

  // ---- To-dos -------------------------------------------------------------------------------------

  app.post('/api/msgTodo', {
    config: perm(SEND),
    schema: { body: { type: 'object', required: ['title'], properties: { ...recipients, ...fields, module: text('模块', 100), refId: { anyOf: [{ type: 'string', maxLength: 100 }, { type: 'integer' }], title: '关联记录' } } } },
  }, async (req, reply) => {
    const b = req.body as { userId?: number; userIds?: number[]; roleIds?: number[]; title: string; content?: string; link?: string | null; module?: string; refId?: string | number };
    const toUserIds = await resolveRecipients(b);
    const ids = await messages.addTodo({ toUserIds, title: b.title, content: b.content, link: b.link, module: b.module, refId: b.refId, createdBy: currentUser(req).id });
    return reply.code(201).send({ ids, totalElements: ids.length });
  });

  app.put('/api/msgTodo', {
    config: LOGIN,
    schema: { body: { type: 'object', required: ['id'], properties: { id: { type: 'integer', title: '待办' }, ...fields, status: { enum: [TODO_OPEN, TODO_DONE], title: '状态' } } } },
  }, async (req) => {
    const user = currentUser(req);
    const b = req.body as { id: number; title?: string; content?: string; link?: string | null; status?: number };
    const [row] = await ownRows('msg_todo', [b.id], user);
    const set: Record<string, unknown> = {};
    for (const k of ['title', 'content', 'link'] as const) if (b[k] !== undefined) set[k] = b[k];
    // The recipient may only tick their to-do off (or reopen it); the wording is the sender's.
    if (Object.keys(set).length && !canSend(user)) throw new HttpError(400, '只能修改自己待办的状态');
    if (b.status !== undefined) Object.assign(set, { status: b.status, done_at: b.status === TODO_DONE ? new Date() : null, dismissed: b.status === TODO_DONE });
    if (!Object.keys(set).length) throw new HttpError(400, '没有要修改的内容');
    await db.updateTable('msg_todo').set(set).where('id', '=', b.id).execute();
    await messages.notify([{ userId: row.user_id, event: { type: 'todo', action: 'updated', ids: [b.id] } }]);
    return { status: 200, message: '修改成功' };
  });

  for (const url of ['/api/msgTodo/', '/api/msgTodo']) {
    app.delete(url, { config: LOGIN }, async (req) => {
      const rows = await ownRows('msg_todo', idsOf(req.body), currentUser(req));
      await db.deleteFrom('msg_todo').where('id', 'in', rows.map((r) => r.id)).execute();
      await messages.notify(rows.map((r) => ({ userId: r.user_id, event: { type: 'todo', action: 'deleted', ids: [r.id] } })));
      return { status: 200, message: '删除成功' };
    });
  }

  app.get('/api/msgTodo/getTodo', { config: LOGIN }, async (req) => {
    const paging = parsePaging(req.query, { id: 'id', createTime: 'created_at', status: 'status', title: 'title' }, [['status', 'asc'], ['created_at', 'desc'], ['id', 'desc']]);
    const q0 = req.query as { status?: string };
    let q = db.selectFrom('msg_todo').where('user_id', '=', currentUser(req).id);
    if (q0.status !== undefined && q0.status !== '') {
      const status = Number(q0.status);
      if (status !== TODO_OPEN && status !== TODO_DONE) throw new HttpError(400, '待办状态只能是0或1');
      q = q.where('status', '=', status);
    }
    const blurry = blurryOf(req);
    if (blurry) q = q.where((eb) => eb.or([eb('title', 'ilike', like(blurry)), eb('content', 'ilike', like(blurry))]));
    const { total } = await q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
    let rows = q.selectAll();
    for (const [c, d] of paging.order) rows = rows.orderBy(sql.ref(c), d);
    return { content: (await rows.limit(paging.limit).offset(paging.offset).execute()).map(todoDto), totalElements: total };
  });

  app.post('/api/msgTodo/updateTodo', { config: LOGIN }, async (req) => {
    const user = currentUser(req);
    const status = Number((req.body as { status?: unknown } | null)?.status ?? TODO_DONE);
    if (status !== TODO_OPEN && status !== TODO_DONE) throw new HttpError(400, '待办状态只能是0或1');
    const ids = idsOf(req.body);
    const rows = await db.selectFrom('msg_todo').select('id').where('id', 'in', ids).where('user_id', '=', user.id).execute();
    if (rows.length !== new Set(ids).size) throw new HttpError(404, '待办不存在或已被删除');
    await db.updateTable('msg_todo').set({ status, done_at: status === TODO_DONE ? new Date() : null, dismissed: status === TODO_DONE }).where('id', 'in', ids).execute();
    await messages.notify([{ userId: user.id, event: { type: 'todo', action: 'updated', ids } }]);
    return { status: 200, message: '操作成功', totalElements: ids.length };
  });

  app.get('/api/msgTodo/count', { config: LOGIN }, async (req) => (await messages.counters(currentUser(req).id)).todo);

  // ---- Private messages, reminders and notices ----------------------------------------------------

  app.post('/api/msgPushHistory', {
    config: LOGIN,
    schema: { body: { type: 'object', required: ['title'], properties: { ...recipients, ...fields, type: { enum: ['private', 'remind', 'notice'], title: '消息类型' } } } },
  }, async (req, reply) => {
    const user = currentUser(req);
    const b = req.body as { userId?: number; userIds?: number[]; roleIds?: number[]; title: string; content?: string; link?: string | null; type?: MessageType };
    const type = b.type ?? 'private';
    // Anyone may write to people; writing to whole roles, or as the system (reminders, notices), is for senders.
    if ((b.roleIds?.length || type !== 'private') && !canSend(user)) throw new HttpError(403, '没有群发消息的权限');
    const toUserIds = await resolveRecipients(b);
    if (!canSend(user)) {
      const reach = await reachOf(orgTree, user, false);
      const reachable = await db.selectFrom('users').select('id').where('id', 'in', toUserIds).where(withinReach(reach)).execute();
      if (reachable.length !== toUserIds.length) throw new HttpError(400, '只能给本组织、上级组织和管理范围内的人员发私信', { errors: [{ field: 'userIds', message: '只能给本组织、上级组织和管理范围内的人员发私信' }] });
    }
    const ids = await messages.sendMessage({ toUserIds, type, title: b.title, content: b.content, link: b.link, senderId: user.id, senderName: user.nickName || user.username });
    return reply.code(201).send({ ids, totalElements: ids.length });
  });

  // Whom a private message can go to: a signed-in user looks up the people within their reach (reach.ts)
  // by name or username (not by phone: the lookup must not turn a number into a name), enabled accounts
  // only, a short list.
  app.get('/api/msgPushHistory/recipients', {
    config: LOGIN,
    schema: { querystring: { type: 'object', properties: { keyword: { type: 'string', title: '关键字', maxLength: 50 } } } },
  }, async (req) => {
    const keyword = String((req.query as { keyword?: string }).keyword ?? '').trim();
    const user = currentUser(req);
    let q = db.selectFrom('users').select(['id', 'username', 'nick_name']).where('enabled', '=', true).where('has_left', '=', false).where(withinReach(await reachOf(orgTree, user, canSend(user))));
    if (keyword) q = q.where((eb) => eb.or([eb('nick_name', 'ilike', like(keyword)), eb('username', 'ilike', like(keyword))]));
    const rows = await q.orderBy('nick_name').orderBy('id').limit(RECIPIENTS_LIMIT).execute();
    return { content: rows.map((r) => ({ id: r.id, username: r.username, nickName: r.nick_name })) };
  });

  app.put('/api/msgPushHistory', {
    config: LOGIN,
    schema: { body: { type: 'object', required: ['id'], properties: { id: { type: 'integer', title: '消息' }, ...fields, isRead: { type: 'boolean', title: '已读' } } } },
  }, async (req) => {
    const user = currentUser(req);
    const b = req.body as { id: number; title?: string; content?: string; link?: string | null; isRead?: boolean };
    const row = await db.selectFrom('msg_push_history').select(['user_id', 'sender_id', 'created_at']).where('id', '=', b.id).executeTakeFirst();
    // Someone else's message (neither its recipient nor its sender) does not exist for the caller.
    if (!row || (row.user_id !== user.id && row.sender_id !== user.id && !canSend(user))) throw new HttpError(404, '消息不存在或已被删除');
    const set: Record<string, unknown> = {};
    for (const k of ['title', 'content', 'link'] as const) if (b[k] !== undefined) set[k] = b[k];
    if (Object.keys(set).length && !canSend(user)) {
      if (row.sender_id !== user.id) throw new HttpError(400, '只能修改自己发送的消息');
      if (Date.now() - new Date(row.created_at).getTime() > EDIT_WINDOW_MS) throw new HttpError(400, '消息发送超过2分钟，不能再修改');
    }
    if (b.isRead !== undefined) {
      if (row.user_id !== user.id && !canSend(user)) throw new HttpError(400, '只有接收人可以标记已读');
      set.is_read = b.isRead;
    }
    if (!Object.keys(set).length) throw new HttpError(400, '没有要修改的内容');
    await db.updateTable('msg_push_history').set(set).where('id', '=', b.id).execute();
    await messages.notify([{ userId: row.user_id, event: { type: 'message', action: 'updated', ids: [b.id] } }]);
    return { status: 200, message: '修改成功' };
  });

  for (const url of ['/api/msgPushHistory/', '/api/msgPushHistory']) {
    app.delete(url, { config: LOGIN }, async (req) => {
      const rows = await ownRows('msg_push_history', idsOf(req.body), currentUser(req));
      await db.deleteFrom('msg_push_history').where('id', 'in', rows.map((r) => r.id)).execute();
      await messages.notify(rows.map((r) => ({ userId: r.user_id, event: { type: 'message', action: 'deleted', ids: [r.id] } })));
      return { status: 200, message: '删除成功' };
    });
  }

  /** The current user's messages; `remindOnly` gives the unread reminders of the dropdown. */
  async function listMessages(req: FastifyRequest, remindOnly: boolean) {
    const paging = parsePaging(req.query, { id: 'id', createTime: 'created_at', isRead: 'is_read', type: 'type' }, [['created_at', 'desc'], ['id', 'desc']]);
    const query = req.query as { type?: string; read?: string; isRead?: string };
    let q = db.selectFrom('msg_push_history').where('user_id', '=', currentUser(req).id);
    if (remindOnly) q = q.where('is_read', '=', false).where('type', 'in', REMIND_TYPES);
    else {
      // `system`: the 系统消息 tab's reminders and notices together.
      if (query.type === 'system') q = q.where('type', 'in', SYSTEM_TYPES);
      else if (query.type) {
        if (!['private', 'remind', 'notice'].includes(query.type)) throw new HttpError(400, `不支持的消息类型：${query.type}`);
        q = q.where('type', '=', query.type as MessageType);
      }
      const read = query.read ?? query.isRead;
      if (read === 'true' || read === 'false') q = q.where('is_read', '=', read === 'true');
      else if (read !== undefined && read !== '') throw new HttpError(400, '已读状态只能是true或false');
    }
    const blurry = blurryOf(req);
    if (blurry) q = q.where((eb) => eb.or([eb('title', 'ilike', like(blurry)), eb('content', 'ilike', like(blurry)), eb('sender_name', 'ilike', like(blurry))]));
    const { total } = await q.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow();
    let rows = q.selectAll();
    for (const [c, d] of paging.order) rows = rows.orderBy(sql.ref(c), d);
    return { content: (await rows.limit(paging.limit).offset(paging.offset).execute()).map(messageDto), totalElements: total };
  }
  app.get('/api/msgPushHistory', { config: LOGIN }, (req) => listMessages(req, false));
  app.get('/api/msgPushHistory/remind', { config: LOGIN }, (req) => listMessages(req, true));

  app.post('/api/msgPushHistory/updateRemind', { config: LOGIN }, async (req) => {
    const user = currentUser(req);
    let q = db.updateTable('msg_push_history').set({ is_read: true }).where('user_id', '=', user.id).where('is_read', '=', false);
    if ((req.body as { all?: unknown } | null)?.all !== true) {
      const ids = idsOf(req.body);
      const own = await db.selectFrom('msg_push_history').select('id').where('id', 'in', ids).where('user_id', '=', user.id).execute();
      if (own.length !== new Set(ids).size) throw new HttpError(404, '消息不存在或已被删除');
      q = q.where('id', 'in', ids);
    }
    const updated = await q.returning('id').execute();
    await messages.notify([{ userId: user.id, event: { type: 'message', action: 'updated', ids: updated.map((r) => r.id) } }]);
    return { status: 200, message: '操作成功', totalElements: updated.length };
  });

  app.get('/api/msgPushHistory/count', { config: LOGIN }, async (req) => (await messages.counters(currentUser(req).id)).remind);

  // ---- Push channel -------------------------------------------------------------------------------

  await app.register(websocket, { options: { maxPayload: 4096 } });
  // The browser cannot send headers here: the guard reads the session from ?token= (401 refuses the upgrade).
  app.get('/websocket', {
    websocket: true,
    config: LOGIN,
    onRequest: assertSameOrigin,
    // A refused upgrade (401) answers on the raw socket, which nothing else would close.
    onResponse: async (req, reply) => {
      if (reply.statusCode !== 101 && req.headers.upgrade?.toLowerCase() === 'websocket') req.raw.socket.destroySoon();
    },
  }, async (socket, req) => {
    const user = currentUser(req);
    messages.hub.add(user.id, user.sessionId, socket);
    socket.on('message', (data: Buffer) => {
      // Some clients keep proxies awake with a text heartbeat.
      if (data.toString() === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
    });
    socket.send(JSON.stringify({ type: 'counters', ...(await messages.counters(user.id)) }));
  });

  const sweep = setInterval(() => {
    messages.hub.heartbeat();
    messages.closeEndedSessions().catch((err) => app.log.warn({ err }, 'closing websockets of ended sessions failed'));
  }, SWEEP_MS);
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    messages.hub.closeAll();
  });
}
