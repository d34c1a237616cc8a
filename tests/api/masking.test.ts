// engines: pglite — masking is plain code around the list, the detail and the export
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskStatus } from '../../src/shared/constants.js';
import { seedUniversity } from '../../src/server/seed/university/seed.js';
import { generateUniversity } from '../../src/server/seed/university/university.js';
import { maskIdCard } from '../../src/server/runtime/sensitive.js';
import { idCardCheckChar } from '../../src/shared/validators.js';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const MASKED = /^\d{6}\*{12}$/;
type Member = { id: number; name: string; idCard: string };

describe(`identity-card numbers masked in lists and exports on ${TEST_DB} (issue 33.5)`, () => {
  let t: TestApp;
  let admin: string;
  let viewer: string;
  const stored = new Map<number, string>();
  beforeAll(async () => {
    t = await createTestApp();
    await seedUniversity(t.database, generateUniversity({ members: 30, seed: 5 }), 'hntb');
    admin = await login(t.app);
    await userWithRole(t.app, admin, { username: 'maskview', permissions: ['member:list', 'member:view', 'member:export'], password: 'Viewer#2026a' });
    viewer = await login(t.app, 'maskview', 'Viewer#2026a');
    const rows = await (t.database.db as never as import('kysely').Kysely<Record<string, Member & { id_card: string }>>).selectFrom('m_member').select(['id', 'id_card']).execute();
    for (const r of rows) if (r.id_card) stored.set(r.id, r.id_card);
    expect(stored.size).toBeGreaterThan(10);
  });
  afterAll(async () => {
    await t?.app.close();
    await t?.database.close();
  });

  const list = async (token: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/m/member/list?size=100', headers: bearer(token), payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().content as Member[];
  };
  const reads = () => t.database.db.selectFrom('sensitive_reads').selectAll().orderBy('id').execute();

  it('[33.5] the list API answers every number masked (the first 6 kept: issue 38.4), for an administrator too', async () => {
    for (const token of [admin, viewer]) {
      const rows = (await list(token)).filter((r) => stored.has(r.id));
      expect(rows.length).toBeGreaterThan(10);
      for (const r of rows) {
        expect(r.idCard).toMatch(MASKED);
        expect(r.idCard).toBe(maskIdCard(stored.get(r.id)!));
      }
    }
    expect(await reads()).toEqual([]);
  });

  it('[33.5] the detail answers the whole number only to a role that may edit, and that read is logged', async () => {
    const [first] = (await list(admin)).filter((r) => stored.has(r.id));
    const asViewer = await t.app.inject({ url: `/api/m/member/${first.id}`, headers: bearer(viewer) });
    expect(asViewer.json().idCard).toBe(maskIdCard(stored.get(first.id)!));
    expect(await reads()).toEqual([]);

    const asAdmin = await t.app.inject({ url: `/api/m/member/${first.id}`, headers: bearer(admin), remoteAddress: '10.1.2.3' });
    expect(asAdmin.json().idCard).toBe(stored.get(first.id));
    expect(await reads()).toEqual([expect.objectContaining({ module: 'member', record_id: first.id, fields: 'idCard', username: 'admin', address: '10.1.2.3' })]);
  });

  it('[33.5] the .xlsx export carries masked numbers, and importing it back keeps the stored ones', async () => {
    const res = await t.app.inject({ url: '/api/m/member/export', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const sheet = book.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const idCol = header.indexOf('身份证号');
    const recCol = header.indexOf('记录ID');
    expect(idCol).toBeGreaterThan(0);
    let checked = 0;
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      const id = Number(row.getCell(recCol).value);
      if (!stored.has(id)) return;
      expect(String(row.getCell(idCol).value)).toBe(maskIdCard(stored.get(id)!));
      checked++;
    });
    expect(checked).toBe(stored.size);

    // The same file imported back: no error on the masked column, and no number replaced by its mask.
    const fd = new FormData();
    fd.append('mode', 'all');
    fd.append('file', new Blob([new Uint8Array(res.rawPayload)]), '党员.xlsx');
    const started = await t.app.inject({ method: 'POST', url: '/api/m/member/import', headers: bearer(admin), payload: fd });
    expect(started.statusCode, started.body).toBe(202);
    let job: { status: number; errors: unknown[] } | undefined;
    for (let i = 0; i < 400 && !(job && (job.status === TaskStatus.SUCCESS || job.status === TaskStatus.ERROR)); i++) {
      await new Promise((r) => setTimeout(r, 50));
      job = (await t.app.inject({ url: `/api/m/member/import/${started.json().jobId}`, headers: bearer(admin) })).json();
    }
    expect(job, JSON.stringify(job?.errors.slice(0, 3))).toMatchObject({ status: TaskStatus.SUCCESS, errors: [] });
    const after = await (t.database.db as never as import('kysely').Kysely<Record<string, { id: number; id_card: string }>>).selectFrom('m_member').select(['id', 'id_card']).execute();
    for (const r of after) if (stored.has(r.id)) expect(r.id_card).toBe(stored.get(r.id));
  });
  it('[33.5] the member roster (花名册) export carries masked numbers too', async () => {
    const res = await t.app.inject({ url: '/api/member/roster/export?columns=name,idCard', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const sheet = book.worksheets[0];
    const masked = new Set([...stored.values()].map(maskIdCard));
    let checked = 0;
    sheet.eachRow((row, n) => {
      if (n <= 2) return;
      const v = String(row.getCell(3).value ?? '');
      if (!v) return;
      expect(masked.has(v), v).toBe(true);
      checked++;
    });
    expect(checked).toBeGreaterThan(10);
  });

  it('[33.5] the trail and the deleted records show numbers masked; restoring a change puts back the whole number', async () => {
    const [m] = (await list(admin)).filter((r) => stored.has(r.id));
    const original = stored.get(m.id)!;
    const detail = (await t.app.inject({ url: `/api/m/member/${m.id}`, headers: bearer(admin) })).json();
    const first17 = `${original.slice(0, 6)}19800101${original.slice(14, 17)}`;
    const changed = first17 + idCardCheckChar(first17);
    const put = await t.app.inject({ method: 'PUT', url: '/api/m/member', headers: bearer(admin), payload: { ...detail, idCard: changed } });
    expect(put.statusCode, put.body).toBe(200);
    const trail = (await t.app.inject({ url: `/api/m/member/${m.id}/trail`, headers: bearer(admin) })).json();
    const change = trail.content[0].changes.find((c: { field: string }) => c.field === 'idCard');
    expect(change).toMatchObject({ before: maskIdCard(original), after: maskIdCard(changed) });
    expect(trail.content[0].changes.map((c: { field: string }) => c.field)).toContain('idCard');
    expect(JSON.stringify(trail)).not.toContain(original);

    const version = (await t.app.inject({ url: `/api/m/member/${m.id}`, headers: bearer(admin) })).json().version;
    const restored = await t.app.inject({ method: 'POST', url: `/api/m/member/${m.id}/restore/${trail.content[0].id}?version=${version}`, headers: bearer(admin) });
    expect(restored.statusCode, restored.body).toBe(200);
    const row = await (t.database.db as never as import('kysely').Kysely<Record<string, { id: number; id_card: string }>>).selectFrom('m_member').select('id_card').where('id', '=', m.id).executeTakeFirstOrThrow();
    expect(row.id_card).toBe(original);
  });

  it('[33.5] the deleted records list shows a deleted member\'s number masked', async () => {
    const [, m] = (await list(admin)).filter((r) => stored.has(r.id));
    const del = await t.app.inject({ method: 'DELETE', url: '/api/m/member', headers: bearer(admin), payload: [m.id] });
    expect(del.statusCode, del.body).toBe(200);
    const deleted = (await t.app.inject({ url: '/api/m/member/deleted', headers: bearer(admin) })).json();
    const entry = deleted.content.find((e: { recordId: number }) => e.recordId === m.id);
    expect(entry.record.idCard).toBe(maskIdCard(stored.get(m.id)!));
  });
});
