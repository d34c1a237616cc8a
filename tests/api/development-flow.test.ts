import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { developmentWorld, newApplicant, step, walkUntil, type DevWorld } from '../support/development.js';

describe(`development workflow on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: DevWorld;
  beforeAll(async () => {
    t = await createTestApp();
    w = await developmentWorld(t.app);
  });
  afterAll(() => t.app.close());

  it('walks the main line', async () => {
    const { id } = await newApplicant(w);
    await walkUntil(w, id, null);
    const r = await w.admin('GET', `/api/m/development/${id}`);
    expect(r.body).toMatchObject({ state: 10, stateLabel: '已归档' });
  });
});
