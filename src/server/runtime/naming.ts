import crypto from 'node:crypto';

/**
 * SQL names derived from schema names. Module ids and field names are checked by the meta-schema
 * (kebab-case ids, camelCase fields), so the derived identifiers are safe to quote into DDL.
 */
export function tableNameOf(moduleId: string): string {
  return `m_${moduleId.replace(/-/g, '_')}`;
}

export function columnNameOf(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** PostgreSQL truncates identifiers at 63 bytes: long index names end in a short hash instead. */
export function indexNameOf(table: string, kind: 'idx' | 'uq' | 'chars', columns: string[]): string {
  const name = `${table}__${columns.join('_')}_${kind}`;
  if (name.length <= 63) return name;
  const hash = crypto.createHash('sha1').update(name).digest('hex').slice(0, 10);
  return `${name.slice(0, 63 - hash.length - 1)}_${hash}`;
}

/** Double-quoted identifier for DDL text (the names come from the schema, never from a request). */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
