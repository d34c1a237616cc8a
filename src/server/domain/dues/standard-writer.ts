import { sql, type Kysely } from 'kysely';
import { ChangeRecordOrigin, ChangeRecordType } from '../../../shared/constants.js';
import type { FieldChange } from '../../../shared/module-schema/api.js';
import type { DuesCategory } from '../../../shared/dues/rules.js';
import type { DB } from '../../db/types.js';
import type { Actor } from '../../runtime/index.js';
import type { Runtime } from '../../runtime/index.js';
import { pinyinKey } from '../../runtime/pinyin.js';
import type { TrailEntry } from '../../runtime/trail.js';
import type { Bands } from './settings.js';
import { sameBase, standardValues, type StandardFields, type StandardMember } from './standard-values.js';
import { duesDb } from './tables.js';
import type { WriteCounts } from '../../../shared/dues/api.js';

export interface StandardInput {
  member: StandardMember;
  category: DuesCategory;
  baseCents: number | null;
  source: string;
}

/** Rows per transaction: a big import commits as it goes, each chunk whole or not at all. */
const CHUNK = 5000;
/** Chunks written at once. */
const PARALLEL = 2;

/** The columns of a standard's row in the JSON documents of the bulk statements. */
const ROW_TYPES = sql.raw('member_id int, member_name text, name_key text, org_id int, category text, base text, rate text, amount text, rule text, source text');

/**
 * The fields a bulk write compares, with their trail titles (as in schemas/modules/dues-standard.json).
 * `traced`: kept in the change record; the member's name, branch and the rule's words follow from the others.
 */
const FIELDS: [keyof StandardFields | 'year', string, boolean][] = [
  ['memberId', '党员', true],
  ['memberName', '姓名', false],
  ['orgId', '所在党支部', false],
  ['year', '年度', true],
  ['category', '缴纳类别', true],
  ['base', '党费基数（元/月）', true],
  ['rate', '交纳比例', true],
  ['amount', '每月应交（元）', true],
  ['rule', '适用规定', false],
  ['source', '来源', true],
];

type Stored = Record<string, unknown> & { id: number; version: number };

/**
 * Writes many standards of one year at once (payroll import, generation by the rules, demo data): the
 * same values the hook `dues.standard` computes, inserted or updated in bulk, with a change record per
 * written row (origin SYSTEM_IMPORT / SYSTEM_IMPORT_UPDATE, or USER_CREATE / USER_UPDATE), so the trail
 * of every standard shows how it was set. Unchanged rows are left alone.
 */
