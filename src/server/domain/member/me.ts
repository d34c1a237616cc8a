/**
 * A member's own record and organisation, for the member who has no `member:list` (the mobile terminal's
 * 我的档案 and 我的组织, issue 31):
 * - `GET /api/member/me`      my record read-only (the ID number masked as lists mask it), the fields I may ask
 *                             to change (member-change-request) with their current value and choices
 * - `GET /api/member/me/org`  my branch, its committee of the current term (mirrored on the organisation by the
 *                             elections area), its secretary's contact, and the committee above
 * An account without a member record answers `{ member: null }`.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { currentUser, LOGIN } from '../../core/auth/guard.js';
import { maskIdCard } from '../../runtime/sensitive.js';
import { memberOfUser } from './accounts.js';
import { memberFieldTitled, useRuntimeForChangeRequests } from './change-request.js';

/** The member fields a member reads of their own record, in the order the record's form shows them. */
const OWN_FIELDS = ['name', 'gender', 'ethnicity', 'birthDate', 'idCard', 'nativePlace', 'education', 'degree', 'title', 'jobPost', 'personNo', 'workStartDate',
  'category', 'memberType', 'partyStatus', 'applyDate', 'joinDate', 'probationStatus', 'fullDate', 'partyAge', 'orgId', 'unitId', 'phone', 'address'];

const ORG_FIELDS = ['name', 'type', 'secretary', 'deputySecretary', 'committee', 'termStart', 'termEnd', 'contactPhone', 'address'];

export async function memberSelfRoutes(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  useRuntimeForChangeRequests(runtime);

  app.get('/api/member/me', { config: LOGIN }, async (req) => {
    const mine = await memberOfUser(app.services.database.db, currentUser(req).id);
    if (!mine) return { member: null };
    const members = runtime.records('member');
    const m = runtime.module('member')!;
    const record = await members.decorateOne((await members.readRow(mine.id))!);
    const text = (name: string): string => {
      const v = record[`${name}Label`] ?? record[`${name}Name`] ?? record[name];
      if (v === null || v === undefined || v === '') return '';
      return name === 'idCard' ? maskIdCard(String(v)) : String(v);
    };
    const fields = OWN_FIELDS.flatMap((name) => {
      const f = m.fields.get(name);
      return f ? [{ name, title: f.title, text: text(name) }] : [];
    });
    const titles = (runtime.module('member-change-request')?.fields.get('field')?.schema.enum ?? []) as string[];
    const changeable = await Promise.all(
      titles.map(async (title) => {
        const f = memberFieldTitled(title);
        const options = f?.dict ? [...(await runtime.ctx.dictLabels(f.dict)).values()] : undefined;
        return { title, current: f ? text(f.name) : '', options, format: f?.kind === 'date' ? 'date' : f?.schema.format };
      }),
    );
    return { member: { id: mine.id, name: mine.name, fields }, changeable };
  });

  app.get('/api/member/me/org', { config: LOGIN }, async (req) => {
    const mine = await memberOfUser(app.services.database.db, currentUser(req).id);
    if (!mine?.orgId) return { member: null };
    const orgs = runtime.records('org');
    const readOrg = async (id: number | null) => {
      const row = id ? await orgs.readRow(id) : undefined;
      if (!row) return null;
      const r = await orgs.decorateOne(row);
      return Object.fromEntries([['id', r.id], ...ORG_FIELDS.map((k) => [k, r[`${k}Label`] ?? r[k] ?? null])]) as Record<string, unknown> & { id: number };
    };
    const branch = await readOrg(mine.orgId);
    // The committee above: the nearest 党委 or 党总支 over the branch (the levels' own notion; a branch may sit in a 党总支).
    const above = await sql<{ id: number }>`
      WITH RECURSIVE up AS (SELECT id, parent_id, type, 0 AS depth FROM m_org WHERE id = ${mine.orgId}
        UNION ALL SELECT o.id, o.parent_id, o.type, up.depth + 1 FROM m_org o JOIN up ON o.id = up.parent_id WHERE up.depth < 20)
      SELECT id FROM up WHERE depth > 0 AND type IN ('1', '2') ORDER BY depth LIMIT 1`.execute(app.services.database.db);
    return { member: { id: mine.id, name: mine.name }, branch, committee: await readOrg(above.rows[0]?.id ?? null) };
  });
}
