// engines: pglite — reads the demo data (seeded once per run)
/**
 * Issue 29: the demo holds published forms in every collection state (one with a table-of-rows field),
 * a draft and a stopped collection; the demo branch secretary fills, 组织部 collects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { login } from '../support/auth.js';
import { caller, type Call } from '../support/call.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

describe.runIf(TEST_DB === 'pglite')('demo fill-in forms', () => {
  let t: TestApp;
  let call: Call;
  let zbsj: string;
  let dwzzb: string;
  beforeAll(async () => {
    t = await createDemoTestApp();
    call = caller(t.app, () => dwzzb);
    dwzzb = await login(t.app, 'dwzzb', DEMO_USER_PASSWORD);
    zbsj = await login(t.app, 'zbsj', DEMO_USER_PASSWORD);
  }, 300_000);
  afterAll(() => t?.app.close());

  it('[S1.F11a] forms in every state; the published one has organisations in every collection state', async () => {
    const forms = (await call('GET', '/api/forms')).body as { id: string; shareState: number | null }[];
    expect(forms.map((f) => f.shareState).sort()).toEqual([1, 2, null]);
    const published = forms.find((f) => f.shareState === 1)!;
    const schema = (await call('GET', `/api/m/${published.id}/schema`)).body.schema;
    expect(schema.properties.activities.items.type).toBe('object');
    const states = new Set(((await call('GET', `/api/forms/${published.id}/progress`)).body as { state: number }[]).map((p) => p.state));
    expect([...states].sort()).toEqual([0, 1, 2, 3]);
  });

  it('[S1.F11a] the demo branch secretary sees the published form, not started, and may fill it', async () => {
    const forms = (await call('GET', '/api/forms', undefined, zbsj)).body as { id: string; shareState: number }[];
    const published = forms.find((f) => f.shareState === 1)!;
    const answer = await call('GET', `/api/forms/${published.id}/answer`, undefined, zbsj);
    expect(answer.status).toBe(200);
    expect(answer.body.state).toBe(0);
    const draft = await call('POST', `/api/forms/${published.id}/fill`, { values: { leader: '测试' } }, zbsj);
    expect(draft.body.state).toBe(1);
  });
});
