/**
 * Terms of party organisations (届次与任期, module `org-term`, a child of `org`): the current term is
 * mirrored onto the organisation (termStart, termEnd, secretary, deputySecretary, committee), so the tree,
 * the list and the organisation's warnings read it as before; an organisation has one current term.
 */
import { sql } from 'kysely';
import type { Runtime } from '../../runtime/index.js';
import { registerHook, SYSTEM_ACTOR } from '../../runtime/index.js';
import { orgOf } from './facts.js';

export function registerTermHooks(runtime: Runtime): void {
  // beforeWrite: the term's name, which reminders and references show.
  registerHook('election.termName', async (ctx) => {
    if (ctx.action === 'delete') return;
    const r = ctx.record;
    const org = await orgOf(ctx.trx, r.orgId as number);
    if (org) r.name = `${org.name}${r.termNo ? `第${r.termNo}届` : ''}（${r.termStart}至${r.termEnd}）`;
  });
  // afterWrite: the other terms become history; the organisation shows this one.
  registerHook('election.termMirror', async (ctx) => {
    if (ctx.action === 'delete' || !ctx.record.current || ctx.id === undefined) return;
    const r = ctx.record;
    const org = await orgOf(ctx.trx, r.orgId as number);
    if (!org) return;
    await sql`UPDATE m_org_term SET current = false WHERE org_id = ${org.id} AND id <> ${ctx.id} AND current`.execute(ctx.trx);
    const row = await runtime.records('org').readRow(org.id, ctx.trx);
    if (!row) return;
    const mirrored = { termStart: r.termStart, termEnd: r.termEnd, secretary: r.secretary ?? null, deputySecretary: r.deputySecretary ?? null, committee: r.committee ?? null };
    if (Object.entries(mirrored).every(([k, v]) => (row[k] ?? null) === v)) return;
    await runtime.records('org').update({ id: org.id, version: row.version, ...mirrored }, SYSTEM_ACTOR, { trx: ctx.trx });
  });
}
