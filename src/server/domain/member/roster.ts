import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import { ChangeRecordOriginLabel, ChangeRecordTypeLabel, ExportType } from '../../../shared/constants.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { scopeOrgIds } from '../../core/auth/org-scope.js';
import { hasAnyPermission } from '../../core/auth/session-user.js';
import { HttpError } from '../../errors.js';
import { exportCell } from '../../runtime/cells.js';
import { exportXlsx } from '../../runtime/export-job.js';
import { menuPageLink } from '../../runtime/workflow/links.js';
import { maskRecords } from '../../runtime/sensitive.js';
import { likeContains, parsePaging } from '../../core/paging.js';
import { memberCondition, memberStatusOf, requestedOrgIds } from './members.js';

/**
 * Which change records of organisations and units a data scope reads (`c` is change_records): an
 * organisation's when it lies in the scope, a unit's when an organisation in the scope belongs to it.
 */
export function orgTrailScope(scope: number[] | 'all'): RawBuilder<boolean> {
  if (scope === 'all') return sql<boolean>`true`;
  if (!scope.length) return sql<boolean>`false`;
  const ids = sql.join(scope);
  return sql<boolean>`((c.module = 'org' AND c.record_id IN (${ids})) OR (c.module = 'unit' AND c.record_id IN (SELECT unit_id FROM m_org WHERE id IN (${ids}) AND unit_id IS NOT NULL)))`;
}

/** Records read per step: small, so each batch is garbage before it is promoted (see runtime/export.ts). */
const BATCH = 500;

/** Member ids of the roster: the organisation's members (members.ts) within the caller's scope, in organisation then name order. */
async function rosterIds(req: FastifyRequest): Promise<number[]> {
  const where = memberCondition(await requestedOrgIds(req), memberStatusOf((req.query as { partyStatus?: string }).partyStatus));
  // Names in pinyin order (the member module's sort key).
  const byName = sql.ref(req.server.runtime.module('member')?.pinyinColumn ?? 'name');
  const rows = await sql<{ id: number }>`SELECT id FROM m_member WHERE ${where} ORDER BY org_id, ${byName}, id`.execute(req.server.services.database.db);
  return rows.rows.map((r) => r.id);
}

/**
 * The member roster (花名册) as .xlsx: the chosen columns of the member schema (dictionary labels and
 * organisation names written out), streamed in batches so 100,000 rows keep memory flat; over
 * `exportInlineMax` members a job (runtime/export-job.ts) whose message leads back to 花名册.
 */
export async function memberRosterRoutes(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  const member = runtime.module('member');
  if (!member) return;

  app.get('/api/member/roster/export', { config: perm('member:export', 'member:list') }, async (req, reply) => {
    const q = req.query as { columns?: string | string[]; title?: string };
    const requested = ([] as string[]).concat(q.columns ?? []).flatMap((c) => c.split(',')).filter(Boolean);
    const fields = (requested.length ? requested : member.listFields).map((name) => {
      const field = member.field(name);
      if (!field) throw new HttpError(400, `花名册不支持的列：${name}`);
      return field;
    });
    const ids = await rosterIds(req);
    const title = (q.title || '党员花名册').slice(0, 60);
    const service = runtime.records('member');
    return exportXlsx(app, reply, {
      filename: `${title}.xlsx`,
      title,
      rows: ids.length,
      ownerId: currentUser(req).id,
      exportType: ExportType.AUTO,
      page: await menuPageLink(runtime.ctx, 'core:member-roster'),
      useStyles: true,
      fill: async (book, addRow, progress) => {
        const sheet = book.addWorksheet('花名册');
        sheet.columns = [{ key: 'no', width: 8 }, ...fields.map((f) => ({ key: f.name, width: Math.max(12, f.title.length * 2 + 4) }))];
        await addRow(sheet, [`${title}（共${ids.length}人，导出时间：${new Date().toLocaleString('zh-CN', { hour12: false })}）`], { bold: true, size: 14 });
        await addRow(sheet, ['序号', ...fields.map((f) => f.title)], { bold: true });
        let n = 0;
        for (let start = 0; start < ids.length; start += BATCH) {
          // Identity-card numbers leave masked, as in every list and export (runtime/sensitive.ts).
          const records = maskRecords(member, await service.recordsByIds(ids.slice(start, start + BATCH), fields));
          for (const record of records) await addRow(sheet, [++n, ...fields.map((f) => exportCell(f, record))]);
          await progress(n);
        }
        sheet.commit();
      },
    });
  });

  // The modification trail of units and organisations together (单位与组织修改痕迹): a record's history is
  // part of its detail, so it needs the view permission, or the page's own (its menu entry's), and the data
  // scope always (trail-scope.ts).
  const orgView = runtime.module('org')?.permissions.view ?? 'org:view';
  const unitView = runtime.module('unit')?.permissions.view ?? 'unit:view';
  app.get('/api/trail/orgs', { config: perm(orgView, unitView, 'org-trail:list') }, async (req) => {
    const paging = parsePaging(req.query, { at: 'c.at' }, [['c.at', 'desc']]);
    const q = req.query as { module?: string; keyword?: string };
    const user = currentUser(req);
    // The page's own permission shows both kinds; a view permission alone shows its kind.
    const modules = (q.module === 'org' || q.module === 'unit' ? [q.module] : ['org', 'unit']).filter((m) => hasAnyPermission(user, ['org-trail:list', m === 'org' ? orgView : unitView]));
    const keyword = q.keyword?.trim() ? likeContains(q.keyword.trim()) : null;
    const db = app.services.database.db;
    const scope = await scopeOrgIds(app.services.orgTree, user.dataScope);
    const where = sql`c.module IN (${sql.join(modules.length ? modules : [''])}) AND ${orgTrailScope(scope)} AND (${keyword}::text IS NULL OR coalesce(o.name, u.name) ILIKE ${keyword} OR c.username ILIKE ${keyword})`;
    const from = sql`change_records c LEFT JOIN m_org o ON c.module = 'org' AND o.id = c.record_id LEFT JOIN m_unit u ON c.module = 'unit' AND u.id = c.record_id`;
    const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${from} WHERE ${where}`.execute(db)).rows[0].n;
    const rows = await sql<Record<string, unknown>>`
      SELECT c.id, c.module, c.record_id AS "recordId", coalesce(o.name, u.name) AS "recordName", c.type, c.origin, c.changes,
             c.username, c.at
      FROM ${from} WHERE ${where} ORDER BY c.at DESC, c.id DESC LIMIT ${paging.limit} OFFSET ${paging.offset}`.execute(db);
    const content = rows.rows.map((r) => ({
      ...r,
      moduleTitle: r.module === 'org' ? '党组织' : '单位',
      typeLabel: ChangeRecordTypeLabel[r.type as 1 | 2],
      originLabel: ChangeRecordOriginLabel[r.origin as 1 | 2 | 3 | 4 | 5],
    }));
    return { content, totalElements: total };
  });
}
