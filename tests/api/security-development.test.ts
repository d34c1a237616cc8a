// engines: pglite — scope filters and state lists in plain SQL, the same on both engines
/**
 * Issue 25.9: 发展纪实 (`GET /api/development/{id}/record`) listed the same person's applications in other
 * branches (branch, state, dates) whatever the caller's scope. Issue 24 §3.8: ended states were listed by
 * hand in the development routes; a school override that adds one was not counted as ended.
 */
import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemasWith } from '../fixtures/workflow-schemas.js';
import { TODAY, developmentWorld, idCardFor, type DevWorld } from '../support/development.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';
import { addYears } from '../../src/shared/development/rules.js';

describe(`development records within the caller's scope (issue 25.9, 24 §3.8) on ${TEST_DB}`, () => {
  let t: TestApp;
  let w: DevWorld;
  let dir: string;
  beforeAll(async () => {
    // This school ends an application in a state of its own: 已终止 (-4).
    dir = schemasWith({}, { development: { 'x-workflow': { states: { '-4': { title: '已终止', final: true } } } } });
    t = await createTestApp({}, undefined, { schemasDir: dir });
    w = await developmentWorld(t.app);
  });
  afterAll(async () => {
    await t.app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const setState = (id: number, state: number) => sql`UPDATE m_development SET state = ${state} WHERE id = ${id}`.execute(t.database.db);

  it('[25.9] the record of an application lists the person’s other applications only inside the caller’s scope', async () => {
    const idCard = idCardFor(addYears(TODAY, -24), 501);
    // First in the other college's branch, ended there (not passed); then again in the first branch.
    const first = await w.otherBranch('POST', '/api/m/development', { name: '申请人乙', idCard, category: '4', orgId: w.ids.branch2 });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    await setState(first.body.id, -2);
    const second = await w.branch('POST', '/api/m/development', { name: '申请人乙', idCard, category: '4', orgId: w.ids.branch });
    expect(second.status, JSON.stringify(second.body)).toBe(201);

    const mine = await w.branch('GET', `/api/development/${second.body.id}/record`);
    expect(mine.status).toBe(200);
    expect(mine.body.applications).toEqual([expect.objectContaining({ id: second.body.id, orgId: w.ids.branch, current: true })]);
    const theirs = await w.otherBranch('GET', `/api/development/${first.body.id}/record`);
    expect(theirs.body.applications).toEqual([expect.objectContaining({ id: first.body.id, orgId: w.ids.branch2, current: true })]);
    // The organisation department (scope: all) sees both, in order.
    const all = await w.orgdept('GET', `/api/development/${second.body.id}/record`);
    expect(all.body.applications.map((a: { id: number; current: boolean }) => [a.id, a.current])).toEqual([[first.body.id, false], [second.body.id, true]]);
    // Someone else's application stays a 404.
    expect((await w.branch('GET', `/api/development/${first.body.id}/record`)).status).toBe(404);
  });

  it('[24.3.8] the funnel counts a state an override declares final as ended, read from the merged schema', async () => {
    const idCard = idCardFor(addYears(TODAY, -23), 503);
    const app = await w.branch('POST', '/api/m/development', { name: '申请人丙', idCard, category: '4', orgId: w.ids.branch });
    expect(app.status, JSON.stringify(app.body)).toBe(201);
    const before = (await w.branch('GET', '/api/development/funnel')).body;
    await setState(app.body.id, -4);
    const after = (await w.branch('GET', '/api/development/funnel')).body;
    expect(after.ended).toBe(before.ended + 1);
    expect(after.states).toContainEqual({ code: -4, title: '已终止', count: 1 });
    const applicants = (f: { stages: { value: string; count: number }[] }) => f.stages.find((s) => s.value === '1')!.count;
    expect(applicants(after)).toBe(applicants(before) - 1);
    // An application ended in that state is no longer "in progress": the person may apply again.
    const again = await w.branch('POST', '/api/m/development', { name: '申请人丙', idCard, category: '4', orgId: w.ids.branch });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });
});
