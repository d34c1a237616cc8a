// engines: both — two app servers relay messages through PostgreSQL notifications
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { notifyParts } from '../../src/server/core/messages/service.js';
import { RELAY_RETRY_MS } from '../../src/server/db/keep-listening.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, reopenableTestDatabase, type TestApp } from '../support/test-app.js';

const PASS = 'Relay#2026a';

/** The first frame of `type` a socket receives (within 5 s). */
function frameOf(ws: WebSocket, type: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} frame within 5 s`)), 5000);
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      if (frame.type !== type) return;
      clearTimeout(timer);
      resolve(frame);
    });
  });
}

describe('pushes relayed between app servers', () => {
  it('NOTIFY parts stay under PostgreSQL\'s 8000-byte limit and keep every change', () => {
    const changes = Array.from({ length: 500 }, (_v, i) => ({ userId: i + 1, event: { type: 'message' as const, action: 'created' as const, title: `标题${i}`.repeat(5) } }));
    const parts = notifyParts({ changes, counters: true });
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(Buffer.byteLength(JSON.stringify(part))).toBeLessThan(8000);
    expect(parts.flatMap((p) => p.changes.map((c) => c.userId))).toEqual(changes.map((c) => c.userId));
    expect(parts.every((p) => p.counters)).toBe(true);
    // One change too big for a NOTIFY on its own goes as its user and kind only.
    const huge = notifyParts({ changes: [{ userId: 7, event: { type: 'message', action: 'created', title: 'x'.repeat(9000) } }], counters: false });
    expect(huge).toEqual([{ changes: [{ userId: 7, event: { type: 'message', action: 'created' } }], counters: false }]);
  });

  describe.runIf(TEST_DB === 'postgres')('two app servers on one PostgreSQL database', () => {
    let a: TestApp;
    let b: TestApp;
    let store: Awaited<ReturnType<typeof reopenableTestDatabase>>;
    beforeAll(async () => {
      store = await reopenableTestDatabase();
      a = await createTestApp({}, undefined, { database: await store.open() });
      b = await createTestApp({}, undefined, { database: await store.open() });
    });
    afterAll(async () => {
      await a?.app.close();
      await b?.app.close();
      store?.dispose();
    });

    it('a message sent through server A reaches the recipient\'s socket on server B, with fresh counters', async () => {
      const admin = await login(a.app);
      const bobId = await userWithRole(a.app, admin, { username: 'relay_bob', permissions: ['member:list'], password: PASS });
      const bob = await login(b.app, 'relay_bob', PASS);
      await b.app.listen({ port: 0, host: '127.0.0.1' });
      const ws = new WebSocket(`ws://127.0.0.1:${(b.app.server.address() as AddressInfo).port}/websocket?token=${bob}`);
      const first = frameOf(ws, 'counters');
      await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
      expect(await first).toMatchObject({ remind: { totalElements: 0 } });

      const message = frameOf(ws, 'message');
      const counters = frameOf(ws, 'counters');
      const sent = await a.app.inject({ method: 'POST', url: '/api/msgPushHistory', headers: bearer(admin), payload: { userIds: [bobId], title: '跨服务器消息' } });
      expect(sent.statusCode, sent.body).toBe(201);
      expect(await message).toMatchObject({ action: 'created', title: '跨服务器消息' });
      expect(await counters).toMatchObject({ remind: { totalElements: 1 } });

      // The listeners' connections are cut (a database restart, a network blip): they listen again.
      const listeners = sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN "dj_push"%' AND datname = current_database()`;
      const cut = new Set((await listeners.execute(a.database.db)).rows.map((r) => r.pid));
      expect(cut.size).toBe(2); // one per app server
      await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid IN (${sql.join([...cut])})`.execute(a.database.db);
      const fresh = async () => (await listeners.execute(a.database.db)).rows.filter((r) => !cut.has(r.pid)).length;
      await expect.poll(fresh, { timeout: RELAY_RETRY_MS + 5000, interval: 200 }).toBe(2);
      const titles: unknown[] = [];
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { type: string; title?: string };
        if (frame.type === 'message') titles.push(frame.title);
      });
      await a.app.inject({ method: 'POST', url: '/api/msgPushHistory', headers: bearer(admin), payload: { userIds: [bobId], title: '重连之后' } });
      await expect.poll(() => titles, { timeout: 5000 }).toEqual(['重连之后']);
      await new Promise((r) => setTimeout(r, 500));
      expect(titles).toEqual(['重连之后']); // once: one listener per server after the reconnect
      ws.close();
    }, 30_000);
  });
});
