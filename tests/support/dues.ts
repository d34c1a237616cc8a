/**
 * Shared set-up of the dues API tests: the real app on a fresh database with a generated university,
 * helpers to call the dues API as the administrator or as a scoped user.
 */
import { sql } from 'kysely';
import { expect } from 'vitest';
import { seedUniversity } from '../../src/server/seed/university/seed.js';
import { generateUniversity, type University } from '../../src/server/seed/university/university.js';
import { login, userWithRole } from './auth.js';
import { createTestApp, type TestApp } from './test-app.js';

export interface DuesWorld {
  t: TestApp;
  admin: string;
  u: University;
  orgIds: Map<string, number>;
}

export async function duesWorld(members = 300, seed = 16): Promise<DuesWorld> {
  const t = await createTestApp();
  const u = generateUniversity({ members, seed });
  const { orgIds } = await seedUniversity(t.database, u, 'hntb');
  return { t, admin: await login(t.app), u, orgIds };
}

/**
 * The payment simulator is a demo's only (issue 38.16) and these apps start without demo data: a test that
 * pays with it makes its app a demo from then on (after start only the dues' online payment reads the flag).
 */
export function allowSimulator(w: DuesWorld): void {
  w.t.config.demoData = true;
}

import type { Call } from './call.js';
export { caller, type Call } from './call.js';

/** A user with these permissions whose data scope is one organisation (and its subtree). */
export async function scopedUser(w: DuesWorld, username: string, permissions: string[], orgId: number): Promise<string> {
  const password = 'Dues#Scope2026';
  await userWithRole(w.t.app, w.admin, { username, permissions, dataScope: 'own', orgId, password });
  return login(w.t.app, username, password);
}

/** Ids of normal members (status 正常) of an organisation, in id order. */
export async function membersOf(w: DuesWorld, orgId: number): Promise<{ id: number; name: string; category: string }[]> {
  return (await sql<{ id: number; name: string; category: string }>`SELECT id, name, category FROM m_member WHERE org_id = ${orgId} AND party_status = '1' ORDER BY id`.execute(w.t.database.db)).rows;
}

/** A branch (type 3) with at least `n` normal members whose category is one of `categories`. */
export async function branchWith(w: DuesWorld, n: number, categories = ['1']): Promise<number> {
  const rows = await sql<{ orgId: number }>`SELECT org_id AS "orgId" FROM m_member m JOIN m_org o ON o.id = m.org_id
    WHERE m.party_status = '1' AND o.type = '3' AND m.category = ANY(${categories}::text[]) GROUP BY org_id HAVING count(*) >= ${n} ORDER BY org_id LIMIT 1`.execute(w.t.database.db);
  expect(rows.rows.length, 'a branch with enough members').toBe(1);
  return rows.rows[0].orgId;
}

/** Standards for every member of the year (in-service and retired: base 6500.00 unless given). */
export async function standardsForAll(w: DuesWorld, call: Call, year: number, base = (_id: number) => '6500.00'): Promise<void> {
  const gen = await call('POST', '/api/dues/standards/generate', { year });
  expect(gen.status, JSON.stringify(gen.body)).toBe(200);
  // Members who need a base: written by hand through the module API (its hook computes the amount).
  const rows = (await sql<{ id: number; category: string }>`SELECT id, category FROM m_member m WHERE party_status = '1' AND org_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM m_dues_standard s WHERE s.member_id = m.id AND s.year = ${year})`.execute(w.t.database.db)).rows;
  for (const r of rows) {
    const res = await call('POST', '/api/m/dues-standard', { memberId: r.id, year, category: r.category === '2' ? 'retired' : 'in-service', base: base(r.id) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
}

/**
 * A step of a fee batch through the workflow engine (`POST /api/m/dues-batch/{id}/transitions/{step}`),
 * with the batch's version as read just before.
 */
export async function batchStep(call: Call, id: number, step: string, values: Record<string, unknown> = {}, token?: string, comment = '') {
  const read = await call('GET', `/api/m/dues-batch/${id}`, undefined, token);
  expect(read.status, JSON.stringify(read.body)).toBe(200);
  return call('POST', `/api/m/dues-batch/${id}/transitions/${step}`, { version: read.body.version, comment, values }, token);
}

/** A batch of `month` created (the module dues-batch), configured and started; answers its id. */
export async function startedBatch(call: Call, month: string, months = 1): Promise<number> {
  const created = await call('POST', '/api/m/dues-batch', { firstMonth: month, months });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.id as number;
  const configured = await batchStep(call, id, 'configure');
  expect(configured.status, JSON.stringify(configured.body)).toBe(200);
  const started = await batchStep(call, id, 'start');
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return id;
}

/** The item of a member in a batch. */
export async function itemOf(w: DuesWorld, batchId: number, memberId: number): Promise<{ id: number; due_cents: number; org_id: number; payment_id: number | null }> {
  return (await sql<{ id: number; due_cents: number; org_id: number; payment_id: number | null }>`SELECT id, due_cents, org_id, payment_id FROM dues_item WHERE batch_id = ${batchId} AND member_id = ${memberId}`.execute(w.t.database.db)).rows[0];
}
