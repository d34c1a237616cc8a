/**
 * 综合查询: `POST /api/query/run` runs a where tree (where.ts) through the runtime's own list
 * (runtime/list.ts, as extra conditions), so the records, their labels, masking and the caller's data
 * scope are exactly the module list's. Columns may be the module's fields or reference paths; the
 * latter are read for the page's records only. A query may read a data snapshot's records of the module
 * instead of live data (`snapshot`), through the same list.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- module tables exist only at run time */
import { sql, type AliasedRawBuilder, type Kysely } from 'kysely';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import { HttpError, STATUS_MESSAGES } from '../../errors.js';
import type { Runtime } from '../../runtime/index.js';
import type { RuntimeModule } from '../../runtime/module.js';
import type { Actor } from '../../runtime/hooks.js';
import { readVisible, serveRecords } from '../../runtime/read-policy.js';
import type { Condition } from '../../runtime/query.js';
import type { QueryRequest } from '../../../shared/statistics.js';
import { snapshotInfo, snapshotRelation } from './snapshots.js';
import { compileWhere, resolvePath, type ResolvedPath } from './where.js';

const MAX_COLUMNS = 40;

/** The module a caller queries: known (else 400) and readable by them (else 403). */
export function queryModule(runtime: Runtime, user: SessionUser, id: unknown): RuntimeModule {
  const m = typeof id === 'string' ? runtime.module(id) : undefined;
  if (!m) throw new HttpError(400, `不存在可查询的模块“${String(id ?? '')}”`);
  if (!hasAnyPermission(user, [m.permissions.list])) throw new HttpError(403, STATUS_MESSAGES[403]);
  return m;
}

export interface CompiledQuery {
  module: RuntimeModule;
  conditions: Condition[];
  /** Own fields beyond the list columns, and reference paths. */
  own: string[];
  paths: { path: string; resolved: ResolvedPath }[];
  allFields: boolean;
  query: Record<string, unknown>;
  /** The snapshot queried instead of live data, and its records as a relation (the runtime list's `from`). */
  snapshot?: { id: number; title: string; takenAt: string };
  from?: AliasedRawBuilder<unknown, string>;
}

/** Checks and compiles a request; throws 400 before anything runs. */
export async function compileQuery(runtime: Runtime, user: SessionUser, body: unknown): Promise<CompiledQuery> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, '查询的格式不正确');
  const req = body as QueryRequest;
  const m = queryModule(runtime, user, req.module);
  const condition = await compileWhere({ registry: runtime.registry, orgTree: runtime.ctx.orgTree, actor: await runtime.actorOf(user) }, m, req.where);
  const columns = req.columns === undefined ? [] : req.columns;
  if (!Array.isArray(columns) || columns.length > MAX_COLUMNS || columns.some((c) => typeof c !== 'string')) throw new HttpError(400, '查询的列不正确');
  const own: string[] = [];
  const paths: CompiledQuery['paths'] = [];
  for (const c of columns) {
    // Own fields may be computed ones (age): the list computes them; paths end at stored fields.
    if (!c.includes('.') && (m.field(c) || c === 'id')) own.push(c);
    else paths.push({ path: c, resolved: resolvePath(runtime.registry, m, c) });
  }
  // Fields beyond the list columns are the detail's: they need the module's view permission (as list?fields=all).
  const allFields = own.some((c) => !m.listFields.includes(c) && c !== 'id');
  if ((allFields || paths.length) && !hasAnyPermission(user, [m.permissions.view])) throw new HttpError(403, STATUS_MESSAGES[403]);
  // Each step of a path reads the target module's records as its detail would: its view permission first.
  for (const { resolved } of paths) {
    const denied = resolved.hops.find((h) => !hasAnyPermission(user, [h.target.permissions.view]));
    if (denied) throw new HttpError(403, `无权查看“${denied.target.title}”的记录（${resolved.title}）`);
  }
  const sort = req.sort === undefined ? undefined : ([] as unknown[]).concat(req.sort);
  if (sort && sort.some((s) => typeof s !== 'string')) throw new HttpError(400, '排序的格式不正确');
  const query = { page: req.page ?? 0, size: req.size ?? 20, ...(sort?.length ? { sort } : {}) };
  // A snapshot's records of the module, queried as the live ones are (same operators, scope and columns).
  const snapshotId = req.snapshot === undefined || req.snapshot === null ? undefined : req.snapshot;
  if (snapshotId !== undefined && (!Number.isSafeInteger(snapshotId) || snapshotId <= 0)) throw new HttpError(400, '数据快照不正确');
  const snapshot = snapshotId === undefined ? undefined : await snapshotInfo(runtime, snapshotId, m.id);
  return { module: m, conditions: condition ? [condition] : [], own, paths, allFields, query, ...(snapshot ? { snapshot, from: snapshotRelation(m, snapshot.id) } : {}) };
}

