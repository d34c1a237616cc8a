/**
 * Who may read a file attached to a module's records (issue 12): the same check the runtime makes for
 * `GET /api/m/<module>/:id`, the module's view permission and the record in the caller's data scope, for a
 * record that refers to the file in one of its file or image fields. Uploads name their module
 * (`moduleName`); the record is found by the reference its field stores (`/api/file/view?id=<key>&name=`).
 */
import { sql } from 'kysely';
import { hasAnyPermission, type SessionUser } from '../core/auth/session-user.js';
import type { Runtime } from './index.js';

interface AttachedFile {
  id: number;
  access_key: string;
  module_name: string | null;
}

/** true/false for a file of a runtime module, undefined when its module is none (core decides). */
export async function recordFileReadable(runtime: Runtime, user: SessionUser, file: AttachedFile): Promise<boolean | undefined> {
  const m = file.module_name ? runtime.module(file.module_name) : undefined;
  if (!m) return undefined;
  if (!hasAnyPermission(user, [m.permissions.view])) return false;
  const columns = m.columns.filter((f) => f.kind === 'string' && (f.schema.format === 'file' || f.schema.format === 'image')).map((f) => f.column!);
  if (!columns.length) return false;
  // The reference names the file by its key (or, written before keys, by its number).
  const pattern = `[?&]id=(${file.access_key}|${file.id})(&|$)`;
  let q = runtime.ctx.anyDb
    .selectFrom(m.table)
    .select('id')
    .where(sql<boolean>`(${sql.join(columns.map((c) => sql`${sql.ref(c)} ~ ${pattern}`), sql` OR `)})`);
  const scope = runtime.records(m.id).scopeCondition(await runtime.actorOf(user));
  if (scope) q = q.where(scope);
  return !!(await q.limit(1).executeTakeFirst());
}
