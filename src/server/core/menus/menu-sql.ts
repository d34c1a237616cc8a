import { keyOf, type MenuRow } from './service.js';

/** The columns an export carries; ids are not portable, so parents are found by key. */
const EXPORTED = ['key', 'parent_id', 'type', 'title', 'path', 'icon', 'component', 'permission', 'sort', 'hidden', 'no_cache', 'affix', 'always_show', 'breadcrumb', 'redirect', 'feature', 'edited_at'] as const;

function literal(value: string | number | boolean | null): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  // standard_conforming_strings (on by default since PostgreSQL 9.1): only quotes need doubling.
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * SQL that recreates `rows` (parents before children, as `subtreeRows` returns them) in another
 * deployment: one INSERT per node keyed by `key`, the parent looked up by its key (`allRows` name the
 * parent of a subtree's root), an existing node of the same key brought in line. Imported nodes count as edited, so that deployment's file sync keeps them.
 */
export function menuSql(rows: MenuRow[], allRows: MenuRow[], generatedAt = new Date()): string {
  const keyById = new Map(allRows.map((r) => [r.id, keyOf(r)]));
  const lines = [
    `-- 党建工作管理系统 menu export: ${rows.length} node(s), ${generatedAt.toISOString()}`,
    '-- Run against the target database (psql -f file.sql). Nodes are matched by key; parents before children.',
    'BEGIN;',
  ];
  for (const row of rows) {
    const parent = row.parent_id === null ? 'NULL' : `(SELECT id FROM menus WHERE key = ${literal(keyById.get(row.parent_id) ?? keyOf({ id: row.parent_id, key: null }))})`;
    const values = [
      literal(keyOf(row)), parent, literal(row.type), literal(row.title), literal(row.path), literal(row.icon), literal(row.component),
      literal(row.permission), literal(row.sort), literal(row.hidden), literal(row.no_cache), literal(row.affix), literal(row.always_show),
      literal(row.breadcrumb), literal(row.redirect), literal(row.feature), 'now()',
    ];
    const updates = EXPORTED.filter((c) => c !== 'key').map((c) => `${c} = EXCLUDED.${c}`);
    lines.push(
      `INSERT INTO menus (${EXPORTED.join(', ')}) VALUES (${values.join(', ')})\n  ON CONFLICT (key) DO UPDATE SET ${updates.join(', ')}, updated_at = now();`,
    );
  }
  lines.push('COMMIT;', '');
  return lines.join('\n');
}