/** Keeps the chosen columns of a list record (with their labels and names) and its id and version. */
function project(record: Record<string, unknown>, own: string[]): Record<string, unknown> {
  if (!own.length) return record;
  const out: Record<string, unknown> = { id: record.id, version: record.version };
  for (const c of own) for (const key of [c, `${c}Label`, `${c}Name`]) if (key in record) out[key] = record[key];
  return out;
}

/**
 * The values of reference paths for these records: `path` (stored value) and `pathLabel` (shown text).
 * The first step reads the records' own references (where the records are: a snapshot's); every record
 * a step reaches is read through the runtime's read policy (runtime/read-policy.ts): the target module's
 * view permission (checked when the query was compiled), the caller's read scope on that record (a record
 * outside it answers nothing, an organisation outside it its public fields only), masking unless the
 * caller may edit that record, and the log of each whole value served.
 */
async function readPaths(runtime: Runtime, actor: Actor, address: string, m: RuntimeModule, records: Record<string, unknown>[], paths: CompiledQuery['paths'], from?: CompiledQuery['from']): Promise<void> {
  const db = runtime.ctx.anyDb as Kysely<any>;
  for (const { path, resolved } of paths) {
    const f = resolved.field;
    const [first, ...rest] = resolved.hops;
    // record id → the record reached so far (undefined: nothing there, or not for this caller).
    const ownIds = records.map((r) => r.id as number);
    const rows = ownIds.length ? await db.selectFrom((from ?? m.table) as string).select(['id', sql.ref(first.field.column!).as('v')]).where(sql<boolean>`id = ANY(${ownIds}::int[])`).execute() : [];
    const firstRef = new Map((rows as { id: number; v: number | null }[]).map((r) => [r.id, r.v]));
    let reached = await readVisible(runtime.ctx, first.target, actor, [...firstRef.values()].filter((v): v is number => typeof v === 'number'), { address });
    let current = new Map(ownIds.map((id) => [id, reached.get(firstRef.get(id) as number)]));
    for (const hop of rest) {
      const next = [...current.values()].map((r) => r?.[hop.field.name]).filter((v): v is number => typeof v === 'number');
      reached = await readVisible(runtime.ctx, hop.target, actor, next, { address });
      current = new Map([...current].map(([id, r]) => [id, typeof r?.[hop.field.name] === 'number' ? reached.get(r[hop.field.name] as number) : undefined]));
    }
    for (const r of records) {
      const target = current.get(r.id as number);
      let v = target ? (target[f.name] ?? null) : null;
      if (v instanceof Date) v = f.kind === 'date' ? v.toISOString().slice(0, 10) : v.toISOString();
      r[path] = v;
      const shown = target?.[`${f.name}Label`] ?? target?.[`${f.name}Name`];
      r[`${path}Label`] = v == null ? '' : typeof shown === 'string' ? shown : f.ref ? '' : String(v);
    }
  }
}

/** Runs a compiled query: the runtime's list answer, projected to the columns. */
export async function runQuery(runtime: Runtime, user: SessionUser, q: CompiledQuery, address: string): Promise<{ content: Record<string, unknown>[]; totalElements: number }> {
  const actor = await runtime.actorOf(user);
  const page = await runtime.records(q.module.id).list({ conditions: q.conditions, query: q.query, allFields: q.allFields, count: true, from: q.from }, actor);
  await serveRecords(runtime.ctx, q.module, actor, page.content, { mode: 'list', address });
  const content = page.content.map((r) => project(r, q.own));
  if (q.paths.length) await readPaths(runtime, actor, address, q.module, content, q.paths, q.from);
  return { content, totalElements: page.totalElements ?? content.length };
}
