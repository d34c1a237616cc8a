/**
 * Data sources (数据源配置): what reports and the big-data view may read. A report names a source, never a
 * table; a source names a module, the fields it offers (with their labels) and who may use it. The
 * defaults are here; the module `stat-datasource` holds the school's configuration of them (labels,
 * fields, permissions, switched off), read over the defaults by code.
 *
 * A source may also be a relation another area defines over its own tables (the dues figures): its
 * `module` only names the area; it carries its fields and needs the owning area's report permission.
 */
import { sql, type RawBuilder } from 'kysely';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import { HttpError, STATUS_MESSAGES } from '../../errors.js';
import type { Runtime } from '../../runtime/index.js';
import type { FieldInfo, RuntimeModule } from '../../runtime/module.js';
import { yearFigures } from '../dues/index.js';
import { CHANGE_COLUMNS, memberChangeRows } from '../lifecycle/member-change.js';

/** A source over another area's tables: its rows for a report's year, and the fields they offer. */
export interface RelationSource {
  /** The rows (a parenthesised SELECT; the report engine aliases it). */
  from(ctx: { school: string; year: number }): RawBuilder<unknown>;
  fields: FieldInfo[];
  /** The organisation field the caller's data scope (and a filter by organisation) applies to. */
  orgField: string;
  /** The owning area's permission, needed whatever the configuration says. */
  permission: string;
}

export interface DataSource {
  code: string;
  title: string;
  module: string;
  /** Fields a report may use as dimensions or measures (empty: every stored field). */
  fields: string[];
  /** Permissions of which the user needs one besides the module's list permission (empty: none more). */
  permissions: string[];
  enabled: boolean;
  /** Set for a relation source (module then only names the area). */
  relation?: RelationSource;
}

const relationField = (name: string, column: string, title: string, kind: 'integer' | 'string', ref?: string): FieldInfo => ({
  name, title, column, kind, storage: kind, writable: false, schema: { type: kind, title }, ...(ref ? { ref } : {}),
});

/**
 * 党费收缴: the year's dues figures per batch and organisation, exactly as 党费统计 counts them
 * (dues/year-figures.ts; 中组发〔2008〕3号 on collecting dues monthly), in items (member-months) and cents.
 */
const DUES_RELATION: RelationSource = {
  from: ({ school, year }) =>
    sql`(SELECT f.*, substr(f.first_month, 1, 4) || '年' || substr(f.first_month, 6, 2) || '月' AS month FROM ${yearFigures(school, year)} f)`,
  fields: [
    relationField('orgId', 'org_id', '党组织', 'integer', 'org'),
    relationField('month', 'month', '月份', 'string'),
    relationField('members', 'members', '应缴人次', 'integer'),
    relationField('paidMembers', 'paid_members', '已缴人次', 'integer'),
    relationField('due', 'due_cents', '应交金额（元）', 'integer'),
    relationField('paid', 'paid_cents', '实交金额（元）', 'integer'),
  ],
  orgField: 'orgId',
  permission: 'dues-report:list',
};

/**
 * 党员增减变化 (issue 41 §5): per member and year 年初数, the increases and decreases by reason, 年末数,
 * from the records' dates as domain/lifecycle/member-change.ts defines them.
 */
const MEMBER_CHANGE_RELATION: RelationSource = {
  from: ({ school, year }) => memberChangeRows(school, year),
  fields: [relationField('orgId', 'org_id', '党组织', 'integer', 'org'), ...CHANGE_COLUMNS.map(([name, column, title]) => relationField(name, column, title, 'integer'))],
  orgField: 'orgId',
  permission: 'member:list',
};

export const DEFAULT_SOURCES: DataSource[] = [
  { code: 'members', title: '党员信息', module: 'member', fields: ['gender', 'ethnicity', 'birthDate', 'education', 'category', 'memberType', 'partyStatus', 'joinDate', 'fullDate', 'orgId', 'unitId', 'jobPost', 'degree'], permissions: [], enabled: true },
  { code: 'organisations', title: '党组织', module: 'org', fields: ['type', 'parentId', 'unitId', 'foundedOn', 'termEnd'], permissions: [], enabled: true },
  { code: 'development', title: '发展党员', module: 'development', fields: ['gender', 'orgId', 'stage', 'state', 'applyDate', 'activistDate', 'targetDate', 'admitDate', 'fullDate', 'category', 'education'], permissions: [], enabled: true },
  { code: 'study', title: '党校学习', module: 'pschool-student', fields: ['orgId', 'classId', 'status', 'onlineHours', 'offlineHours', 'hoursDone', 'completed'], permissions: [], enabled: true },
  { code: 'dues', title: '党费收缴', module: 'dues', fields: DUES_RELATION.fields.map((f) => f.name), permissions: [], enabled: true, relation: DUES_RELATION },
  { code: 'member-change', title: '党员增减变化', module: 'member-change', fields: MEMBER_CHANGE_RELATION.fields.map((f) => f.name), permissions: [], enabled: true, relation: MEMBER_CHANGE_RELATION },
];

const DATASOURCE_MODULE = 'stat-datasource';

/** A comma-separated list as the form keeps it; undefined when empty. */
function listOf(text: unknown): string[] | undefined {
  const items = typeof text === 'string' ? text.split(/[,，\s]+/).filter(Boolean) : [];
  return items.length ? items : undefined;
}

/** Every source: the defaults overlaid with the configured ones (the module's records, by code). */
export async function dataSources(runtime: Runtime): Promise<DataSource[]> {
  const byCode = new Map(DEFAULT_SOURCES.map((s) => [s.code, { ...s }]));
  const m = runtime.module(DATASOURCE_MODULE);
  if (m) {
    const rows = (await sql<Record<string, unknown>>`SELECT code, title, module, fields, permissions, enabled FROM ${sql.table(m.table)}`.execute(runtime.ctx.db)).rows;
    for (const r of rows) {
      const base = byCode.get(String(r.code));
      byCode.set(String(r.code), {
        code: String(r.code),
        title: String(r.title ?? base?.title ?? r.code),
        module: String(r.module ?? base?.module ?? ''),
        fields: listOf(r.fields) ?? base?.fields ?? [],
        permissions: listOf(r.permissions) ?? base?.permissions ?? [],
        enabled: r.enabled !== false,
        ...(base?.relation ? { relation: base.relation } : {}),
      });
    }
  }
  return [...byCode.values()];
}

/** Whether a user may use a source: it is on, they may list its module (or hold its area's permission), and hold one of its permissions. */
export function mayUse(runtime: Runtime, user: SessionUser, s: DataSource): boolean {
  if (!s.enabled) return false;
  const m = s.relation ? undefined : runtime.module(s.module);
  if (s.relation ? !hasAnyPermission(user, [s.relation.permission]) : !m || !hasAnyPermission(user, [m.permissions.list])) return false;
  return !s.permissions.length || hasAnyPermission(user, s.permissions);
}

/** The source (and its module, unless it is a relation) for a user; 400 when it is unknown or off, 403 when they may not use it. */
export async function sourceFor(runtime: Runtime, user: SessionUser, code: string): Promise<{ source: DataSource; module?: RuntimeModule }> {
  const source = (await dataSources(runtime)).find((s) => s.code === code);
  const module = source && !source.relation ? runtime.module(source.module) : undefined;
  if (!source || !source.enabled || (!source.relation && !module)) throw new HttpError(400, `数据源“${code}”不存在或已停用`);
  if (!mayUse(runtime, user, source)) throw new HttpError(403, STATUS_MESSAGES[403]);
  return { source, module };
}
