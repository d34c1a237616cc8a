// engines: pglite — the read policy and the reference check are plain code around the queries
/**
 * Issue 38, the read policy in one place (runtime/read-policy.ts): each finding reproduced as the attacker
 * did it, through the HTTP API on the demo. 综合查询 through references (38.2), conditions on a masked
 * field (38.3), the mask and what is served beside it (38.4), references out of the writer's scope (38.5),
 * templates' placeholders through references (38.6) and the cadre profile (38.8).
 */
import { sql } from 'kysely';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDocx } from '../../src/server/domain/templates/docx-build.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createDemoTestApp, type TestApp } from '../support/test-app.js';

const docxText = (bytes: Buffer) => (new PizZip(bytes).file('word/document.xml')!.asText().match(/<w:t[^>]*>[^<]*<\/w:t>/g) ?? []).map((t) => t.replace(/<[^>]+>/g, '')).join('');

describe(`one read policy on every path on ${TEST_DB} (issue 38)`, () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let branch: number;
  /** Members of zbsj's branch, and one of another college (outside ejdw's committee too). */
  let own: { id: number; idCard: string; phone: string | null };
  let outsider: { id: number; name: string; idCard: string; phone: string };
  let meeting: { id: number; version: number };

  const call = async (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(tok[who]), ...(payload !== undefined && { payload: payload as object }) });
    return { status: res.statusCode, body: res.headers['content-type']?.toString().includes('json') ? res.json() : undefined, text: res.body, raw: res.rawPayload };
  };
  const reads = async () => Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM sensitive_reads`.execute(t.database.db)).rows[0].n);

  beforeAll(async () => {
    t = await createDemoTestApp({ DEMO_MEMBERS: '40' });
    tok.admin = await login(t.app);
    for (const u of ['zbsj', 'ejdw', 'dwzzb']) tok[u] = await login(t.app, u, DEMO_USER_PASSWORD);
    const db = t.database.db;
    branch = (await db.selectFrom('users').select('org_id').where('username', '=', 'zbsj').executeTakeFirstOrThrow()).org_id!;
    const committee = (await db.selectFrom('users').select('org_id').where('username', '=', 'ejdw').executeTakeFirstOrThrow()).org_id!;
    own = (await sql<typeof own>`SELECT id, id_card AS "idCard", phone FROM m_member WHERE org_id = ${branch} AND id_card IS NOT NULL ORDER BY id LIMIT 1`.execute(db)).rows[0];
    // Outside the committee's subtree: another college's member, with a number and a phone.
    outsider = (await sql<typeof outsider>`
      WITH RECURSIVE sub(id) AS (SELECT ${committee}::int UNION SELECT o.id FROM m_org o JOIN sub ON o.parent_id = sub.id)
      SELECT id, name, id_card AS "idCard", phone FROM m_member WHERE org_id NOT IN (SELECT id FROM sub) AND id_card IS NOT NULL ORDER BY id LIMIT 1`.execute(db)).rows[0];
    expect(own && outsider).toBeTruthy();
    // The demo has no phone on every member: give the outsider one to look for.
    if (!outsider.phone) {
      outsider.phone = '13912345678';
      await sql`UPDATE m_member SET phone = ${outsider.phone} WHERE id = ${outsider.id}`.execute(db);
    }
    // A meeting of zbsj's branch whose host an earlier version let be the outsider (stored directly).
    meeting = (await sql<typeof meeting>`SELECT id, version FROM m_meeting WHERE org_id = ${branch} ORDER BY id LIMIT 1`.execute(db)).rows[0];
    expect(meeting).toBeTruthy();
  }, 600_000);
  afterAll(() => t?.app.close());

  describe('38.2 综合查询 through references', () => {
    it('[38.2] a reference path to a member the caller may not edit answers the number masked, and nothing whole is logged', async () => {
      const before = await reads();
      const res = await call('ejdw', 'POST', '/api/query/run', { module: 'transfer-internal', columns: ['memberId.idCard', 'memberId.name'], size: 100 });
      expect(res.status, res.text).toBe(200);
      const values = (res.body.content as Record<string, unknown>[]).map((r) => r['memberId.idCard']).filter((v) => v);
      expect(values.length).toBeGreaterThan(0);
      for (const v of values) expect(v).toMatch(/^\d{6}\*{12}$/);
      expect(await reads()).toBe(before);
    });

    it('[38.2] a path through a host outside the caller\'s scope reads nothing of them; an organisation outside it only its public fields', async () => {
      await sql`UPDATE m_meeting SET host_id = ${outsider.id} WHERE id = ${meeting.id}`.execute(t.database.db);
      try {
        const res = await call('zbsj', 'POST', '/api/query/run', { module: 'meeting', columns: ['hostId.idCard', 'hostId.phone', 'hostId.name'], where: { field: 'id', op: 'eq', value: meeting.id } });
        expect(res.status, res.text).toBe(200);
        expect(res.body.content).toHaveLength(1);
        expect(res.body.content[0]).toMatchObject({ 'hostId.idCard': null, 'hostId.phone': null, 'hostId.name': null });
        expect(res.text).not.toContain(outsider.idCard);
        expect(res.text).not.toContain(outsider.phone);
        // Nor does a condition through the reference tell the outsider's phone.
        const probe = await call('zbsj', 'POST', '/api/query/run', { module: 'meeting', columns: ['topic'], where: { and: [{ field: 'id', op: 'eq', value: meeting.id }, { field: 'hostId.phone', op: 'eq', value: outsider.phone }] } });
        expect(probe.status, probe.text).toBe(200);
        expect(probe.body.totalElements).toBe(0);
      } finally {
        await sql`UPDATE m_meeting SET host_id = NULL WHERE id = ${meeting.id}`.execute(t.database.db);
      }
      // The receiving organisation of a transfer to another branch: its name (public), never its phone or secretary.
      await sql`UPDATE m_org SET contact_phone = '0731-88886666', secretary = '外院书记甲' WHERE id <> ${branch}`.execute(t.database.db);
      const org = await call('zbsj', 'POST', '/api/query/run', { module: 'transfer-internal', columns: ['toOrgId', 'toOrgId.name', 'toOrgId.contactPhone', 'toOrgId.secretary'], size: 100 });
      expect(org.status, org.text).toBe(200);
      const elsewhere = (org.body.content as Record<string, unknown>[]).filter((r) => r.toOrgId !== branch);
      expect(elsewhere.length).toBeGreaterThan(0);
      for (const r of elsewhere) expect(r).toMatchObject({ 'toOrgId.contactPhone': null, 'toOrgId.secretary': null, 'toOrgId.name': expect.any(String) });
      expect(org.text).not.toContain('0731-88886666');
      expect(org.text).not.toContain('外院书记甲');
    });

    it('[38.2] the editor of the member reads the number whole through the path, and that read is logged', async () => {
      await sql`UPDATE m_meeting SET host_id = ${own.id} WHERE id = ${meeting.id}`.execute(t.database.db);
      const before = await reads();
      const res = await call('zbsj', 'POST', '/api/query/run', { module: 'meeting', columns: ['hostId.idCard'], where: { field: 'id', op: 'eq', value: meeting.id } });
      expect(res.status, res.text).toBe(200);
      expect(res.body.content[0]['hostId.idCard']).toBe(own.idCard);
      const logged = await sql<{ module: string; record_id: number; username: string }>`SELECT module, record_id, username FROM sensitive_reads ORDER BY id DESC LIMIT 1`.execute(t.database.db);
      expect(await reads()).toBe(before + 1);
      expect(logged.rows[0]).toMatchObject({ module: 'member', record_id: own.id, username: 'zbsj' });
    });
  });

  describe('38.3 conditions on a masked field', () => {
    it('[38.3] like, gt, between and in on an identity number answer 400 in 综合查询; equality with the whole number works', async () => {
      for (const [op, value] of [['like', own.idCard.slice(0, 12)], ['gt', own.idCard.slice(0, 12)], ['between', [own.idCard.slice(0, 10), own.idCard.slice(0, 12)]], ['in', [own.idCard, '1']]] as const) {
        const res = await call('dwzzb', 'POST', '/api/query/run', { module: 'member', columns: ['name'], where: { field: 'idCard', op, value } });
        expect(res.status, `${op}: ${res.text}`).toBe(400);
        expect(res.body.message).toContain('只能按完整的号码精确查询');
      }
      const through = await call('dwzzb', 'POST', '/api/query/run', { module: 'transfer-internal', columns: ['id'], where: { field: 'memberId.idCard', op: 'like', value: '4303' } });
      expect(through.status).toBe(400);
      const eq = await call('dwzzb', 'POST', '/api/query/run', { module: 'member', columns: ['name'], where: { field: 'idCard', op: 'eq', value: own.idCard } });
      expect(eq.status, eq.text).toBe(200);
      expect(eq.body.totalElements).toBe(1);
    });

    it('[38.3] sorting by an identity number answers 400, in 综合查询 and the module list', async () => {
      const query = await call('dwzzb', 'POST', '/api/query/run', { module: 'member', columns: ['name'], sort: ['idCard,asc'] });
      expect(query.status).toBe(400);
      const list = await call('dwzzb', 'POST', '/api/m/member/list?sort=idCard,asc', {});
      expect(list.status).toBe(400);
      expect(list.body.message).toMatch(/排序/);
    });

    it('[38.3] snapshots and report conditions refuse a partial identity number too', async () => {
      const snap = (await sql<{ id: number }>`SELECT id FROM stat_snapshots ORDER BY id LIMIT 1`.execute(t.database.db).catch(() => ({ rows: [] as { id: number }[] }))).rows[0];
      if (snap) {
        const res = await call('dwzzb', 'POST', `/api/snapshots/${snap.id}/records`, { module: 'member', where: { field: 'idCard', op: 'like', value: own.idCard.slice(0, 8) } });
        expect(res.status, res.text).toBe(400);
      }
      const admin = await call('admin', 'POST', '/api/query/run', { module: 'member', columns: ['name'], where: { field: 'idCard', op: 'like', value: own.idCard.slice(0, 8) } });
      expect(admin.status).toBe(400);
    });
  });

  describe('38.4 the mask', () => {
    it('[38.4] a masked number keeps the region code only: neither the birth date nor the sequence is served beside the birth date', async () => {
      const res = await call('zbsj', 'POST', '/api/m/member/list?size=100&fields=all', {});
      expect(res.status, res.text).toBe(200);
      const rows = res.body.content as { idCard: string | null; birthDate?: string | null }[];
      expect(rows.filter((r) => r.idCard).length).toBeGreaterThan(3);
      for (const r of rows.filter((x) => x.idCard)) expect(r.idCard).toMatch(/^\d{6}\*{12}$/);
      // Served beside the birth date, the masked part keeps no digit of it nor of the sequence.
      const withBirth = rows.filter((r) => r.idCard && r.birthDate);
      for (const r of withBirth) expect(r.idCard!.slice(6)).not.toMatch(/\d/);
    });
  });

  describe('38.5 references name only records the writer may read', () => {
    it('[38.5] a meeting whose host or attendee is another college\'s member answers 400 naming the field', async () => {
      const current = await call('zbsj', 'GET', `/api/m/meeting/${meeting.id}`);
      expect(current.status).toBe(200);
      const host = await call('zbsj', 'PUT', '/api/m/meeting', { id: meeting.id, version: current.body.version, hostId: outsider.id });
      expect(host.status, host.text).toBe(400);
      expect(host.body.errors).toEqual([expect.objectContaining({ field: 'hostId', message: expect.stringContaining('主持人') })]);
      const attendees = await call('zbsj', 'POST', '/api/m/meeting', { orgId: branch, type: current.body.type, date: current.body.date, topic: '越权参会', attendeeIds: [own.id, outsider.id] });
      expect(attendees.status, attendees.text).toBe(400);
      expect(attendees.body.errors[0]).toMatchObject({ field: 'attendeeIds', message: expect.stringContaining('出席人员') });
      // The branch's own member is accepted.
      const fine = await call('zbsj', 'PUT', '/api/m/meeting', { id: meeting.id, version: current.body.version, hostId: own.id });
      expect(fine.status, fine.text).toBe(200);
    });

    it('[38.5] a talk with another college\'s talker and a rectification with such an owner answer 400', async () => {
      const talk = await call('zbsj', 'POST', '/api/m/member-talk', { orgId: branch, memberId: own.id, talkerId: outsider.id, date: '2026-01-05', topic: '谈心' });
      expect(talk.status, talk.text).toBe(400);
      expect(JSON.stringify(talk.body.errors)).toContain('talkerId');
      const rect = await call('zbsj', 'POST', '/api/m/meeting-rectification', { meetingId: meeting.id, problem: '问题', ownerId: outsider.id });
      expect(rect.status, rect.text).toBe(400);
      expect(rect.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'ownerId', message: expect.stringContaining('责任人') })]));
    });
  });

  describe('38.6 and 38.8 templates and the cadre profile', () => {
    it('[38.6] a template\'s placeholders through a reference read the host as the policy says: nothing of another college\'s member', async () => {
      const fd = new FormData();
      fd.append('moduleName', 'doc-template');
      fd.append('file', new Blob([buildDocx([{ text: '[{hostId.name}|{hostId.idCard}|{hostId.phone}]' }]) as BlobPart]), 'host.docx');
      const up = await t.app.inject({ method: 'POST', url: '/api/file/upload', headers: bearer(tok.dwzzb), payload: fd });
      expect(up.statusCode, up.body).toBe(200);
      const saved = await call('dwzzb', 'POST', '/api/m/doc-template', { name: '主持人信息', category: '证明', kind: 'docx', sourceModule: 'meeting', file: `${up.json().url}&name=host.docx` });
      expect(saved.status, saved.text).toBe(201);
      await sql`UPDATE m_meeting SET host_id = ${outsider.id} WHERE id = ${meeting.id}`.execute(t.database.db);
      try {
        const res = await call('zbsj', 'GET', `/api/templates/${saved.body.id}/render?record=${meeting.id}&format=docx`);
        expect(res.status, res.text.slice(0, 200)).toBe(200);
        const text = docxText(res.raw);
        expect(text).not.toContain(outsider.idCard);
        expect(text).not.toContain(outsider.phone);
        expect(text).not.toContain(outsider.name);
      } finally {
        await sql`UPDATE m_meeting SET host_id = ${own.id} WHERE id = ${meeting.id}`.execute(t.database.db);
      }
      // The branch's own member, whom the secretary may edit: whole, and logged.
      const before = await reads();
      const mine = docxText((await call('zbsj', 'GET', `/api/templates/${saved.body.id}/render?record=${meeting.id}&format=docx`)).raw);
      expect(mine).toContain(own.idCard);
      expect(await reads()).toBe(before + 1);
    });

    it('[38.8] the cadre profile answers the number masked to a reader who may not edit the cadre, as its detail does; unlogged', async () => {
      await userWithRole(t.app, tok.admin, { username: 'cadreview', permissions: ['cadre-info:list'], password: 'Viewer#2026a' });
      const viewer = await login(t.app, 'cadreview', 'Viewer#2026a');
      const cadre = (await sql<{ id: number; idCard: string }>`SELECT id, id_card AS "idCard" FROM m_cadre WHERE id_card IS NOT NULL ORDER BY id LIMIT 1`.execute(t.database.db)).rows[0];
      expect(cadre).toBeTruthy();
      const before = await reads();
      const res = await t.app.inject({ url: `/api/cadre/${cadre.id}/profile?showType=full`, headers: bearer(viewer) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain(cadre.idCard);
      expect(res.json().cadre.idCard).toMatch(/^\d{6}\*{12}$/);
      expect(await reads()).toBe(before);
    });
  });
});
