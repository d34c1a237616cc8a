// engines: pglite — the content of the demo party school; seeding on both engines is foundation's
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { bearer, login } from '../support/auth.js';
import { SETUP_TIMEOUT } from '../support/pschool.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

describe(`party-school demo data on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let dy: string;
  beforeAll(async () => {
    t = await createDemoTestApp();
    admin = await login(t.app);
    dy = await login(t.app, 'dy', DEMO_USER_PASSWORD);
  }, SETUP_TIMEOUT);
  afterAll(() => t.app.close());

  const get = (url: string, token = admin) => t.app.inject({ url, headers: bearer(token) });
  const list = async (module: string, filter: Record<string, unknown> = {}) => (await t.app.inject({ method: 'POST', url: `/api/m/${module}/list?size=1000&fields=all`, headers: bearer(admin), payload: filter })).json();

  it('a batch of each type with a class each, and courses whose media are real files', async () => {
    const batches = await list('pschool-batch');
    expect(batches.content.map((b: { dxPc: string }) => b.dxPc).sort()).toEqual(['1', '2', '3', '4']);
    expect((await list('pschool-class')).totalElements).toBe(4);
    const nodes = (await list('course-node', { nodeType: '2' })).content as { id: number; kind: string }[];
    const video = nodes.find((n) => n.kind === 'video')!;
    const doc = nodes.find((n) => n.kind === 'doc')!;
    const v = await t.app.inject({ url: `/api/pschool/media/${video.id}`, headers: { ...bearer(dy), range: 'bytes=0-3' } });
    expect(v.statusCode).toBe(206);
    expect(v.rawPayload.toString('hex')).toBe('1a45dfa3');
    const d = await get(`/api/pschool/media/${doc.id}`, dy);
    expect(d.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(d.rawPayload.length).toBeLessThan(100_000);
  });

  it('a question bank of a few hundred questions of all five types', async () => {
    const questions = (await list('question')).content as { type: string }[];
    expect(questions.length).toBeGreaterThanOrEqual(250);
    expect(new Set(questions.map((q) => q.type))).toEqual(new Set(['0', '1', '2', '3', '4']));
  });

  it('exams with results, a sheet waiting for a marker, completed learners with certificates', async () => {
    const exams = (await list('exam')).content as { id: number; compose: string }[];
    expect(exams).toHaveLength(4);
    const queue = (await get('/api/pschool/marking')).json();
    expect(queue).toHaveLength(1);
    const withResults = await Promise.all(exams.map(async (e) => (await get(`/api/pschool/exams/${e.id}/statistics`)).json()));
    expect(withResults.filter((s) => s.sheets > 0)).toHaveLength(3);
    const completed = (await list('pschool-student', { completed: true })).content as { certificateNo: string }[];
    expect(completed.length).toBeGreaterThanOrEqual(3);
    expect(completed.every((s) => /^DX\d{4}\d\d{5}$/.test(s.certificateNo))).toBe(true);
    const survey = (await list('questionnaire')).content[0];
    expect((await get(`/api/pschool/surveys/${survey.id}/results`)).json()).toMatchObject({ total: 15 });
  });

  it('the demo 党员 studies in the probationary members’ class, with an exam to take', async () => {
    const home = (await get('/api/pschool/home', dy)).json();
    expect(home.classes).toEqual([expect.objectContaining({ dxPcLabel: '预备党员', status: '2', requiredHours: 6, examRequired: true, completed: false })]);
    expect(home.classes[0].hoursDone).toBeGreaterThanOrEqual(3);
    const exams = (await get('/api/pschool/exams', dy)).json();
    expect(exams).toEqual([expect.objectContaining({ state: 'open', canStart: true, attempts: 0 })]);
    expect((await get('/api/pschool/courses?nav=mine', dy)).json().length).toBeGreaterThanOrEqual(1);
  });
});
