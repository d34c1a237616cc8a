/**
 * Terms of party organisations (届次与任期, module `org-term`, a child of `org`): the current term is
 * mirrored onto the organisation (termStart, termEnd, secretary, deputySecretary, committee), so the tree,
 * the list and the organisation's warnings read it as before. Terms are per body (`body`: 党委, 纪委, 总支, 支部;
 * empty = the organisation's own committee): one current term per body, and a 纪委's term is its own — it is
 * never mirrored onto the organisation and never makes the committee's term history.
 */
import { sql } from 'kysely';
import type { Runtime } from '../../runtime/index.js';
import { registerHook, SYSTEM_ACTOR } from '../../runtime/index.js';
import { orgOf } from './facts.js';
import { DISCIPLINE_BODY } from './rules.js';

export function registerTermHooks(runtime: Runtime): void {
  // beforeWrite: the term's name, which reminders and references show.
  registerHook('election.termName', async (ctx) => {
    if (ctx.action === 'delete') return;
    const r = ctx.record;
    const org = await orgOf(ctx.trx, r.orgId as number);
    const body = r.body === DISCIPLINE_BODY ? '纪律检查委员会' : '';
    if (org) r.name = `${org.name}${body}${r.termNo ? `第${r.termNo}届` : ''}（${r.termStart}至${r.termEnd}）`;
  });
  // afterWrite: the other terms become history; the organisation shows this one.
  registerHook('election.termMirror', async (ctx) => {
    if (ctx.action === 'delete' || !ctx.record.current || ctx.id === undefined) return;
    const r = ctx.record;
    const org = await orgOf(ctx.trx, r.orgId as number);
    if (!org) return;
    const discipline = r.body === DISCIPLINE_BODY;
    // The other current terms of the same body become history (the committee's terms: any body but 纪委).
    await sql`UPDATE m_org_term SET current = false WHERE org_id = ${org.id} AND id <> ${ctx.id} AND current
      AND (CASE WHEN ${discipline} THEN body = ${DISCIPLINE_BODY} ELSE body IS DISTINCT FROM ${DISCIPLINE_BODY} END)`.execute(ctx.trx);
    if (discipline) return;
    const row = await runtime.records('org').readRow(org.id, ctx.trx);
    if (!row) return;
    const mirrored = { termStart: r.termStart, termEnd: r.termEnd, secretary: r.secretary ?? null, deputySecretary: r.deputySecretary ?? null, committee: r.committee ?? null };
    if (Object.entries(mirrored).every(([k, v]) => (row[k] ?? null) === v)) return;
    await runtime.records('org').update({ id: org.id, version: row.version, ...mirrored }, SYSTEM_ACTOR, { trx: ctx.trx });
  });
}
