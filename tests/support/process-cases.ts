/**
 * The attacks on a workflow module's process (issue 25 "Also"), tried on demo records in flight for each
 * x-workflow module of the registry; answers per module what each attack got, for the route matrix's
 * reviewed `processes` table. Nothing succeeds: every request is one the engine must refuse.
 */
import { sql } from 'kysely';
import { declaredLevels } from '../../src/shared/module-schema/workflow.js';
import type { RuntimeModule } from '../../src/server/runtime/module.js';
import type { Step } from '../../src/server/runtime/workflow/model.js';
import { editableStates } from '../../src/server/runtime/workflow/safety.js';
import { bearer } from './auth.js';
import type { TestApp } from './test-app.js';

type Row = Record<string, unknown> & { id: number; version: number };
interface Tokens {
  admin: string;
  /** 支部书记 (branch level) and 二级党委组织员 (committee level), both scoped. */
  zbsj: string;
  ejdw: string;
}

export async function processCases(t: TestApp, tokens: Tokens): Promise<Record<string, string>> {
  const call = async (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await t.app.inject({ method, url, headers: bearer(token), ...(payload !== undefined && { payload: payload as object }) });
    return { status: res.statusCode, body: res.json() };
  };
  const permissionsOf = async (username: string) => {
    const rows = await sql<{ p: string[] }>`SELECT r.permissions AS p FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id WHERE u.username = ${username}`.execute(t.database.db);
    return new Set(rows.rows.flatMap((r) => r.p));
  };
  const users = { zbsj: await permissionsOf('zbsj'), ejdw: await permissionsOf('ejdw') };
  const adminId = (await t.database.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id;
  const orgOf = async (username: string) => (await t.database.db.selectFrom('users').select('org_id').where('username', '=', username).executeTakeFirstOrThrow()).org_id;
  const orgIds = async (token: string) => {
    const res = await call(token, 'POST', '/api/m/org/list?page=0&size=1000', {});
    if (res.status !== 200) throw new Error(`org list: ${JSON.stringify(res.body)}`);
    return new Set((res.body.content as { id: number }[]).map((o) => o.id));
  };
  // The demo roles' scope is their own organisation with its subtree (organisation names are public to all).
  const scopeOf = async (username: string) => new Set(await t.app.runtime.ctx.orgTree.subtreeIds([(await orgOf(username))!]));
  const allOrgs = await orgIds(tokens.admin);

  const out: Record<string, string> = {};
  for (const m of t.app.runtime.registry.list().filter((x) => x.workflow)) {
    const wf = m.workflow!;
    const state = (r: Row) => r[wf.stateField.name] as number;
    const editable = editableStates(wf);
    const list = async (token: string) => {
      const res = await call(token, 'POST', `/api/m/${m.id}/list?page=0&size=1000&fields=all`, {});
      return res.status === 200 ? (res.body.content as Row[]) : [];
    };
    const every = (await list(tokens.admin)).filter((r) => !editable.has(state(r)) && !wf.state(state(r))?.final);
    if (!every.length) {
      out[m.id] = 'no demo records in flight';
      continue;
    }
    const open = (t: Step, r: Row) => t.from.includes(state(r)) && (!t.doneField || r[t.doneField] === null || r[t.doneField] === undefined);
    const explicit = (t: Step) => declaredLevels(t) !== 'next' && !(declaredLevels(t) as string[]).includes('self');
    const take = (token: string, r: Row, step: string, version = r.version, values: Record<string, unknown> = {}) =>
      call(token, 'POST', `/api/m/${m.id}/${r.id}/transitions/${step}`, { version, comment: '测试', values });
    const cases: string[] = [];
    const note = (name: string, res: { status: number } | undefined) => cases.push(`${name} ${res ? res.status : '-'}`);

    const seen = new Set((await list(tokens.zbsj)).map((r) => r.id));
    const held = [...wf.transitions.values()].filter((x) => users.zbsj.has(x.permission));
    // A record outside the caller's scope: as if it did not exist.
    const outside = every.find((r) => !seen.has(r.id));
    note('scope', outside && held[0] ? await take(tokens.zbsj, outside, held[0].id) : undefined);
    // A step open on a record the caller sees, whose permission they hold, at a level they do not act at.
    let level: { status: number } | undefined;
    for (const [token, permissions] of [[tokens.zbsj, users.zbsj], [tokens.ejdw, users.ejdw]] as const) {
      const sees = token === tokens.zbsj ? seen : new Set((await list(token)).map((r) => r.id));
      for (const r of every.filter((x) => sees.has(x.id)).slice(0, 30)) {
        const mine = new Set(((await call(token, 'GET', `/api/m/${m.id}/${r.id}/transitions`)).body as { id: string }[]).map((s) => s.id));
        const other = [...wf.transitions.values()].find((x) => permissions.has(x.permission) && open(x, r) && explicit(x) && !mine.has(x.id));
        if (other) {
          level = await take(token, r, other.id);
          break;
        }
      }
      if (level) break;
    }
    note('level', level);
    // A stale version.
    const visible = every.find((r) => seen.has(r.id));
    note('stale', visible && held[0] ? await take(tokens.zbsj, visible, held[0].id, visible.version - 1) : undefined);
    // One's own record: the superuser acts at every level, so only the own-record rule refuses.
    note('own', await ownRecord(t, m, every, open, explicit, adminId, (r, step) => take(tokens.admin, r, step)));
    // A value outside the actor's scope, in a step that writes an organisation.
    note('value', await valueOutside(t, m, every, open, allOrgs, [
      { token: tokens.zbsj, orgs: await scopeOf('zbsj'), orgId: await orgOf('zbsj') },
      { token: tokens.ejdw, orgs: await scopeOf('ejdw'), orgId: await orgOf('ejdw') },
    ], call, take));
    // The generic API on a record in flight.
    note('put', await call(tokens.admin, 'PUT', `/api/m/${m.id}`, { id: every[0].id, version: every[0].version }));
    note('delete', await call(tokens.admin, 'DELETE', `/api/m/${m.id}`, [every[0].id]));
    out[m.id] = cases.join(' · ');
  }
  return out;
}

type Take = (r: Row, step: string) => Promise<{ status: number; body: { message?: string } }>;

/** Makes a record the superuser's own (its self user, or the member it is about), tries a step at a level, and undoes the link. */
async function ownRecord(t: TestApp, m: RuntimeModule, rows: Row[], open: (s: Step, r: Row) => boolean, explicit: (s: Step) => boolean, adminId: number, take: Take) {
  const wf = m.workflow!;
  const memberField = [...m.fields.values()].find((f) => f.column && f.ref === 'member');
  for (const r of rows) {
    const step = [...wf.transitions.values()].find((s) => open(s, r) && explicit(s));
    if (!step) continue;
    if (wf.selfField) {
      const column = wf.selfField.column!;
      await sql`UPDATE ${sql.table(m.table)} SET ${sql.ref(column)} = ${adminId} WHERE id = ${r.id}`.execute(t.database.db);
      const res = await take(r, step.id);
      await sql`UPDATE ${sql.table(m.table)} SET ${sql.ref(column)} = ${(r[wf.selfField.name] as number | null) ?? null} WHERE id = ${r.id}`.execute(t.database.db);
      return res.body.message?.includes('本人') ? res : { status: res.status * 10 };
    }
    const cardField = [...m.fields.values()].find((f) => f.column && f.schema.format === 'id-card');
    if (cardField && !(memberField && typeof r[memberField.name] === 'number')) {
      // The account's member carries the record's identity number for the attempt (read stored: lists mask it).
      const stored = (await sql<{ card: string | null }>`SELECT ${sql.ref(cardField.column!)} AS card FROM ${sql.table(m.table)} WHERE id = ${r.id}`.execute(t.database.db)).rows[0]?.card;
      if (!stored) continue;
      const member = (await sql<{ id: number; idCard: string }>`SELECT id, id_card AS "idCard" FROM m_member ORDER BY id LIMIT 1`.execute(t.database.db)).rows[0];
      await sql`UPDATE m_member SET id_card = ${stored} WHERE id = ${member.id}`.execute(t.database.db);
      await sql`UPDATE users SET member_id = ${member.id} WHERE id = ${adminId}`.execute(t.database.db);
      const res = await take(r, step.id);
      await sql`UPDATE users SET member_id = NULL WHERE id = ${adminId}`.execute(t.database.db);
      await sql`UPDATE m_member SET id_card = ${member.idCard} WHERE id = ${member.id}`.execute(t.database.db);
      return res.body.message?.includes('本人') ? res : { status: res.status * 10 };
    }
    if (memberField && typeof r[memberField.name] === 'number') {
      await sql`UPDATE users SET member_id = ${r[memberField.name] as number} WHERE id = ${adminId}`.execute(t.database.db);
      const res = await take(r, step.id);
      await sql`UPDATE users SET member_id = NULL WHERE id = ${adminId}`.execute(t.database.db);
      return res.body.message?.includes('本人') ? res : { status: res.status * 10 };
    }
  }
  return undefined;
}

/**
 * A step writing an organisation, open to a scoped caller on a record (placed in the caller's own
 * organisation for the attempt when the demo has none there), given an organisation outside their scope.
 */
async function valueOutside(
  t: TestApp,
  m: RuntimeModule,
  rows: Row[],
  open: (s: Step, r: Row) => boolean,
  allOrgs: Set<number>,
  callers: { token: string; orgs: Set<number>; orgId: number | null }[],
  call: (token: string, method: 'GET', url: string) => Promise<{ status: number; body: unknown }>,
  take: (token: string, r: Row, step: string, version?: number, values?: Record<string, unknown>) => Promise<{ status: number }>,
) {
  const steps = [...m.workflow!.transitions.values()].filter((s) => s.inputs.some((f) => f.column && f.ref === 'org'));
  const scope = m.scopeField;
  if (!steps.length || !scope?.column) return undefined;
  for (const c of callers) {
    const foreign = [...allOrgs].find((id) => !c.orgs.has(id));
    if (foreign === undefined || c.orgId === null) continue;
    for (const r of rows.filter((x) => steps.some((s) => open(s, x))).slice(0, 5)) {
      await sql`UPDATE ${sql.table(m.table)} SET ${sql.ref(scope.column)} = ${c.orgId} WHERE id = ${r.id}`.execute(t.database.db);
      try {
        const answer = (await call(c.token, 'GET', `/api/m/${m.id}/${r.id}/transitions`)).body;
        const offered = new Set(Array.isArray(answer) ? (answer as { id: string }[]).map((s) => s.id) : []);
        const step = steps.find((s) => open(s, r) && offered.has(s.id));
        if (!step) continue;
        const field = step.inputs.find((f) => f.column && f.ref === 'org')!;
        return await take(c.token, r, step.id, r.version, { [field.name]: foreign });
      } finally {
        await sql`UPDATE ${sql.table(m.table)} SET ${sql.ref(scope.column)} = ${(r[scope.name] as number | null) ?? null} WHERE id = ${r.id}`.execute(t.database.db);
      }
    }
  }
  return undefined;
}
