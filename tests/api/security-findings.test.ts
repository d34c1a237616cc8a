// engines: pglite — issue 38's separate findings are request handling and plain SQL; the PostgreSQL default of DEMO_DATA is config
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { simulatorKeyPair, simulatorSign } from '../../scripts/ukey-simulator';
import { loadConfig } from '../../src/server/config.js';
import { offeredProviders, simulatorProvider } from '../../src/server/domain/dues/online.js';
import { BRANCH_TYPES } from '../../src/server/runtime/workflow/levels.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { login, userWithRole } from '../support/auth.js';
import { caller, type Call } from '../support/call.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Finding#2026a';

describe(`issue 38, the separate findings, on ${TEST_DB}`, () => {
  let t: TestApp;
  let call: Call;
  const tok: Record<string, string> = {};
  const userId = async (username: string) => (await t.database.db.selectFrom('users').select(['id', 'org_id']).where('username', '=', username).executeTakeFirstOrThrow());
  const columnsOf = async (table: string) =>
    (await sql<{ c: string }>`SELECT column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY 1`.execute(t.database.db)).rows.map((r) => r.c);

  beforeAll(async () => {
    t = await createDemoTestApp({ DEMO_MEMBERS: '40' });
    tok.admin = await login(t.app);
    for (const u of ['dwzzb', 'zbsj', 'ejdw', 'dy']) tok[u] = await login(t.app, u, DEMO_USER_PASSWORD);
    call = caller(t.app, () => tok.admin);
  }, 240_000);
  afterAll(async () => {
    await t?.app.close();
    await t?.database.close();
  });

  describe('[38.1] a designed form is a schema-injection surface', () => {
    const fields = { properties: { note: { type: 'string', title: '说明', maxLength: 50 } }, required: ['note'] };

    it('[38.1] x-table, hooks, scope and the other file-only keywords answer 400 naming the key; the named table is not touched', async () => {
      const before = await columnsOf('msg_push_history');
      const configBefore = await columnsOf('sys_config');
      for (const [key, value] of [['x-table', 'msg_push_history'], ['x-table', 'sys_config'], ['x-hooks', { beforeWrite: ['forms.guardWrite'] }], ['x-scope', 'note'], ['x-permissions', { list: 'stat-fill-in:list' }], ['x-owner', { field: 'note', all: 'admin' }], ['x-workflow', {}], ['$comment', 'x']] as const) {
        const res = await call('POST', '/api/forms', { title: `注入${key}`, schema: { ...fields, [key]: value } }, tok.dwzzb);
        expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(400);
        expect(res.body.message).toContain(`“${key}”`);
        expect(res.body.errors).toContainEqual(expect.objectContaining({ field: `schema.${key}` }));
      }
      // A field may refer to an organisation or a person only (the designer's kinds).
      const ref = await call('POST', '/api/forms', { title: '引用', schema: { properties: { who: { type: 'integer', title: '用户', 'x-ref': 'cadre' } } } }, tok.dwzzb);
      expect(ref.status).toBe(400);
      expect(ref.body.message).toContain('properties.who.x-ref');
      expect(await columnsOf('msg_push_history')).toEqual(before);
      expect(await columnsOf('sys_config')).toEqual(configBefore);
      // What the designer says is still accepted, in a table of its own.
      const ok = await call('POST', '/api/forms', { title: '正常表单', schema: fields }, tok.dwzzb);
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      expect(await columnsOf(`m_${(ok.body.id as string).replaceAll('-', '_')}`)).toContain('note');
    });

    it('[38.1] a stored module never takes over a table that exists for something else', async () => {
      await sql`CREATE TABLE m_form_squat (id integer PRIMARY KEY, secret text)`.execute(t.database.db);
      const res = await call('POST', '/api/forms', { title: '占用', schema: { ...fields, 'x-id': 'form-squat' } }, tok.dwzzb);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(await columnsOf('m_form_squat')).toEqual(['id', 'secret']);
    });
  });

  describe('[38.7] a collector limited in scope', () => {
    let collector: string;
    let inScope: number;
    let outside: number;
    beforeAll(async () => {
      const ejdw = await userId('ejdw');
      const subtree = new Set(await t.app.services.orgTree.subtreeIds([ejdw.org_id!]));
      const branches = (await sql<{ id: number }>`SELECT id FROM m_org WHERE type IN (${sql.join([...BRANCH_TYPES])}) ORDER BY id`.execute(t.database.db)).rows.map((r) => r.id);
      inScope = branches.find((b) => subtree.has(b))!;
      outside = branches.find((b) => !subtree.has(b))!;
      expect(inScope && outside).toBeTruthy();
      await userWithRole(t.app, tok.admin, { username: 'collector', permissions: ['stat-fill-in:list', 'stat-fill-in:manage', 'stat-fill-in:fill'], dataScope: 'own', orgId: ejdw.org_id, password: PASS });
      collector = await login(t.app, 'collector', PASS);
    });
    const schema = { properties: { n: { type: 'integer', title: '人数' } } };

    it('[38.7] publishes only to organisations inside its scope', async () => {
      const own = await call('POST', '/api/forms', { title: '学院自己的表单', schema }, collector);
      expect(own.status, JSON.stringify(own.body)).toBe(201);
      const far = await call('POST', `/api/forms/${own.body.id}/publish`, { shareType: 1, orgIds: [inScope, outside], deadline: '2099-12-31' }, collector);
      expect(far.status, JSON.stringify(far.body)).toBe(403);
      expect(far.body.message).toContain(String(outside));
      // Every party branch means every branch of its scope.
      const all = await call('POST', `/api/forms/${own.body.id}/publish`, { shareType: 3, deadline: '2099-12-31' }, collector);
      expect(all.status, JSON.stringify(all.body)).toBe(200);
      const targets = (await sql<{ org_id: number }>`SELECT f.org_id FROM form_fills f JOIN forms ON forms.id = f.form_id WHERE forms.module = ${own.body.id}`.execute(t.database.db)).rows.map((r) => r.org_id);
      expect(targets).toContain(inScope);
      expect(targets).not.toContain(outside);
      // Its own form it steers.
      expect((await call('POST', `/api/forms/${own.body.id}/stop`, {}, collector)).status).toBe(200);
    });

    it('[38.7] the forms of 党委组织部: no schema change, publish, stop or remind', async () => {
      const theirs = await call('POST', '/api/forms', { title: '组织部的表单', schema }, tok.dwzzb);
      expect(theirs.status).toBe(201);
      expect((await call('PUT', `/api/forms/${theirs.body.id}/schema`, { schema: { properties: { x: { type: 'string', title: '改' } } } }, collector)).status).toBe(403);
      expect((await call('POST', `/api/forms/${theirs.body.id}/publish`, { shareType: 1, orgIds: [inScope], deadline: '2099-12-31' }, collector)).status).toBe(403);
      expect((await call('POST', `/api/forms/${theirs.body.id}/publish`, { shareType: 3, deadline: '2099-12-31' }, tok.dwzzb)).status).toBe(200);
      expect((await call('POST', `/api/forms/${theirs.body.id}/remind`, {}, collector)).status).toBe(403);
      expect((await call('POST', `/api/forms/${theirs.body.id}/stop`, {}, collector)).status).toBe(403);
      expect((await call('GET', `/api/forms/${theirs.body.id}`, undefined, tok.dwzzb)).body.shareState).toBe(1);
    });

    it('[38.17] a draft keeps only the form\'s fields, and no more than 256 KB', async () => {
      const f = await call('POST', '/api/forms', { title: '暂存', schema }, tok.dwzzb);
      expect((await call('POST', `/api/forms/${f.body.id}/publish`, { shareType: 1, orgIds: [inScope], deadline: '2099-12-31' }, tok.dwzzb)).status).toBe(200);
      const stash = await call('POST', `/api/forms/${f.body.id}/fill`, { orgId: inScope, values: { n: 3, junk: 'x'.repeat(100), more: { a: 1 } } }, collector);
      expect(stash.status, JSON.stringify(stash.body)).toBe(200);
      const draft = (await sql<{ draft: Record<string, unknown> }>`SELECT f.draft FROM form_fills f JOIN forms ON forms.id = f.form_id WHERE forms.module = ${f.body.id} AND f.org_id = ${inScope}`.execute(t.database.db)).rows[0].draft;
      expect(typeof draft === 'string' ? JSON.parse(draft) : draft).toEqual({ n: 3 });
      const big = await call('POST', `/api/forms/${f.body.id}/fill`, { orgId: inScope, values: { n: 'x'.repeat(300 * 1024) } }, collector);
      expect(big.status).toBe(400);
      expect(big.body.message).toContain('暂存内容过大');
    });
  });

  describe('[38.9] the cadre uKey on the server', () => {
    const DEVICE = 'UK-FINDING-1';
    let ejdw: { id: number };
    let cadreId: number;
    beforeAll(async () => {
      ejdw = await userId('ejdw');
      cadreId = (await sql<{ id: number }>`SELECT id FROM m_cadre ORDER BY id LIMIT 1`.execute(t.database.db)).rows[0].id;
      await t.database.db.updateTable('sys_config').set({ config_value: 'ejdw' }).where('config_key', '=', 'cadreUkeyRoles').execute();
    });
    afterAll(() => t.database.db.updateTable('sys_config').set({ config_value: '' }).where('config_key', '=', 'cadreUkeyRoles').execute());

    it('[38.9] without the key the cadre API refuses (403, Chinese); after a challenge the key signed, it answers', async () => {
      const routes = [['POST', '/api/m/cadre/list'], ['GET', `/api/m/cadre/${cadreId}`], ['GET', `/api/cadre/${cadreId}/profile`], ['GET', '/api/common/gbjbxx'], ['POST', '/api/m/cadre-post/list']] as const;
      for (const [method, url] of routes) {
        const res = await call(method, url, method === 'POST' ? {} : undefined, tok.ejdw);
        expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(403);
        expect(res.body.message).toMatch(/uKey/);
      }
      expect((await call('GET', '/api/cadre/ukey', undefined, tok.ejdw)).body).toEqual({ required: true, verified: false });
      // No key registered: the challenge cannot be answered.
      const first = await call('POST', '/api/cadre/ukey/challenge', {}, tok.ejdw);
      expect(first.body).toMatchObject({ required: true, verified: false });
      const unregistered = await call('POST', '/api/cadre/ukey/verify', { challenge: first.body.challenge, deviceId: DEVICE, signature: simulatorSign(DEVICE, first.body.challenge) }, tok.ejdw);
      expect(unregistered.status).toBe(403);

      // The administrator registers the key's public key (the simulator's); the account now signs with a uKey.
      const reg = await call('PUT', `/api/cadre/ukey/keys/${ejdw.id}`, { deviceId: DEVICE, publicKey: simulatorKeyPair(DEVICE).publicKeyPem });
      expect(reg.status, JSON.stringify(reg.body)).toBe(200);
      expect((await call('PUT', `/api/cadre/ukey/keys/${ejdw.id}`, { deviceId: DEVICE, publicKey: 'not a key' })).status).toBe(400);
      const { challenge } = (await call('POST', '/api/cadre/ukey/challenge', {}, tok.ejdw)).body;
      // Another key's signature, a signature of another challenge, or another session's challenge prove nothing.
      expect((await call('POST', '/api/cadre/ukey/verify', { challenge, deviceId: DEVICE, signature: simulatorSign('UK-OTHER', challenge) }, tok.ejdw)).status).toBe(403);
      expect((await call('POST', '/api/cadre/ukey/verify', { challenge, deviceId: DEVICE, signature: simulatorSign(DEVICE, `${challenge}x`) }, tok.ejdw)).status).toBe(403);
      const otherSession = await login(t.app, 'ejdw', DEMO_USER_PASSWORD);
      expect((await call('POST', '/api/cadre/ukey/verify', { challenge, deviceId: DEVICE, signature: simulatorSign(DEVICE, challenge) }, otherSession)).status).toBe(400);
      expect((await call('POST', '/api/m/cadre/list', {}, tok.ejdw)).status).toBe(403);

      const proved = await call('POST', '/api/cadre/ukey/verify', { challenge, deviceId: DEVICE, signature: simulatorSign(DEVICE, challenge) }, tok.ejdw);
      expect(proved.status, JSON.stringify(proved.body)).toBe(200);
      expect((await call('GET', '/api/cadre/ukey', undefined, tok.ejdw)).body).toEqual({ required: true, verified: true });
      // Now the routes answer as without a uKey rule (a cadre outside the unit scope is 404, as ever).
      for (const [method, url] of routes) expect((await call(method, url, method === 'POST' ? {} : undefined, tok.ejdw)).status, url).not.toBe(403);
      const listed = await call('POST', '/api/m/cadre/list', {}, tok.ejdw);
      expect(listed.status).toBe(200);
      const seen = listed.body.content[0]?.id as number | undefined;
      if (seen) expect((await call('GET', `/api/cadre/${seen}/profile`, undefined, tok.ejdw)).status).toBe(200);
      // The session is marked, not the account: the other session still has to prove the key.
      expect((await call('POST', '/api/m/cadre/list', {}, otherSession)).status).toBe(403);
    });
  });

  it('[38.11] sort names every object inherits answer 400, not 500 (module lists, 综合查询, sysConfig)', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const list = await call('POST', `/api/m/member/list?sort=${name},asc`, {});
      expect(list.status, `${name}: ${JSON.stringify(list.body)}`).toBe(400);
      expect((await call('GET', `/api/sysConfig?sort=${name}`)).status).toBe(400);
      const query = await call('POST', '/api/query/run', { module: 'member', columns: ['name'], sort: [`${name},asc`] });
      expect(query.status, JSON.stringify(query.body)).toBe(400);
    }
  });

  it('[38.12] a check-in token nested 20,000 arrays deep answers 400; so does a non-string token', async () => {
    const deep = `{"token":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const res = await t.app.inject({ method: 'POST', url: '/api/meetings/checkin', headers: { authorization: `Bearer ${tok.dy}`, 'content-type': 'application/json' }, payload: deep });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain('嵌套层数过多');
    const shallow = await call('POST', '/api/meetings/checkin', { token: [['1-20990101-aaaaaaaaaaaaaaaaaaaaaa']] }, tok.dy);
    expect(shallow.status).toBe(400);
    expect(shallow.body.message).toContain('签到码无效');
  });

  it('[38.14] 提醒缴费 reminds each member once a day; the skipped ones are named', async () => {
    const dyMember = (await call('GET', '/api/dues/my', undefined, tok.dy)).body.member.id as number;
    const first = await call('POST', '/api/dues/branch/remind', { memberIds: [dyMember] }, tok.zbsj);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.sent).toBe(1);
    const inbox = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM msg_push_history h JOIN users u ON u.id = h.user_id WHERE u.username = 'dy' AND h.title = '党费缴纳提醒'`.execute(t.database.db)).rows[0].n;
    const received = await inbox();
    const [again, atOnce] = await Promise.all([1, 2].map(() => call('POST', '/api/dues/branch/remind', { memberIds: [dyMember] }, tok.zbsj)));
    for (const answer of [again, atOnce]) {
      expect(answer.body.sent).toBe(0);
      expect(answer.body.skipped).toEqual([expect.objectContaining({ memberId: dyMember, reason: '今天已提醒过（每人每天最多提醒一次）' })]);
    }
    expect(await inbox()).toBe(received);
  });

  it('[38.15] a questionnaire answer that does not say the anonymity it was shown is refused (409)', async () => {
    const q = await call('POST', '/api/m/questionnaire', { title: '匿名与否', anonymous: true, published: true });
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    const item = await call('POST', '/api/m/questionnaire-item', { questionnaireId: q.body.id, sort: 1, type: '1', title: '评价', optionA: '满意', optionB: '一般' });
    expect(item.status).toBe(201);
    expect((await call('PUT', '/api/m/questionnaire', { id: q.body.id, version: q.body.version, anonymous: false })).status).toBe(200);
    const unsaid = await call('POST', `/api/pschool/surveys/${q.body.id}/answers`, { answers: { [item.body.id]: 'A' } }, tok.dy);
    expect(unsaid.status, JSON.stringify(unsaid.body)).toBe(409);
    const shownAnonymous = await call('POST', `/api/pschool/surveys/${q.body.id}/answers`, { answers: { [item.body.id]: 'A' }, anonymous: true }, tok.dy);
    expect(shownAnonymous.status).toBe(409);
    const stored = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pschool_survey_responses WHERE questionnaire_id = ${q.body.id}`.execute(t.database.db);
    expect(stored.rows[0].n).toBe(0);
  });

  it('[38.16] on PostgreSQL demo data and the payment simulator only with DEMO_DATA=true; a demo says it is one', async () => {
    const url = 'postgres://u:p@localhost:5432/db';
    expect(loadConfig({ DATABASE_URL: url }).demoData).toBe(false);
    expect(loadConfig({ DATABASE_URL: url, DEMO_DATA: 'true' }).demoData).toBe(true);
    expect(loadConfig({}).demoData).toBe(true);
    expect(offeredProviders(false)).not.toContain(simulatorProvider);
    expect(offeredProviders(true)).toContain(simulatorProvider);
    const anonymous = (await t.app.inject('/api/sysConfig/listAll')).json() as { configKey: string; configValue: string }[];
    expect(anonymous).toContainEqual({ configKey: 'demoData', configValue: 'true' });
  });

  it('[38.17] a bulk template job over out-of-scope ids skips them, names them in its result and writes no error-level log', async () => {
    const template = (await sql<{ id: number }>`SELECT id FROM m_doc_template WHERE name = '党员身份证明' LIMIT 1`.execute(t.database.db)).rows[0].id;
    const zbsj = await userId('zbsj');
    const own = (await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id = ${zbsj.org_id} ORDER BY id LIMIT 1`.execute(t.database.db)).rows[0].id;
    const outsiders = (await sql<{ id: number }>`SELECT id FROM m_member WHERE org_id <> ${zbsj.org_id} ORDER BY id LIMIT 3`.execute(t.database.db)).rows.map((r) => r.id);
    const log = (t.app.runtime.jobs as unknown as { log: { error: (...a: unknown[]) => void } }).log;
    const errors = vi.spyOn(log, 'error');
    try {
      const start = await call('POST', `/api/templates/${template}/bulk`, { ids: [own, ...outsiders], format: 'docx' }, tok.zbsj);
      expect(start.status, JSON.stringify(start.body)).toBe(202);
      const none = await call('POST', `/api/templates/${template}/bulk`, { ids: outsiders, format: 'docx' }, tok.zbsj);
      await t.app.runtime.jobs.drain();
      const job = (await call('GET', `/api/jobs/${start.body.jobId}`, undefined, tok.zbsj)).body;
      expect(job).toMatchObject({ state: 2, result: { count: 1, skipped: outsiders } });
      const failed = (await call('GET', `/api/jobs/${none.body.jobId}`, undefined, tok.zbsj)).body;
      expect(failed).toMatchObject({ state: 3, result: { count: 0, skipped: outsiders } });
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });
});