export async function writeStandards(
  runtime: Runtime,
  school: string,
  year: number,
  inputs: StandardInput[],
  bands: Bands,
  actor: Actor,
  options: { imported: boolean; categoryLabels: Map<string, string>; trx?: Kysely<DB> },
): Promise<WriteCounts> {
  const counts: WriteCounts = { created: 0, updated: 0, unchanged: 0 };
  const module = runtime.module('dues-standard')!;
  // Inside a caller's transaction (a workflow step bringing a member in): one chunk, committed with the step.
  if (options.trx) {
    await writeChunk(options.trx, school, year, inputs, bands, actor, options, counts, module);
    return counts;
  }
  const db = runtime.ctx.db;
  // Two chunks at once (two connections on PostgreSQL): one is prepared while the other is written, and
  // the database works on both cores. A failing chunk stops the import; the other one under way may commit.
  const writeOne = async (chunk: StandardInput[]) => {
    const ids = await db.transaction().execute(async (trx) => writeChunk(trx, school, year, chunk, bands, actor, options, counts, module));
    if (ids.created.length) runtime.events.emit('write', { module: 'dues-standard', action: 'create', ids: ids.created });
    if (ids.updated.length) runtime.events.emit('write', { module: 'dues-standard', action: 'update', ids: ids.updated });
  };
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (next < inputs.length && !failed) {
      const start = next;
      next += CHUNK;
      try {
        await writeOne(inputs.slice(start, start + CHUNK));
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const settled = await Promise.allSettled(Array.from({ length: PARALLEL }, worker));
  const refused = settled.find((r) => r.status === 'rejected');
  if (refused) throw refused.reason;
  return counts;
}

async function writeChunk(
  trx: Kysely<DB>,
  school: string,
  year: number,
  chunk: StandardInput[],
  bands: Bands,
  actor: Actor,
  options: { imported: boolean; categoryLabels: Map<string, string> },
  counts: WriteCounts,
  module: NonNullable<ReturnType<Runtime['module']>>,
): Promise<{ created: number[]; updated: number[] }> {
  const d = duesDb(trx);
  const memberIds = chunk.map((i) => i.member.id);
  const existing = new Map<number, Stored>();
  const rows = await sql<Stored>`SELECT id, version, member_id AS "memberId", member_name AS "memberName", org_id AS "orgId", year, category, base, rate, amount, rule, source
    FROM m_dues_standard WHERE year = ${year} AND member_id = ANY(${memberIds}::int[])`.execute(trx);
  for (const r of rows.rows) existing.set(r.memberId as number, r);
  const orgIds = [...new Set([...chunk.map((i) => i.member.orgId), ...rows.rows.map((r) => r.orgId as number)])];
  const orgNames = new Map((await d.selectFrom('m_org').select(['id', 'name']).where('id', 'in', orgIds).execute()).map((o) => [o.id, o.name]));

  const creates: { values: StandardFields; changes: FieldChange[] }[] = [];
  const updates: { id: number; values: StandardFields; changes: FieldChange[] }[] = [];
  for (const input of chunk) {
    const values = standardValues(input.member, input.category, input.baseCents, bands, input.source);
    const before = existing.get(input.member.id);
    const after: Record<string, unknown> = { ...values, year };
    let changed = false;
    const changes = FIELDS.flatMap(([field, title, traced]) => {
      const b = before ? (before[field] ?? null) : null;
      const a = after[field] ?? null;
      const same = field === 'base' ? sameBase(a, b) : a === b;
      if (same && before) return [];
      changed = true;
      if ((!before && a === null) || !traced) return [];
      const change: FieldChange = { field, title, before: b, after: a };
      if (field === 'memberId') Object.assign(change, { beforeLabel: b === null ? null : (before?.memberName as string), afterLabel: values.memberName });
      if (field === 'orgId') Object.assign(change, { beforeLabel: b === null ? null : (orgNames.get(b as number) ?? null), afterLabel: orgNames.get(a as number) ?? null });
      if (field === 'category') Object.assign(change, { beforeLabel: b === null ? null : (options.categoryLabels.get(String(b)) ?? String(b)), afterLabel: options.categoryLabels.get(String(a)) ?? String(a) });
      return [change];
    });
    if (!before) creates.push({ values, changes });
    else if (changed) updates.push({ id: before.id, values, changes });
    else counts.unchanged++;
  }

  // Rows travel as one JSON document per statement (jsonb_to_recordset): one parameter instead of one per
  // value, which PostgreSQL binds and parses far faster for thousands of rows.
  // The name's pinyin sort key, as the runtime writes it (the list sorts by it).
  const key = module.pinyinColumn;
  const keyOf = (name: unknown) => (key ? pinyinKey(name) : null);
  const keyInsert = key ? sql`, ${sql.ref(key)}` : sql``;
  const keyValue = key ? sql`, x.name_key` : sql``;
  const keySet = key ? sql`${sql.ref(key)} = v.name_key,` : sql``;
  const created: number[] = [];
  if (creates.length) {
    const rows = creates.map(({ values: v }) => ({ member_id: v.memberId, member_name: v.memberName, name_key: keyOf(v.memberName), org_id: v.orgId, category: v.category, base: v.base, rate: v.rate, amount: v.amount, rule: v.rule, source: v.source }));
    const inserted = await sql<{ id: number; memberId: number }>`
      INSERT INTO m_dues_standard (school, member_id, member_name${keyInsert}, org_id, year, category, base, rate, amount, rule, source, remark, created_by, updated_by)
      SELECT ${school}, x.member_id, x.member_name${keyValue}, x.org_id, ${year}::int, x.category, x.base, x.rate, x.amount, x.rule, x.source, NULL, ${actor.id}::int, ${actor.id}::int
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(${ROW_TYPES})
      RETURNING id, member_id AS "memberId"`.execute(trx);
    const idOf = new Map(inserted.rows.map((r) => [r.memberId, r.id]));
    created.push(...creates.map((c) => idOf.get(c.values.memberId)!));
  }
  if (updates.length) {
    const rows = updates.map(({ id, values: v }) => ({ id, member_name: v.memberName, name_key: keyOf(v.memberName), org_id: v.orgId, category: v.category, base: v.base, rate: v.rate, amount: v.amount, rule: v.rule, source: v.source }));
    await sql`UPDATE m_dues_standard t SET member_name = v.member_name, ${keySet} org_id = v.org_id, category = v.category, base = v.base, rate = v.rate, amount = v.amount,
        rule = v.rule, source = v.source, version = t.version + 1, updated_at = now(), updated_by = ${actor.id}
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(id int, ${ROW_TYPES}) WHERE t.id = v.id`.execute(trx);
  }
  const entries: TrailEntry[] = [
    ...creates.map((c, i) => ({ recordId: created[i], type: ChangeRecordType.ADD, origin: options.imported ? ChangeRecordOrigin.SYSTEM_IMPORT : ChangeRecordOrigin.USER_CREATE, changes: c.changes })),
    ...updates.map((u) => ({ recordId: u.id, type: ChangeRecordType.UPDATE, origin: options.imported ? ChangeRecordOrigin.SYSTEM_IMPORT_UPDATE : ChangeRecordOrigin.USER_UPDATE, changes: u.changes })),
  ];
  await recordMany(trx, module, entries, actor);
  counts.created += creates.length;
  counts.updated += updates.length;
  return { created, updated: updates.map((u) => u.id) };
}

/**
 * The change records of a chunk, as recordChanges (runtime/trail.ts) writes them, in one statement fed by
 * one JSON document: thousands of rows bind and parse far faster so than with ten parameters a row.
 */
async function recordMany(trx: Kysely<DB>, module: NonNullable<ReturnType<Runtime['module']>>, entries: TrailEntry[], actor: Actor): Promise<void> {
  if (!module.trail) return;
  const rows = entries.filter((e) => e.type === ChangeRecordType.ADD || e.changes.length > 0).map((e) => ({ record_id: e.recordId, type: e.type, origin: e.origin, changes: e.changes }));
  if (!rows.length) return;
  await sql`INSERT INTO change_records (module, module_code, record_id, type, origin, changes, user_id, username)
    SELECT ${module.id}, ${module.trail.moduleCode}::int, x.record_id, x.type, x.origin, x.changes, ${actor.id}::int, ${actor.username}
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(record_id int, type smallint, origin smallint, changes jsonb)`.execute(trx);
}
