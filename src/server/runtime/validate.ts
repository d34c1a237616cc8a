import type { ErrorObject } from 'ajv';
/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import { requiredLackedBy } from '../../shared/module-schema/fields.js';
import { FORMAT_MESSAGES, idCardProblem, normalizeIdCard } from '../../shared/validators.js';
import { HttpError } from '../errors.js';
import { translateAjvError, type FieldError } from '../../shared/validation-messages.js';
import type { Actor } from './hooks.js';
import { SYSTEM_FIELDS, type FieldInfo, type RuntimeModule } from './module.js';
import type { RuntimeContext } from './context.js';
import { outOfScope, scopeCondition } from './scope.js';
import { idIn } from './query.js';
import { unreadableRefMessage, unreadableRefs } from './read-policy.js';
import { hasOwn, ownValue } from '../../shared/own.js';
import { isBlank } from '../../shared/module-schema/fields.js';

/** A write as the client sent it: field values (null = empty), and the id and version it names. */
export interface WriteInput {
  values: Record<string, unknown>;
  id?: unknown;
  version?: unknown;
}


/**
 * Reads a write body: keeps field values (an empty string, null or [] means "empty"), takes id and
 * version aside, and drops what the client may send back but never writes: system fields, read-only and
 * computed fields, and the labels and names the API adds (`<field>Label`, `<field>Name`).
 * Unknown keys stay, so validation refuses them.
 */
export function readWriteInput(m: RuntimeModule, body: unknown): WriteInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, '请求数据的格式不正确');
  const input: WriteInput = { values: {} };
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (key === 'id') input.id = value;
    else if (key === 'version') input.version = value;
    else if (hasOwn(SYSTEM_FIELDS, key) || key === 'school' || isDecoration(m, key)) continue;
    else if (m.field(key) && !m.field(key)!.writable) continue;
    else input.values[key] = isBlank(value) ? null : value;
  }
  return input;
}

/** What answers add beside the fields: a step's warnings, a record the caller no longer sees, an incomplete record's gaps. */
const ANSWER_EXTRAS = new Set(['warnings', 'visible', 'missing']);

/**
 * Whether a key is something the API adds on read (so a record can be sent back as it was answered):
 * `<field>Label` of a dictionary or labelled field (a workflow's `stateLabel`), `<field>Name` of a
 * reference, and the extras of answers. A module field of such a name stays a field.
 */
function isDecoration(m: RuntimeModule, key: string): boolean {
  if (m.field(key)) return false;
  if (ANSWER_EXTRAS.has(key)) return true;
  if (key.endsWith('Label')) {
    const f = m.field(key.slice(0, -5));
    return !!(f?.dict || f?.labels || f?.schema['x-choices']);
  }
  if (key.endsWith('Name')) return !!m.field(key.slice(0, -4))?.ref;
  return false;
}

/** Empty values removed: what ajv checks (a missing required field is then "不能为空"). */
export function withoutBlanks(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => !isBlank(v)));
}


function fieldErrorOf(m: RuntimeModule, e: ErrorObject, values: Record<string, unknown>): FieldError {
  const error = translateAjvError(e, (name) => m.field(name.split('.')[0])?.title);
  // An identity number says what is wrong with it (a birth date that does not exist or lies ahead).
  if (e.keyword === 'format' && e.params.format === 'id-card') return { field: error.field, message: idCardProblem(values[error.field] as string) ?? FORMAT_MESSAGES['id-card'] };
  const formatMessage = e.keyword === 'format' ? ownValue(FORMAT_MESSAGES, e.params.format) : undefined;
  if (formatMessage) return { field: error.field, message: formatMessage };
  return error;
}

/**
 * Puts values in their one stored form before they are checked and written, so uniqueness compares like
 * with like: identity numbers (upper-case X, 15 digits widened to 18).
 */
function normalizeValues(m: RuntimeModule, candidates: Candidate[]): void {
  const idCards = m.writableFields.filter((f) => f.schema.format === 'id-card');
  for (const c of candidates) {
    for (const f of idCards) {
      const v = c.values[f.name];
      if (typeof v === 'string') c.values[f.name] = normalizeIdCard(v);
    }
  }
}

export interface Candidate {
  /** The full record to be stored (field names, empties as null). */
  values: Record<string, unknown>;
  /** The record being updated; undefined for a new record. */
  currentId?: number;
  /** The stored row of the record being updated: required fields it lacks may stay empty (x-required-from). */
  stored?: Record<string, unknown>;
}

