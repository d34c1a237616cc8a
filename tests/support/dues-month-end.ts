/**
 * The dues month-end (issue 44.4), shared by the bench suite `dues-month-end` and its `npm test` version:
 * members pay the month online through the signing test provider (tests/support/signing-provider.ts) on
 * two app servers on one PostgreSQL behind one port, while branches record on-site payments; the gateway
 * sends its signed notices at a set rate, some twice, out of order, some for orders the branch was paid
 * on site meanwhile, and retries every notice until a server answers it (as gateways do). One server is
 * killed with SIGKILL once half of the notices are answered. Then the database and the batch's report are
 * checked: no month paid twice, one receipt per order, every payment there, the report = the items.
 */
import { sql } from 'kysely';
import { parseYuan } from '../../src/shared/dues/money.js';
import { seedUniversity } from '../../src/server/seed/university/seed.js';
import { generateUniversity } from '../../src/server/seed/university/university.js';
import { untilAnswered } from '../../src/web/pages/pschool/exam-retry.js';
import { buildClusterServer, bulkSessions, percentile, prepareDatabase, startAppServer, startProxy, type AppServer } from './cluster.js';
import { SIGNING_PROVIDER, signedNotice } from './signing-provider.js';

export interface MonthEndOptions {
  members: number;
  /** Notices a second sent by the gateway. */
  noticesPerSecond: number;
  /** Parallel order creations (members at their phones). */
  payers: number;
  /** Only the first this many members with dues take part (the bench: a university big enough for them). */
  maxMembers?: number;
}

export interface MonthEndReport {
  /** Members with dues in the batch (some of a university's members owe nothing this month). */
  members: number;
  orders: number;
  notices: number[];
  repeated: number;
  onSite: number;
  paidOnSiteMeanwhile: number;
  noticeRetries: number;
  killedAtMs: number;
  problems: string[];
  proxy: { cutOff: number; refused: number; forwarded: number };
}

class HttpFailure extends Error {
  constructor(readonly status: number | undefined, message: string) {
    super(message);
  }
}
const statusOf = (e: unknown) => (e instanceof HttpFailure ? e.status : undefined);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * A client gives up on one request after this long and tries again (a gateway's read timeout; a phone's):
 * without it one request lost between the proxy and a dying server would wait for ever.
 */
const REQUEST_TIMEOUT_MS = 30_000;
/** And on a notice (or an order) after this long in all: recorded as a problem, never a stalled run. */
const GIVE_UP_MS = 120_000;
const giveUpAfter = (ms: number) => {
  const until = Date.now() + ms;
  return () => Date.now() > until;
};

