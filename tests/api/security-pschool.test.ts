// engines: both — progress and answers are guarded row by row (compare-and-set, FOR SHARE / FOR UPDATE)
/**
 * Issue 25, party school findings through the real HTTP API:
 * - 25.1 faked study hours: positions 2.9, 5.8, 8.7 … sent back to back completed a 20-second video.
 * - 25.8 anonymity switched off mid-collection: answers given as anonymous were exported with names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login } from '../support/auth.js';
import { ageProgress, createRecord, learners, schoolFixture, SETUP_TIMEOUT, type SchoolFixture } from '../support/pschool.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

describe(`party-school security (issue 25.1, 25.8) on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let f: SchoolFixture;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await login(t.app);
    f = await schoolFixture(t.app, admin, '安全');
  }, SETUP_TIMEOUT);
  afterAll(() => t.app.close());

  const progress = (token: string, position: number) => t.app.inject({ method: 'POST', url: '/api/pschool/progress', headers: bearer(token), payload: { nodeId: f.videoNodeId, position } });
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: unknown) => t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined && { payload: payload as object }) });

  it('[25.1] positions 2.9, 5.8, 8.7 … sent back to back do not complete a 20-second video', async () => {
    const [cheat] = await learners(t.app, 1, 'cheat');
    const answers = [];
    for (let i = 1; i <= 7; i++) answers.push(await progress(cheat.token, Math.min(20, 2.9 * i)));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 409, 409, 409, 409, 409, 409]);
    expect(answers.at(-1)!.json()).toMatchObject({ status: 409, furthest: 2.9, message: '不能跳到尚未学习的位置，请从上次学到的地方继续' });
    const node = (await call('GET', `/api/pschool/nodes/${f.videoNodeId}`, cheat.token)).json();
    expect(node).toMatchObject({ furthest: 2.9, completed: false });
  });

  it('[25.1] honest reports over (server-clock-controlled) time complete it', async () => {
    const [honest] = await learners(t.app, 1, 'honest');
    expect((await progress(honest.token, 0)).statusCode).toBe(200);
    for (const position of [5, 10, 15, 20]) {
      await ageProgress(t.app, honest.id, f.videoNodeId, 5); // five seconds of wall clock since the last report
      const res = await progress(honest.token, position);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await call('GET', `/api/pschool/nodes/${f.videoNodeId}`, honest.token)).json()).toMatchObject({ furthest: 20, completed: true });
  });

  describe('questionnaire anonymity (25.8)', () => {
    async function survey(anonymous: boolean) {
      const q = await createRecord(t.app, admin, 'questionnaire', { title: `匿名${anonymous ? '是' : '否'}${Math.random()}`, anonymous, published: true });
      const item = await createRecord(t.app, admin, 'questionnaire-item', { questionnaireId: q.id, sort: 1, type: '1', title: '评价', optionA: '满意', optionB: '一般' });
      return { q, item };
    }
    const answer = (token: string, id: number, itemId: number, anonymous?: boolean) =>
      call('POST', `/api/pschool/surveys/${id}/answers`, token, { answers: { [itemId]: 'A' }, ...(anonymous !== undefined && { anonymous }) });
    const stored = (id: number) => t.database.db.selectFrom('pschool_survey_responses' as never).select(['user_id'] as never[]).where('questionnaire_id' as never, '=', id as never).execute() as Promise<{ user_id: number | null }[]>;

    it('[25.8] once answers exist the anonymous flag cannot change: refused in Chinese, the answers stay nameless', async () => {
      const { q, item } = await survey(true);
      const [a, b] = await learners(t.app, 2, 'anon');
      expect((await answer(a.token, q.id, item.id, true)).statusCode).toBe(201);
      const flip = await call('PUT', '/api/m/questionnaire', admin, { id: q.id, version: q.version, anonymous: false });
      expect(flip.statusCode, flip.body).toBe(400);
      expect(flip.json()).toMatchObject({ status: 400, message: '问卷已有答卷，不能再更改是否匿名', errors: [{ field: 'anonymous' }] });
      expect((await call('GET', `/api/m/questionnaire/${q.id}`, admin)).json()).toMatchObject({ anonymous: true });
      // Other fields still change; the flag restated unchanged is no change.
      const title = await call('PUT', '/api/m/questionnaire', admin, { id: q.id, version: q.version, title: '改过的标题', anonymous: true });
      expect(title.statusCode, title.body).toBe(200);
      expect((await answer(b.token, q.id, item.id, true)).statusCode).toBe(201);
      expect((await stored(q.id)).map((r) => r.user_id)).toEqual([null, null]);
    });

    it('[25.8] before any answer the flag may change; an answer follows the flag the respondent was shown', async () => {
      const { q, item } = await survey(true);
      const [a, b] = await learners(t.app, 2, 'shown');
      // The respondent opened it as anonymous; meanwhile the administrator makes it named.
      expect((await call('GET', `/api/pschool/surveys/${q.id}`, a.token)).json()).toMatchObject({ anonymous: true });
      const flip = await call('PUT', '/api/m/questionnaire', admin, { id: q.id, version: q.version, anonymous: false });
      expect(flip.statusCode, flip.body).toBe(200);
      const late = await answer(a.token, q.id, item.id, true);
      expect(late.statusCode).toBe(409);
      expect(late.json()).toMatchObject({ status: 409, message: '问卷的匿名设置已更改，请刷新页面后重新填写' });
      expect(await stored(q.id)).toEqual([]);
      // Reloaded, the respondent sees the named questionnaire and answers under it.
      expect((await call('GET', `/api/pschool/surveys/${q.id}`, a.token)).json()).toMatchObject({ anonymous: false });
      expect((await answer(a.token, q.id, item.id, false)).statusCode).toBe(201);
      // [38.15] a client that does not say what it was shown is refused: the flag decides whose name is stored.
      expect((await answer(b.token, q.id, item.id)).statusCode).toBe(409);
      expect((await answer(b.token, q.id, item.id, false)).statusCode).toBe(201);
      expect((await stored(q.id)).map((r) => r.user_id).sort()).toEqual([a.id, b.id].sort());
    });
  });
});