export interface CandidateResult {
  errors: FieldError[];
  /** The record's organisation is outside the actor's data scope. */
  outOfScope: boolean;
}

const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === null || v === undefined ? [] : [v]);

/**
 * Validates records before a write, in bulk so an import of thousands of rows costs a few queries:
 * the schema (types, formats, required, unknown fields), dictionary values (existing and enabled),
 * references (the record exists), uniqueness (x-unique, against the table and within the batch) and
 * the actor's data scope.
 */
export async function validateCandidates(
  ctx: RuntimeContext,
  m: RuntimeModule,
  candidates: Candidate[],
  actor: Actor,
  /** A transaction the write runs in (domain services); every look-up then goes through it. */
  db: Kysely<DB> = ctx.db,
): Promise<CandidateResult[]> {
  normalizeValues(m, candidates);
  const results: CandidateResult[] = candidates.map((c) => {
    const lacked = c.stored ? new Set(requiredLackedBy(m.schema, c.stored)) : undefined;
    const errors = m.validate(withoutBlanks(c.values)).filter((e) => !(e.keyword === 'required' && lacked?.has(e.params.missingProperty as string)));
    return { errors: errors.map((e) => fieldErrorOf(m, e, c.values)), outOfScope: false };
  });
  const failed = (i: number, field: string) => results[i].errors.some((e) => e.field === field);

  for (const f of m.writableFields.filter((x) => x.dict)) {
    const allowed = await ctx.dictValues(f.dict!, db);
    candidates.forEach((c, i) => {
      if (failed(i, f.name)) return;
      const bad = listOf(c.values[f.name]).find((v) => !allowed.has(String(v)));
      if (bad !== undefined) results[i].errors.push({ field: f.name, message: `${f.title}“${String(bad)}”不是有效的选项` });
    });
  }

  // A module id (x-choices: modules): one of the deployment's modules now, stored ones included.
  for (const f of m.writableFields.filter((x) => x.schema['x-choices'] === 'modules')) {
    candidates.forEach((c, i) => {
      const v = c.values[f.name];
      if (!failed(i, f.name) && typeof v === 'string' && v && !ctx.registry.get(v)) results[i].errors.push({ field: f.name, message: `${f.title}“${v}”不是本系统的模块` });
    });
  }

  for (const f of m.writableFields.filter((x) => x.ref)) {
    const ids = new Set<number>();
    candidates.forEach((c, i) => {
      if (!failed(i, f.name)) listOf(c.values[f.name]).forEach((v) => ids.add(v as number));
    });
    const existing = await ctx.existingRefs(f.ref!, [...ids], db);
    if (!existing) continue; // a core entity whose module does not exist yet
    candidates.forEach((c, i) => {
      if (!failed(i, f.name) && listOf(c.values[f.name]).some((v) => !existing.has(v as number))) {
        results[i].errors.push({ field: f.name, message: `${f.title}所选的记录不存在` });
      }
    });
    // The record must be one the writer may read (read-policy.ts); a reference the record already holds stays.
    const added = (c: Candidate) => listOf(c.values[f.name]).filter((v) => !listOf(c.stored?.[f.name]).includes(v)) as number[];
    const unreadable = await unreadableRefs(ctx, f.ref!, candidates.flatMap(added), actor, db);
    if (!unreadable.size) continue;
    candidates.forEach((c, i) => {
      if (!failed(i, f.name) && added(c).some((v) => unreadable.has(v))) results[i].errors.push({ field: f.name, message: unreadableRefMessage(f.title) });
    });
  }

  for (const set of m.uniqueSets) await checkUnique(ctx, m, set, candidates, results, failed, db, actor);

  // A scoped actor may not write records outside its organisations, nor records that belong to none.
  // A read-only scope field is the business of the hook that sets it (docs/schema.md, x-scope).
  if (m.selfScope) {
    // An organisation is placed by its parent: a new one, or one moved, must land under one in the scope
    // (the record itself is checked by the update). Keeping the parent it has is always allowed.
    const parent = m.selfScope.parent.name;
    const placed = candidates.map((c) => ({ [parent]: c.values[parent] ?? null }));
    (await outOfScope(ctx, m, placed, actor, db)).forEach((out, i) => {
      const c = candidates[i];
      results[i].outOfScope = out && (!c.stored || (c.stored[parent] ?? null) !== (c.values[parent] ?? null));
    });
  } else if (!m.scopeField || m.scopeField.writable) {
    (await outOfScope(ctx, m, candidates.map((c) => c.values), actor, db)).forEach((out, i) => (results[i].outOfScope = out));
  }
  return results;
}

