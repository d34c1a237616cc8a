/**
 * The people of a development stage (入党申请人, 入党积极分子, 发展对象), for the party school's classes of
 * that stage (班级管理 → 从发展党员名单选录): applications in progress whose stage (DJ_FZ_JD, the same codes
 * as the batch type dxPc) is the class's, in the caller's data scope. Ended applications (the schema's
 * final states) are left out.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { likeContains } from '../../core/paging.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { finalStates } from '../../runtime/workflow/states.js';

export interface DevelopmentCandidate {
  name: string;
  idCard: string | null;
  orgId: number | null;
  orgName: string | null;
  userId: number | null;
  note: string;
}

const STAGE_TITLES: Record<number, string> = { 1: '入党申请人', 2: '入党积极分子', 3: '发展对象' };

export async function developmentCandidates(
  db: Kysely<DB>,
  module: RuntimeModule,
  stage: number,
  opts: { q?: string; limit: number; scope: number[] | 'all' },
): Promise<DevelopmentCandidate[]> {
  const wf = module.workflow!;
  const ended = finalStates(module);
  const name = opts.q?.trim() ? likeContains(opts.q.trim()) : null;
  const scope = opts.scope === 'all' ? null : opts.scope;
  const rows = await sql<{ name: string; id_card: string | null; org_id: number | null; org_name: string | null; user_id: number | null }>`
    SELECT d.name, d.id_card, d.org_id, o.name AS org_name, d.user_id
    FROM ${sql.table(module.table)} d LEFT JOIN m_org o ON o.id = d.org_id
    WHERE d.stage = ${String(stage)} AND NOT (${sql.ref(`d.${wf.stateField.column}`)} = ANY(${ended}::int[]))
      AND (${name}::text IS NULL OR d.name ILIKE ${name})
      AND (${scope === null}::boolean OR d.org_id = ANY(${scope ?? []}::int[]))
    ORDER BY d.org_id, d.id LIMIT ${opts.limit}`.execute(db);
  return rows.rows.map((r) => ({ name: r.name, idCard: r.id_card, orgId: r.org_id, orgName: r.org_name, userId: r.user_id, note: STAGE_TITLES[stage] ?? '' }));
}
