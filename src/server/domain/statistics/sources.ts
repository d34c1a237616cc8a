/**
 * Data sources (数据源配置): what reports and the big-data view may read. A report names a source, never a
 * table; a source names a module, the fields it offers (with their labels) and who may use it. The
 * defaults are here; the module `stat-datasource` holds the school's configuration of them (labels,
 * fields, permissions, switched off), read over the defaults by code.
 */
import { sql } from 'kysely';
import { hasAnyPermission, type SessionUser } from '../../core/auth/session-user.js';
import { HttpError, STATUS_MESSAGES } from '../../errors.js';
import type { Runtime } from '../../runtime/index.js';
import type { RuntimeModule } from '../../runtime/module.js';

export interface DataSource {
  code: string;
  title: string;
  module: string;
  /** Fields a report may use as dimensions or measures (empty: every stored field). */
  fields: string[];
  /** Permissions of which the user needs one besides the module's list permission (empty: none more). */
  permissions: string[];
  enabled: boolean;
}

export const DEFAULT_SOURCES: DataSource[] = [
  { code: 'members', title: '党员信息', module: 'member', fields: ['gender', 'ethnicity', 'birthDate', 'education', 'category', 'memberType', 'partyStatus', 'joinDate', 'fullDate', 'orgId', 'unitId', 'jobPost', 'degree'], permissions: [], enabled: true },
  { code: 'organisations', title: '党组织', module: 'org', fields: ['type', 'parentId', 'unitId', 'foundedOn', 'termEnd'], permissions: [], enabled: true },
  { code: 'development', title: '发展党员', module: 'development', fields: ['gender', 'orgId', 'stage', 'state', 'applyDate', 'activistDate', 'targetDate', 'admitDate', 'fullDate', 'category', 'education'], permissions: [], enabled: true },
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
      });
    }
  }
  return [...byCode.values()];
}

/** Whether a user may use a source: it is on, its module exists and they may list it, and hold one of its permissions. */
export function mayUse(runtime: Runtime, user: SessionUser, s: DataSource): RuntimeModule | undefined {
  const m = runtime.module(s.module);
  if (!s.enabled || !m || !hasAnyPermission(user, [m.permissions.list])) return undefined;
  if (s.permissions.length && !hasAnyPermission(user, s.permissions)) return undefined;
  return m;
}

/** The source and its module for a user; 400 when it is unknown or off, 403 when they may not use it. */
export async function sourceFor(runtime: Runtime, user: SessionUser, code: string): Promise<{ source: DataSource; module: RuntimeModule }> {
  const source = (await dataSources(runtime)).find((s) => s.code === code);
  if (!source || !source.enabled || !runtime.module(source.module)) throw new HttpError(400, `数据源“${code}”不存在或已停用`);
  const m = mayUse(runtime, user, source);
  if (!m) throw new HttpError(403, STATUS_MESSAGES[403]);
  return { source, module: m };
}
