/**
 * The approval log (table workflow_log, append-only): one entry per step taken, with the values of the
 * step as given and as read, so the timeline and audits need no further look-ups.
 */
import type { Kysely } from 'kysely';
import { LEVEL_READS, LEVEL_TITLES, RESULT_TITLES, type WorkflowLevel, type WorkflowResult } from '../../../shared/module-schema/workflow.js';
import type { DB } from '../../db/types.js';
import type { RuntimeContext } from '../context.js';
import type { FieldInfo, RuntimeModule } from '../module.js';
import type { ValueText } from './tables.js';
import { isBlank } from '../../../shared/module-schema/fields.js';

export interface LogEntry {
  module: string;
  recordId: number;
  transition: string;
  transitionTitle: string;
  from: number | null;
  to: number | null;
  result: WorkflowResult;
  level: WorkflowLevel;
  actingOrgId: number | null;
  actorId: number | null;
  actorName: string;
  comment: string;
  values: Record<string, unknown>;
  valueTexts: ValueText[];
  warnings: string[];
  ip: string | null;
}

/** An entry as `GET /api/m/{id}/{recordId}/approvals` answers it. */
export interface ApprovalDto {
  id: number;
  transition: string;
  title: string;
  from: number | null;
  fromTitle: string;
  to: number | null;
  toTitle: string;
  result: WorkflowResult;
  resultTitle: string;
  level: string;
  levelTitle: string;
  actingOrgId: number | null;
  actingOrgName: string | null;
  actorId: number | null;
  actorName: string;
  comment: string;
  values: Record<string, unknown>;
  valueTexts: ValueText[];
  warnings: string[];
  /** The approver's client address: for auditors only (left out for other readers). */
  ip?: string | null;
  at: string;
}

export async function writeLog(trx: Kysely<DB>, e: LogEntry): Promise<void> {
  await writeLogs(trx, [e]);
}

/** Many entries in multi-row INSERTs (records a batch step created in a later state: one entry each). */
export async function writeLogs(trx: Kysely<DB>, entries: LogEntry[]): Promise<void> {
  const row = (e: LogEntry) => ({
    module: e.module,
    record_id: e.recordId,
    transition: e.transition,
    transition_title: e.transitionTitle,
    from_state: e.from,
    to_state: e.to,
    result: e.result,
    level: e.level,
    acting_org_id: e.actingOrgId,
    actor_id: e.actorId,
    actor_name: e.actorName,
    comment: e.comment,
    step_values: JSON.stringify(e.values),
    value_texts: JSON.stringify(e.valueTexts),
    warnings: JSON.stringify(e.warnings),
    ip: e.ip,
  });
  // 16 parameters a row: well below PostgreSQL's 65,535 per statement.
  for (let i = 0; i < entries.length; i += 2000) await trx.insertInto('workflow_log').values(entries.slice(i, i + 2000).map(row)).execute();
}


/** How a step's values read in the log: dictionary labels, names of referenced records, file names, 是/否. */
export async function valueTexts(ctx: RuntimeContext, trx: Kysely<DB>, inputs: FieldInfo[], values: Record<string, unknown>): Promise<ValueText[]> {
  const texts: ValueText[] = [];
  for (const f of inputs) {
    const v = values[f.name];
    if (isBlank(v)) continue;
    const list = Array.isArray(v) ? v : [v];
    let parts: string[];
    if (f.dict) {
      const labels = await ctx.dictLabels(f.dict, trx);
      parts = list.map((x) => labels.get(String(x)) ?? String(x));
    } else if (f.labels) parts = list.map((x) => f.labels!.get(String(x)) ?? String(x));
    else if (f.ref) {
      const names = await ctx.refNames(f.ref, list.filter((x): x is number => typeof x === 'number'), trx);
      parts = list.map((x) => names.get(x as number) ?? String(x));
    } else if (f.kind === 'boolean') parts = [v ? '是' : '否'];
    else if (f.schema.format === 'file' || f.schema.format === 'image') parts = list.map((x) => /[?&]name=([^&]*)/.exec(String(x))?.[1] ?? String(x)).map(decodeURIComponent);
    else parts = list.map(String);
    texts.push({ field: f.name, title: f.title, text: parts.join('、') });
  }
  return texts;
}

/** The log of one record, oldest first. */
export async function readLog(ctx: RuntimeContext, m: RuntimeModule, recordId: number): Promise<ApprovalDto[]> {
  const wf = m.workflow!;
  const rows = await ctx.db.selectFrom('workflow_log').selectAll().where('module', '=', m.id).where('record_id', '=', recordId).orderBy('id').execute();
  // The acting body is an organisation, or a unit for a level that reads the record's unit (unitDept).
  const byUnit = (level: string) => LEVEL_READS[level as WorkflowLevel] === 'unit';
  const idsOf = (unit: boolean) => [...new Set(rows.filter((r) => byUnit(r.level) === unit).map((r) => r.acting_org_id).filter((id): id is number => id !== null))];
  const orgNames = await ctx.refNames('org', idsOf(false));
  const unitNames = await ctx.refNames('unit', idsOf(true));
  return rows.map((r) => ({
    id: r.id,
    transition: r.transition,
    title: r.transition_title,
    from: r.from_state,
    fromTitle: wf.stateTitle(r.from_state),
    to: r.to_state,
    toTitle: wf.stateTitle(r.to_state),
    result: r.result,
    resultTitle: RESULT_TITLES[r.result] ?? r.result,
    level: r.level,
    levelTitle: LEVEL_TITLES[r.level as WorkflowLevel] ?? r.level,
    actingOrgId: r.acting_org_id,
    actingOrgName: r.acting_org_id === null ? null : ((byUnit(r.level) ? unitNames : orgNames).get(r.acting_org_id) ?? null),
    actorId: r.actor_id,
    actorName: r.actor_name,
    comment: r.comment,
    values: r.step_values,
    valueTexts: r.value_texts,
    warnings: r.warnings,
    ip: r.ip,
    at: new Date(r.at).toISOString(),
  }));
}

/** The state a record came from into its current one (the target of a return). */
export async function previousState(trx: Kysely<DB>, m: RuntimeModule, recordId: number, current: number): Promise<number> {
  const row = await trx
    .selectFrom('workflow_log')
    .select('from_state')
    .where('module', '=', m.id)
    .where('record_id', '=', recordId)
    .where('to_state', '=', current)
    .where('result', '=', 'pass')
    .where('from_state', '<>', current)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (row?.from_state !== null && row?.from_state !== undefined) return row.from_state;
  const wf = m.workflow!;
  // No log (records loaded in bulk): the state a declared step leads here from.
  const step = [...wf.transitions.values()].find((t) => t.result === 'pass' && t.to === current);
  return step?.from[0] ?? wf.initial;
}