/** The Chinese message of a uniqueness conflict: `<title>“value”已存在`. */
export function uniqueMessage(set: FieldInfo[], values: unknown[]): string {
  return `${set.map((f) => f.title).join('、')}“${values.map(String).join('、')}”已存在`;
}

/**
 * The message of a conflict with a record the caller cannot read: it says no more than that the value is
 * taken, nothing of that record (whose existence elsewhere is not the caller's business).
 */
export function hiddenUniqueMessage(set: FieldInfo[]): string {
  return `该${set.map((f) => f.title).join('、')}已被其他党组织的记录使用，请核对后重新填写，如有疑问请联系上级党组织`;
}

/** Of these record ids, those the actor may read (all of them for a caller who sees everything). */
async function readableIds(ctx: RuntimeContext, m: RuntimeModule, ids: number[], actor: Actor, db: Kysely<DB>): Promise<Set<number>> {
  const condition = scopeCondition(m, actor, 'read');
  if (!condition || !ids.length) return new Set(ids);
  const rows = await (db as Kysely<any>).selectFrom(m.table).select('id').where(idIn(ids)).where(condition).execute();
  return new Set(rows.map((r: { id: number }) => r.id));
}

/** The key of a unique value set, as compared across the table and the batch. */
export const keyOf = (values: unknown[]) => JSON.stringify(values.map(String));

/** Existing records by their values of a unique set: key (see keyOf) → id. Chunked for big imports. */
export async function findByKeys(ctx: RuntimeContext, m: RuntimeModule, set: FieldInfo[], keys: unknown[][], db: Kysely<DB> = ctx.db): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const columns = set.map((f) => f.column!);
  for (let start = 0; start < keys.length; start += 1000) {
    const chunk = keys.slice(start, start + 1000);
    const rows = await (db as Kysely<any>)
      .selectFrom(m.table)
      .select(['id', ...columns.map((c, n) => sql.ref(c).as(`k${n}`))])
      .where((eb) =>
        columns.length === 1
          ? eb(columns[0], 'in', chunk.map((k) => k[0]))
          : eb.or(chunk.map((k) => eb.and(columns.map((c, n) => eb(c, '=', k[n]))))),
      )
      .execute();
    for (const r of rows as Record<string, unknown>[]) found.set(keyOf(columns.map((_c, n) => r[`k${n}`])), r.id as number);
  }
  return found;
}

async function checkUnique(
  ctx: RuntimeContext,
  m: RuntimeModule,
  set: FieldInfo[],
  candidates: Candidate[],
  results: CandidateResult[],
  failed: (i: number, field: string) => boolean,
  db: Kysely<DB>,
  actor: Actor,
): Promise<void> {
  const keyed = candidates
    .map((c, i) => ({ i, values: set.map((f) => c.values[f.name]), currentId: c.currentId }))
    .filter((k) => k.values.every((v) => v !== null && v !== undefined) && !set.some((f) => failed(k.i, f.name)));
  if (!keyed.length) return;
  const taken = await findByKeys(ctx, m, set, keyed.map((k) => k.values), db);
  const readable = await readableIds(ctx, m, [...new Set(taken.values())], actor, db);
  const seen = new Set<string>();
  for (const k of keyed) {
    const key = keyOf(k.values);
    const owner = taken.get(key);
    if (owner !== undefined && owner !== k.currentId) {
      results[k.i].errors.push({ field: set[0].name, message: readable.has(owner) ? uniqueMessage(set, k.values) : hiddenUniqueMessage(set) });
    } else if (seen.has(key)) {
      results[k.i].errors.push({ field: set[0].name, message: uniqueMessage(set, k.values) });
    }
    seen.add(key);
  }
}

/**
 * Throws the 400 of a single write: field messages, or a record placed outside the caller's data scope
 * (a 400 on the scope field rather than a 403, so the form keeps what the user typed and says why).
 */
export function assertValid(result: CandidateResult, scopeField?: string): void {
  if (result.errors.length) throw new HttpError(400, result.errors[0].message, { errors: result.errors });
  if (result.outOfScope) {
    const message = '所选组织不在您的管理范围内';
    throw new HttpError(400, message, { errors: scopeField ? [{ field: scopeField, message }] : [] });
  }
}
