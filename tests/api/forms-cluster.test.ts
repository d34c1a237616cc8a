// engines: both — two app servers on one PostgreSQL database (skipped on PGlite, one process by design)
/**
 * Issue 29: a module stored at run time reaches every app server on the same PostgreSQL without a restart:
 * a form created and published through A is served by B within 2 s, and a later version of it too
 * (the cache invalidation bus, LISTEN/NOTIFY).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../support/auth.js';
import { caller, type Call } from '../support/call.js';
import { TEST_DB, createTestApp, reopenableTestDatabase, type TestApp } from '../support/test-app.js';

async function within<T>(ms: number, probe: () => Promise<T | undefined>): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined || Date.now() > end) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(TEST_DB === 'postgres')('stored modules on two app servers', () => {
  let a: TestApp;
  let b: TestApp;
  let store: Awaited<ReturnType<typeof reopenableTestDatabase>>;
  let onA: Call;
  let onB: Call;
  beforeAll(async () => {
    store = await reopenableTestDatabase();
    a = await createTestApp({}, undefined, { database: await store.open() });
    b = await createTestApp({}, undefined, { database: await store.open() });
    const admin = await login(a.app);
    onA = caller(a.app, () => admin);
    onB = caller(b.app, () => admin);
  }, 120_000);
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    store?.dispose();
  });

  it('[S1.F11a] a form published on A is served by B within 2 s, and so is its next version', async () => {
    const org = await onA('POST', '/api/m/org', { name: '集群测试支部', type: '3' });
    const created = await onA('POST', '/api/forms', { title: '集群表单', schema: { properties: { note: { type: 'string', title: '说明' } } } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect((await onA('POST', `/api/forms/${id}/publish`, { shareType: 1, orgIds: [org.body.id], deadline: '2026-12-31' })).status).toBe(200);
    const started = Date.now();
    const served = await within(2000, async () => {
      const r = await onB('GET', `/api/m/${id}/schema`);
      return r.status === 200 ? r.body : undefined;
    });
    expect(served?.schema.properties.note.title).toBe('说明');
    expect(Date.now() - started).toBeLessThan(2000);
    // B fills it: its generic API and the collection both work there.
    expect((await onB('POST', `/api/forms/${id}/fill`, { orgId: org.body.id, submit: true, values: { note: '来自B' } })).status).toBe(200);
    expect((await onA('POST', `/api/m/${id}/list`, {})).body.totalElements).toBe(1);
    // A new version on A: B serves it after the notification, without a restart.
    const changed = await onA('PUT', `/api/forms/${id}/schema`, { schema: { properties: { note: { type: 'string', title: '说明' }, extra: { type: 'integer', title: '人数' } } } });
    expect(changed.body.version).toBe(2);
    const next = await within(2000, async () => {
      const r = await onB('GET', `/api/m/${id}/schema`);
      return r.body.schema.properties.extra ? r.body : undefined;
    });
    expect(next?.schema.properties.extra.title).toBe('人数');
  });

  it('[42.5] a rule parameter changed on A is in force on B without a restart (the invalidation bus)', async () => {
    const on = async (call: Call) => ((await call('GET', '/api/rule-params')).body as { key: string; value: unknown; source: string }[]).find((p) => p.key === 'appraisal.excellentCapPercent');
    // B has read (and cached) the registry before the change.
    expect(await on(onB)).toMatchObject({ value: 30, source: 'default' });
    const changed = await onA('PUT', '/api/rule-params/appraisal.excellentCapPercent', { value: 25, reason: '集群测试：优秀比例调整' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const seen = await within(2000, async () => {
      const p = await on(onB);
      return p?.value === 25 ? p : undefined;
    });
    expect(seen).toMatchObject({ value: 25, source: 'admin' });
  });
});