async function send<T>(url: string, method: string, headers: Record<string, string>, body?: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    throw new HttpFailure(undefined, (error as Error).message);
  }
  const text = await res.text();
  if (!res.ok) throw new HttpFailure(res.status, `${method} ${url}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** Runs `work` over `items` with `n` workers. */
async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

interface Item { itemId: number; memberId: number; dueCents: number; token: string }

export async function duesMonthEnd(databaseUrl: string, dataDir: string, options: MonthEndOptions, log: (line: string) => void = () => {}): Promise<MonthEndReport> {
  const began = Date.now();
  const at = () => `${((Date.now() - began) / 1000).toFixed(1)} s`;
  // The servers' build (esbuild, a process of its own) runs while this process prepares the data.
  const building = buildClusterServer();
  building.catch(() => undefined); // awaited below; a failed preparation must not leave it unhandled
  const today = new Date();
  const month = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}`;
  const { batchId, items, adminToken } = await prepareDatabase(databaseUrl, dataDir, async (app) => {
    const database = app.services.database;
    const db = database.db;
    await seedUniversity(database, generateUniversity({ members: options.members, seed: 44 }), 'hntb');
    const admin = await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow();
    const [token] = await bulkSessions(db, [admin.id]);
    const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
      const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, payload });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    await call('POST', '/api/dues/standards/generate', { year: today.getFullYear() });
    const batch = await call('POST', '/api/m/dues-batch', { firstMonth: month });
    for (const step of ['configure', 'start']) {
      const { version } = await call('GET', `/api/m/dues-batch/${batch.id}`);
      await call('POST', `/api/m/dues-batch/${batch.id}/transitions/${step}`, { version, comment: '', values: step === 'configure' ? { allowMissing: true } : {} });
    }
    await call('PUT', '/api/dues/settings/online', { provider: SIGNING_PROVIDER });
    const role = await call('POST', '/api/roles', { name: '党员（压测）', code: 'r_month_end', permissions: ['dues-my:list'], dataScope: 'own', scopeOrgIds: [] });
    const rows = (await sql<{ itemId: number; memberId: number; dueCents: number; orgId: number }>`SELECT i.id AS "itemId", i.member_id AS "memberId", i.due_cents::int AS "dueCents", i.org_id AS "orgId"
      FROM dues_item i WHERE i.batch_id = ${batch.id} AND i.due_cents > 0 ORDER BY i.id`.execute(db)).rows.slice(0, options.maxMembers);
    const users: { id: number }[] = [];
    for (let i = 0; i < rows.length; i += 1000) {
      users.push(...(await db.insertInto('users').values(rows.slice(i, i + 1000).map((r) => ({ username: `payer${r.memberId}`, nick_name: `党员${r.memberId}`, password_hash: 'x', password_weak: false, org_id: r.orgId, member_id: r.memberId }))).returning('id').execute()));
    }
    for (let i = 0; i < users.length; i += 1000) await db.insertInto('user_roles').values(users.slice(i, i + 1000).map((u) => ({ user_id: u.id, role_id: role.id }))).execute();
    const tokens = await bulkSessions(db, users.map((u) => u.id));
    return { batchId: batch.id as number, adminToken: token, items: rows.map((r, i) => ({ itemId: r.itemId, memberId: r.memberId, dueCents: r.dueCents, token: tokens[i] })) };
  });
  log(`month end: ${items.length} members with dues in batch ${batchId}, prepared at ${at()}`);

  await building;
  const env = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir };
  const servers: AppServer[] = await Promise.all([startAppServer(env), startAppServer(env)]);
  const proxy = await startProxy(servers.map((s) => s.port));
  log(`two servers up at ${at()}`);
  const base = proxy.url;
  const problems: string[] = [];
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  try {
    // 5 % pay on site only, 3 % pay online and are paid on site before the gateway's notice, the rest online.
    const onSiteOnly = items.filter((_, i) => i % 20 === 7);
    const both = items.filter((_, i) => i % 33 === 5 && i % 20 !== 7);
    const online = items.filter((_, i) => i % 20 !== 7);
    const orders = new Map<number, { orderId: number; providerRef: string; amountCents: number; item: Item }>();
    await pool(online, options.payers, async (item) => {
      try {
        const o = await untilAnswered(() => send<{ id: number; amount: string }>(`${base}/api/dues/my/orders`, 'POST', { authorization: `Bearer ${item.token}`, 'content-type': 'application/json' }, JSON.stringify({ itemIds: [item.itemId] })), statusOf, { giveUp: giveUpAfter(GIVE_UP_MS) });
        orders.set(item.itemId, { orderId: o.id, providerRef: `GW${o.id}`, amountCents: parseYuan(o.amount)!, item });
      } catch (error) {
        problems.push(`order of item ${item.itemId}: ${(error as Error).message}`);
      }
    });
    log(`${orders.size} orders created at ${at()}`);

    // On-site payments by the branches (the administrator's scope here), retried like a collector pressing again.
    const payOnSite = async (item: Item) => {
      try {
        await untilAnswered(() => send(`${base}/api/dues/payments`, 'POST', admin, JSON.stringify({ method: 'cash', entries: [{ memberId: item.memberId, itemIds: [item.itemId] }] })), statusOf, { giveUp: giveUpAfter(GIVE_UP_MS) });
      } catch (error) {
        // 409: paid already (by the online notice, or a first try whose answer was lost).
        if (statusOf(error) !== 409) problems.push(`on-site payment of item ${item.itemId}: ${(error as Error).message}`);
      }
    };
    const bothIds = new Set(both.map((b) => b.itemId));
    // The gateway's queue: every order once, 10 % twice; shuffled within windows of 20 (out of order).
    const queue = [...orders.values()].flatMap((o, i) => (i % 10 === 3 ? [o, o] : [o]));
    for (let i = 0; i < queue.length; i += 20) {
      const w = queue.slice(i, i + 20).sort(() => Math.random() - 0.5);
      queue.splice(i, w.length, ...w);
    }
    const notices: number[] = [];
    let noticeRetries = 0;
    let answered = 0;
    let killedAt = 0;
    const t0 = Date.now();
    const half = Math.floor(queue.length / 2);
    const sending: Promise<void>[] = [];
    const onSite = pool(onSiteOnly, 4, payOnSite);
    for (const [k, o] of queue.entries()) {
      await sleep(t0 + (k * 1000) / options.noticesPerSecond - Date.now());
      sending.push((async () => {
        if (bothIds.has(o.item.itemId)) await payOnSite(o.item);
        const { body, headers } = signedNotice({ orderId: o.orderId, providerRef: o.providerRef, amountCents: o.amountCents, result: 'success' });
        try {
          await untilAnswered(async () => {
            const started = performance.now();
            await send(`${base}/api/dues/pay/notify/${SIGNING_PROVIDER}`, 'POST', headers, body);
            notices.push(performance.now() - started);
          }, statusOf, { onRetry: () => noticeRetries++, delay: () => 500, giveUp: giveUpAfter(GIVE_UP_MS) });
        } catch (error) {
          problems.push(`notice of order ${o.orderId}: ${(error as Error).message}`);
        }
        if (++answered === half) {
          killedAt = Date.now() - t0;
          await servers[1].stop('SIGKILL');
          log(`killed one app server (SIGKILL) ${Math.round(killedAt / 1000)} s into the notices (${at()}), after ${answered} notices`);
        }
      })());
    }
    await Promise.all([...sending, onSite]);
    log(`${queue.length} notices answered in ${Math.round((Date.now() - t0) / 1000)} s (${at()})`);

    const { default: pg } = await import('pg');
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    try {
      const q = async <R>(text: string, values: unknown[] = []) => (await check.query(text, values)).rows as R[];
      // Payments not reversed, per item: never more than one.
      for (const r of await q<{ item_id: number; n: number }>(`SELECT l.item_id, count(*)::int AS n FROM dues_payment_line l JOIN dues_payment p ON p.id = l.payment_id
          WHERE l.batch_id = $1 AND p.kind = 1 AND NOT EXISTS (SELECT 1 FROM dues_payment r WHERE r.reverses_id = p.id) GROUP BY l.item_id HAVING count(*) > 1`, [batchId])) problems.push(`item ${r.item_id} paid ${r.n} times`);
      for (const r of await q<{ order_id: number; n: number }>('SELECT order_id, count(*)::int AS n FROM dues_payment WHERE order_id IS NOT NULL GROUP BY order_id HAVING count(*) > 1')) problems.push(`order ${r.order_id}: ${r.n} receipts`);
      const byOrder = new Map((await q<{ id: number; status: number; payment_id: number | null; message: string | null }>('SELECT id, status, payment_id, message FROM dues_order')).map((o) => [o.id, o]));
      const paid = new Map((await q<{ id: number; payment_id: number | null; paid_cents: string; due_cents: string }>('SELECT id, payment_id, paid_cents, due_cents FROM dues_item WHERE batch_id = $1', [batchId])).map((i) => [i.id, i]));
      for (const o of orders.values()) {
        const row = byOrder.get(o.orderId);
        const item = paid.get(o.item.itemId)!;
        if (!item.payment_id || Number(item.paid_cents) !== Number(item.due_cents)) problems.push(`item ${o.item.itemId} of order ${o.orderId} unpaid`);
        if (!row || (row.status === 2 ? row.payment_id !== item.payment_id : row.status !== 3 || !bothIds.has(o.item.itemId))) problems.push(`order ${o.orderId}: status ${row?.status} payment ${row?.payment_id}, item's payment ${item.payment_id}`);
      }
      for (const s of onSiteOnly) if (!paid.get(s.itemId)?.payment_id) problems.push(`item ${s.itemId} paid on site is unpaid`);
      // The batch's figures (its report, as the pages show it) equal its items and its payment lines.
      const [items$] = await q<{ paid: string; n: number }>('SELECT coalesce(sum(paid_cents), 0)::bigint AS paid, count(*) FILTER (WHERE payment_id IS NOT NULL)::int AS n FROM dues_item WHERE batch_id = $1', [batchId]);
      const [lines] = await q<{ paid: string }>('SELECT coalesce(sum(l.amount_cents), 0)::bigint AS paid FROM dues_payment_line l WHERE l.batch_id = $1', [batchId]);
      const tree = await send<{ paid: string; paidMembers: number }[]>(`${base}/api/dues/batches/${batchId}/progress`, 'GET', admin);
      const reported = tree.reduce((s, n) => s + parseYuan(n.paid)!, 0);
      const reportedMembers = tree.reduce((s, n) => s + n.paidMembers, 0);
      if (Number(items$.paid) !== Number(lines.paid) || reported !== Number(items$.paid) || reportedMembers !== items$.n) problems.push(`batch figures: report ${reported} cents for ${reportedMembers} members, items ${items$.paid} for ${items$.n}, payment lines ${lines.paid}`);
      if (items$.n !== orders.size + onSiteOnly.length) problems.push(`${items$.n} months paid, expected ${orders.size + onSiteOnly.length}`);
    } finally {
      await check.end();
    }
    log(`checked at ${at()}`);
    return { members: items.length, orders: orders.size, notices, repeated: queue.length - orders.size, onSite: onSiteOnly.length, paidOnSiteMeanwhile: both.length, noticeRetries, killedAtMs: killedAt, problems, proxy: { ...proxy.stats } };
  } finally {
    await proxy.close();
    await Promise.all(servers.map((s) => s.stop('SIGTERM')));
  }
}

export function monthEndSummary(r: MonthEndReport): string {
  const n = [...r.notices].sort((a, b) => a - b);
  return `${r.members} members with dues, ${r.orders} orders, ${n.length} notices answered (${r.repeated} repeats, ${r.noticeRetries} retried) p50 ${percentile(n, 50).toFixed(1)} ms p99 ${percentile(n, 99).toFixed(1)} ms; ${r.onSite} paid on site, ${r.paidOnSiteMeanwhile} paid on site before the notice; proxy ${JSON.stringify(r.proxy)}; ${r.problems.length} problems`;
}
