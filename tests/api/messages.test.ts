// engines: both — pushes through the engine's notification path, JSON bodies
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Message#2026a';

interface Frame {
  type: string;
  [key: string]: unknown;
}

/** A websocket client that queues the JSON frames it receives. */
async function openSocket(url: string) {
  const ws = new WebSocket(url);
  const frames: Frame[] = [];
  const waiters: ((f: Frame) => void)[] = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as Frame;
    const waiter = waiters.shift();
    if (waiter) waiter(frame);
    else frames.push(frame);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = () =>
    new Promise<Frame>((resolve, reject) => {
      const queued = frames.shift();
      if (queued) return resolve(queued);
      const timer = setTimeout(() => reject(new Error('no websocket frame within 3 s')), 3000);
      waiters.push((f) => {
        clearTimeout(timer);
        resolve(f);
      });
    });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  return { ws, next, closed };
}

describe(`messages, to-dos and counters on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let alice: string;
  let bob: string;
  let aliceId: number;
  let bobId: number;
  let roleId: number;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    aliceId = await userWithRole(t.app, admin, { username: 'alice', permissions: ['member:list'], password: PASS });
    bobId = await userWithRole(t.app, admin, { username: 'bob', permissions: ['member:list'], password: PASS });
    alice = await login(t.app, 'alice', PASS);
    bob = await login(t.app, 'bob', PASS);
    roleId = (await t.database.db.selectFrom('roles').select('id').where('code', '=', 'r_alice').executeTakeFirstOrThrow()).id;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.app.close());

  const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token?: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: token ? bearer(token) : {}, ...(payload === undefined ? {} : { payload: payload as object }) });
  const todosOf = async (token: string, query = '') => {
    const res = await inject('GET', `/api/msgTodo/getTodo${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { content: { id: number; title: string; status: number; userId: number; content: string; link: string | null }[]; totalElements: number };
  };
  const messagesOf = async (token: string, url = '/api/msgPushHistory') => {
    const res = await inject('GET', url, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { content: { id: number; title: string; isRead: boolean; type: string; senderName: string; userId: number; content: string }[]; totalElements: number };
  };
  const count = async (token: string, kind: 'msgTodo' | 'msgPushHistory') => {
    const res = await inject('GET', `/api/${kind}/count`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { totalElements: number };
  };

  it('[S7.MS1a][S7.MS1d] POST api/msgTodo adds a to-do for a user; GET api/msgTodo/getTodo with query lists it', async () => {
    const res = await inject('POST', '/api/msgTodo', admin, { userIds: [aliceId], title: '审核入党申请', content: '请审核张三的入党申请', link: '/member/list?id=3' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().ids).toHaveLength(1);
    const list = await todosOf(alice, '?status=0&page=0&size=10&blurry=入党');
    expect(list.totalElements).toBe(1);
    expect(list.content[0]).toMatchObject({ title: '审核入党申请', content: '请审核张三的入党申请', link: '/member/list?id=3', status: 0, userId: aliceId });
    expect((await todosOf(alice, '?blurry=不存在的')).totalElements).toBe(0);
    expect((await inject('GET', '/api/msgTodo/getTodo?status=7', alice)).json()).toMatchObject({ status: 400, message: '待办状态只能是0或1' });
  });

  it('[S3.E8b] a user sees only their own to-dos and cannot touch anyone else\'s', async () => {
    const [aliceTodo] = (await todosOf(alice)).content;
    expect((await todosOf(bob)).totalElements).toBe(0);
    // Someone else's to-do is not found for them (404, not 403: 403 is a missing permission, which sends to /401).
    expect((await inject('POST', '/api/msgTodo/updateTodo', bob, { ids: [aliceTodo.id] })).json()).toMatchObject({ status: 404, message: '待办不存在或已被删除' });
    expect((await inject('DELETE', '/api/msgTodo/', bob, [aliceTodo.id])).json()).toMatchObject({ status: 404, message: '记录不存在或已被删除' });
    expect((await inject('PUT', '/api/msgTodo', bob, { id: aliceTodo.id, status: 1 })).statusCode).toBe(404);
    // The recipient may tick it off but not reword it: a refusal with its reason.
    expect((await inject('PUT', '/api/msgTodo', alice, { id: aliceTodo.id, title: '改标题' })).json()).toMatchObject({ status: 400, message: '只能修改自己待办的状态' });
    expect((await todosOf(alice)).content[0]).toMatchObject({ title: '审核入党申请', status: 0 });
  });

  it('[S7.MS1b] PUT api/msgTodo edits a to-do and the change is visible', async () => {
    const [todo] = (await todosOf(alice)).content;
    const res = await inject('PUT', '/api/msgTodo', admin, { id: todo.id, title: '审核入党申请（加急）', content: '今天内完成' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await todosOf(alice)).content[0]).toMatchObject({ id: todo.id, title: '审核入党申请（加急）', content: '今天内完成' });
  });

  it('[S7.MS1e][S3.E7] POST api/msgTodo/updateTodo marks the given to-dos done; the todo counter follows', async () => {
    await inject('POST', '/api/msgTodo', admin, { userId: aliceId, title: '第二项待办' });
    expect(await count(alice, 'msgTodo')).toEqual({ totalElements: 2 });
    const ids = (await todosOf(alice)).content.map((x) => x.id);
    const res = await inject('POST', '/api/msgTodo/updateTodo', alice, { ids: [ids[0]] });
    expect(res.statusCode, res.body).toBe(200);
    const after = await todosOf(alice);
    expect(after.content.find((x) => x.id === ids[0])?.status).toBe(1);
    expect(after.content.find((x) => x.id === ids[1])?.status).toBe(0);
    expect(await count(alice, 'msgTodo')).toEqual({ totalElements: 1 });
    expect((await todosOf(alice, '?status=1')).content.map((x) => x.id)).toEqual([ids[0]]);
    // Reopen with status 0.
    await inject('POST', '/api/msgTodo/updateTodo', alice, { ids: [ids[0]], status: 0 });
    expect(await count(alice, 'msgTodo')).toEqual({ totalElements: 2 });
  });

  it('[S7.MS1c] DELETE /api/msgTodo/ with a JSON body removes the to-dos', async () => {
    const ids = (await todosOf(alice)).content.map((x) => x.id);
    const res = await inject('DELETE', '/api/msgTodo/', alice, ids);
    expect(res.statusCode, res.body).toBe(200);
    expect((await todosOf(alice)).totalElements).toBe(0);
    expect(await count(alice, 'msgTodo')).toEqual({ totalElements: 0 });
  });

  it('to-do sending needs msg:send and valid input (Chinese messages, nothing stored)', async () => {
    expect((await inject('POST', '/api/msgTodo', alice, { userIds: [bobId], title: 'x' })).statusCode).toBe(403);
    expect((await inject('POST', '/api/msgTodo', undefined, { userIds: [bobId], title: 'x' })).statusCode).toBe(401);
    const noTitle = await inject('POST', '/api/msgTodo', admin, { userIds: [bobId] });
    expect(noTitle.json().errors[0]).toMatchObject({ field: 'title', message: '标题不能为空' });
    const badLink = await inject('POST', '/api/msgTodo', admin, { userIds: [bobId], title: 'x', link: 'javascript:alert(1)' });
    expect(badLink.json().errors[0]).toMatchObject({ field: 'link', message: '链接的格式不正确' });
    const offsite = await inject('POST', '/api/msgTodo', admin, { userIds: [bobId], title: 'x', link: '//evil.example/x' });
    expect(offsite.statusCode).toBe(400);
    expect((await inject('POST', '/api/msgTodo', admin, { userIds: [99999], title: 'x' })).json()).toMatchObject({ status: 400, message: '接收人不存在' });
    expect((await inject('POST', '/api/msgTodo', admin, { title: 'x' })).json()).toMatchObject({ status: 400, message: '请选择接收人' });
    expect((await todosOf(bob)).totalElements).toBe(0);
  });

  it('[S7.MS2a][S3.E8a] POST api/msgPushHistory sends a private message; it appears in the recipient\'s list only', async () => {
    const res = await inject('POST', '/api/msgPushHistory', alice, { userIds: [bobId], title: '周五开会', content: '下午三点 302 会议室' });
    expect(res.statusCode, res.body).toBe(201);
    const bobs = await messagesOf(bob);
    expect(bobs.totalElements).toBe(1);
    expect(bobs.content[0]).toMatchObject({ title: '周五开会', content: '下午三点 302 会议室', type: 'private', isRead: false, senderName: 'alice', userId: bobId });
    expect((await messagesOf(alice)).totalElements).toBe(0);
    expect((await messagesOf(bob, '/api/msgPushHistory/remind')).content.map((m) => m.title)).toEqual(['周五开会']);
    expect(await count(bob, 'msgPushHistory')).toEqual({ totalElements: 1, private: 1, system: 0 });
    expect(await count(alice, 'msgPushHistory')).toEqual({ totalElements: 0, private: 0, system: 0 });
  });

  it('any signed-in user looks up recipients by name or username (not by phone), enabled people only, at most 20', async () => {
    await t.database.db.updateTable('users').set({ phone: '13912345678', nick_name: '鲍勃' }).where('id', '=', bobId).execute();
    const lookup = async (keyword: string, token = alice) => {
      const res = await inject('GET', `/api/msgPushHistory/recipients?keyword=${encodeURIComponent(keyword)}`, token);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { content: { id: number; username: string; nickName: string }[] }).content;
    };
    // alice has no user:list, yet finds bob by username and by name, with nothing but id, username and name.
    expect(await lookup('bo')).toEqual([{ id: bobId, username: 'bob', nickName: '鲍勃' }]);
    expect((await lookup('鲍')).map((u) => u.id)).toEqual([bobId]);
    expect(await lookup('13912345678')).toEqual([]);
    expect(await lookup('%')).toEqual([]); // LIKE wildcards are text
    await t.database.db.updateTable('users').set({ enabled: false }).where('id', '=', bobId).execute();
    expect(await lookup('bob')).toEqual([]);
    await t.database.db.updateTable('users').set({ enabled: true }).where('id', '=', bobId).execute();
    expect((await lookup('')).length).toBeLessThanOrEqual(20);
    expect((await inject('GET', '/api/msgPushHistory/recipients?keyword=bob')).statusCode).toBe(401);
  });

  it('sending to a role or as a reminder needs msg:send; a role send reaches every member', async () => {
    expect((await inject('POST', '/api/msgPushHistory', alice, { roleIds: [roleId], title: '群发' })).json()).toMatchObject({ status: 403, message: '没有群发消息的权限' });
    expect((await inject('POST', '/api/msgPushHistory', alice, { userIds: [bobId], title: '提醒', type: 'remind' })).statusCode).toBe(403);
    const res = await inject('POST', '/api/msgPushHistory', admin, { roleIds: [roleId], title: '支部通知', type: 'notice' });
    expect(res.statusCode, res.body).toBe(201);
    expect((await messagesOf(alice, '/api/msgPushHistory?type=notice')).content.map((m) => m.title)).toEqual(['支部通知']);
    // A notice is listed but is not one of the reminders of the badge; it is an unread 系统消息 (issue 43.13).
    expect(await count(alice, 'msgPushHistory')).toEqual({ totalElements: 0, private: 0, system: 1 });
    expect((await messagesOf(alice, '/api/msgPushHistory?type=system')).content.map((m) => m.title)).toEqual(['支部通知']);
    expect((await messagesOf(alice, '/api/msgPushHistory?type=private')).totalElements).toBe(0);
    expect((await messagesOf(bob, '/api/msgPushHistory?type=notice')).totalElements).toBe(0);
    expect((await inject('GET', '/api/msgPushHistory?type=spam', alice)).json().message).toBe('不支持的消息类型：spam');
  });

  it('[S7.MS2b] PUT api/msgPushHistory: the sender edits within two minutes and the change is visible; later or by others it is refused', async () => {
    const [msg] = (await messagesOf(bob, '/api/msgPushHistory?type=private')).content;
    const res = await inject('PUT', '/api/msgPushHistory', alice, { id: msg.id, content: '改到下午四点' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await messagesOf(bob, '/api/msgPushHistory?type=private')).content[0].content).toBe('改到下午四点');
    expect((await inject('PUT', '/api/msgPushHistory', bob, { id: msg.id, content: '篡改' })).json()).toMatchObject({ status: 400, message: '只能修改自己发送的消息' });
    await t.database.db.updateTable('msg_push_history').set({ created_at: new Date(Date.now() - 3 * 60_000) } as never).where('id', '=', msg.id).execute();
    expect((await inject('PUT', '/api/msgPushHistory', alice, { id: msg.id, content: '再改' })).json()).toMatchObject({ status: 400, message: '消息发送超过2分钟，不能再修改' });
    // msg:send may still correct it; the recipient may mark it read.
    expect((await inject('PUT', '/api/msgPushHistory', admin, { id: msg.id, content: '管理员更正' })).statusCode).toBe(200);
    expect((await messagesOf(bob, '/api/msgPushHistory?type=private')).content[0].content).toBe('管理员更正');
  });

  it('[S7.MS2d] POST api/msgPushHistory/updateRemind marks the given reminders read; {all:true} marks all', async () => {
    await inject('POST', '/api/msgPushHistory', alice, { userIds: [bobId], title: '第二条' });
    await inject('POST', '/api/msgPushHistory', alice, { userIds: [bobId], title: '第三条' });
    expect(await count(bob, 'msgPushHistory')).toEqual({ totalElements: 3, private: 3, system: 0 });
    const [newest] = (await messagesOf(bob, '/api/msgPushHistory/remind')).content;
    expect(newest.title).toBe('第三条');
    expect((await inject('POST', '/api/msgPushHistory/updateRemind', alice, [newest.id])).json()).toMatchObject({ status: 404, message: '消息不存在或已被删除' });
    const res = await inject('POST', '/api/msgPushHistory/updateRemind', bob, [newest.id]);
    expect(res.statusCode, res.body).toBe(200);
    expect((await messagesOf(bob, '/api/msgPushHistory?read=true')).content.map((m) => m.id)).toEqual([newest.id]);
    expect(await count(bob, 'msgPushHistory')).toEqual({ totalElements: 2, private: 2, system: 0 });
    expect((await messagesOf(bob, '/api/msgPushHistory/remind')).content.map((m) => m.title)).not.toContain('第三条');
    await inject('POST', '/api/msgPushHistory/updateRemind', bob, { all: true });
    expect(await count(bob, 'msgPushHistory')).toEqual({ totalElements: 0, private: 0, system: 0 });
    expect((await messagesOf(bob, '/api/msgPushHistory?read=false')).totalElements).toBe(0);
  });

  it('[S7.MS2c] DELETE /api/msgPushHistory/ with a JSON body removes own messages only', async () => {
    const ids = (await messagesOf(bob)).content.map((m) => m.id);
    expect((await inject('DELETE', '/api/msgPushHistory/', alice, { ids })).json()).toMatchObject({ status: 404, message: '记录不存在或已被删除' });
    expect((await messagesOf(bob)).totalElements).toBe(ids.length);
    const res = await inject('DELETE', '/api/msgPushHistory/', bob, { ids });
    expect(res.statusCode, res.body).toBe(200);
    expect((await messagesOf(bob)).totalElements).toBe(0);
    expect((await inject('DELETE', '/api/msgPushHistory/', bob, { ids: [] })).json()).toMatchObject({ status: 400, message: '请选择要操作的记录' });
  });

  it('MessageService: domain code sends reminders and to-dos, and closes the to-dos of a record', async () => {
    const { messages } = t.app.services;
    await messages.sendMessage({ toUserIds: [aliceId], type: 'remind', title: '预备党员转正提醒', link: '/member/list' });
    const [reminder] = (await messagesOf(alice, '/api/msgPushHistory/remind')).content;
    expect(reminder).toMatchObject({ title: '预备党员转正提醒', type: 'remind', senderName: '系统' });
    await messages.addTodo({ toUserIds: [aliceId, bobId], title: '审批组织关系转接', module: 'transfer', refId: 42 });
    expect(await count(bob, 'msgTodo')).toEqual({ totalElements: 1 });
    expect(await messages.completeTodos({ module: 'transfer', refId: 42 })).toBe(2);
    expect(await count(alice, 'msgTodo')).toEqual({ totalElements: 0 });
    expect(await count(bob, 'msgTodo')).toEqual({ totalElements: 0 });
  });

  it('[S7.F7k] /websocket?token=<valid> upgrades, sends counters, then pushes new messages and to-dos with fresh counters', async () => {
    const before = await t.app.services.messages.counters(bobId);
    const client = await openSocket(`${base}/websocket?token=${bob}`);
    expect(await client.next()).toEqual({ type: 'counters', ...before });

    await inject('POST', '/api/msgPushHistory', alice, { userIds: [bobId], title: '实时消息' });
    expect(await client.next()).toMatchObject({ type: 'message', action: 'created', title: '实时消息', messageType: 'private', senderName: 'alice' });
    const remindAfter = { totalElements: before.remind.totalElements + 1, private: before.remind.private + 1, system: before.remind.system };
    expect(await client.next()).toEqual({ type: 'counters', todo: before.todo, remind: remindAfter });

    await inject('POST', '/api/msgTodo', admin, { userIds: [bobId], title: '实时待办' });
    expect(await client.next()).toMatchObject({ type: 'todo', action: 'created', title: '实时待办' });
    expect(await client.next()).toEqual({ type: 'counters', todo: { totalElements: before.todo.totalElements + 1 }, remind: remindAfter });

    // Alice's activity is not pushed to Bob.
    await inject('POST', '/api/msgPushHistory', bob, { userIds: [aliceId], title: '给爱丽丝' });
    await inject('POST', '/api/msgPushHistory/updateRemind', bob, { all: true });
    expect(await client.next()).toMatchObject({ type: 'message', action: 'updated' });
    expect((await client.next()).remind).toEqual({ totalElements: 0, private: 0, system: 0 });
    client.ws.close();
  });

  it('[S7.F7k] a websocket upgrade with a bad or missing token is refused with 401', async () => {
    for (const url of [`${base}/websocket?token=not-a-token`, `${base}/websocket`]) {
      const ws = new WebSocket(url);
      const status = await new Promise<number>((resolve) => {
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.once('open', () => resolve(101));
        ws.once('error', () => resolve(-1));
      });
      expect(status, url).toBe(401);
      ws.terminate();
    }
  });

  it('the sockets of a session that ended are closed', async () => {
    const token = await login(t.app, 'alice', PASS);
    const client = await openSocket(`${base}/websocket?token=${token}`);
    await client.next();
    expect((await inject('GET', '/auth/logout', token)).statusCode).toBe(200);
    expect(await t.app.services.messages.closeEndedSessions()).toBe(1);
    expect(await client.closed).toBe(4001);
    // Other users' sockets stay open.
    const other = await openSocket(`${base}/websocket?token=${bob}`);
    await other.next();
    expect(await t.app.services.messages.closeEndedSessions()).toBe(0);
    expect(other.ws.readyState).toBe(WebSocket.OPEN);
    other.ws.close();
  });
});
