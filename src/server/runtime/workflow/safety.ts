/**
 * What the engine holds for every workflow module, whatever its guards say (docs/security.md,
 * "Process threats"): the edit lock of a record in flight, nobody acting on their own record, step
 * values inside the actor's scope, and approvers' addresses for auditors only.
 */
import { sql, type Kysely } from 'kysely';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import { editableStates as editableStatesOf } from '../../../shared/module-schema/workflow.js';
import type { DB } from '../../db/types.js';
import { HttpError } from '../../errors.js';
import type { Actor } from '../hooks.js';
import { unitsOf } from '../scope.js';
import type { RuntimeModule } from '../module.js';
import type { ApprovalDto } from './log.js';
import type { Step, Workflow } from './model.js';

/** The permission that shows approvers' client addresses in the approval log (audits). */
export const WORKFLOW_AUDIT_PERMISSION = 'workflow:audit';

/** The states in which the generic PUT/DELETE may change a record (one reading, shared with the renderer's buttons). */
export const editableStates = (wf: Workflow): Set<number> => editableStatesOf(wf.schema);

/**
 * Refuses a generic update or delete of workflow records in flight (409): only their steps change them.
 */
export function assertEditable(m: RuntimeModule, rows: Record<string, unknown>[], action: 'update' | 'delete'): void {
  const wf = m.workflow;
  if (!wf) return;
  const editable = editableStates(wf);
  for (const row of rows) {
    const state = row[wf.stateField.name] as number | null;
    if (state === null || state === undefined || editable.has(state)) continue;
    const name = m.nameField ? String(row[m.nameField.name] ?? row.id) : String(row.id);
    const verb = action === 'delete' ? '删除' : '修改';
    throw new HttpError(409, `“${name}”的${m.title}已提交（当前状态：${wf.stateTitle(state)}），不能${verb}；只能通过办理步骤变更`);
  }
}

/** Whether the record is about the actor (see ownersOf). */
export async function isOwnRecord(m: RuntimeModule, record: Record<string, unknown>, actorId: number | null, db: Kysely<DB>): Promise<boolean> {
  return actorId !== null && (await ownersOf(m, record, db)).has(actorId);
}

/**
 * The accounts a record is about, in one query: its `selfField` user, and the accounts whose member
 * (users.member_id) a member reference or identity number of the record names — the applicant or the linked
 * member, given when the record is written; a member reference that a step fills in (an election's elected
 * secretary) names a role, not the record's subject. They take no step at a level on it, and its to-dos skip them.
 */
export async function ownersOf(m: RuntimeModule, record: Record<string, unknown>, db: Kysely<DB>): Promise<Set<number>> {
  const wf = m.workflow!;
  const owners = new Set<number>();
  if (wf.selfField && typeof record[wf.selfField.name] === 'number') owners.add(record[wf.selfField.name] as number);
  // A member a step writes (the secretary an election chose, a receiving contact) is someone the process
  // named, not whom the record is about: an organisation's record naming the actor is not their own record.
  const stepWritten = new Set([...wf.transitions.values()].flatMap((t) => t.fields));
  const memberIds = [...m.fields.values()]
    .filter((f) => f.column && f.ref === 'member' && !stepWritten.has(f.name))
    .map((f) => record[f.name])
    .filter((v): v is number => typeof v === 'number');
  const cards = [...m.fields.values()].filter((f) => f.column && f.schema.format === 'id-card').map((f) => record[f.name]).filter((v): v is string => typeof v === 'string').map((v) => v.toUpperCase());
  if (!memberIds.length && !cards.length) return owners;
  const rows = await sql<{ id: number }>`
    SELECT u.id FROM users u JOIN m_member m ON m.id = u.member_id WHERE m.id = ANY(${memberIds}::int[]) OR upper(m.id_card) = ANY(${cards}::text[])`.execute(db);
  rows.rows.forEach((r) => owners.add(r.id));
  return owners;
}

/** The refusal of a step on one's own record. */
export function ownRecordRefusal(m: RuntimeModule, t: Step): HttpError {
  return new HttpError(403, `不能办理本人的${m.title}（${t.title}）：本人的申请须由他人审批`);
}

/**
 * Organisations (and units) a step writes must lie in the actor's data scope, whatever the module's
 * guards say: a value the record already held passes (the step does not change it).
 */
export function assertStepValuesInScope(
  t: Step,
  values: Record<string, unknown>,
  record: Record<string, unknown>,
  actor: Actor,
): void {
  for (const f of t.inputs) {
    if (f.ref !== 'org' && f.ref !== 'unit') continue;
    const given = values[f.name];
    if (given === null || given === undefined || JSON.stringify(given) === JSON.stringify(record[f.name] ?? null)) continue;
    const allowed = f.ref === 'unit' ? unitsOf(actor) : actor.scope;
    if (allowed === 'all') continue;
    const ids = (Array.isArray(given) ? given : [given]).filter((x): x is number => typeof x === 'number');
    if (!ids.every((id) => allowed.includes(id))) {
      throw new HttpError(403, `所选${f.title}不在您的管理范围内，不能办理“${t.title}”`, { errors: [{ field: f.name, message: `所选${f.title}不在您的管理范围内` }] });
    }
  }
}

/** The approval log as a reader may see it: client addresses only for auditors. */
export function approvalsFor(user: SessionUser, entries: ApprovalDto[]): ApprovalDto[] {
  if (hasAnyPermission(user, [WORKFLOW_AUDIT_PERMISSION])) return entries;
  return entries.map(({ ip: _ip, ...rest }) => rest);
}
