/**
 * Pages of the development area beyond the module API (/api/m/development):
 * - `GET /api/development/funnel?orgId=`        applications per stage (DJ_FZ_JD) and state, in the caller's scope
 * - `GET /api/development/records?q=&orgId=`    applications to choose from on the 发展纪实 page
 * - `GET /api/development/{id}/record`          the whole record of one application (发展纪实): fields, steps, log, other applications
 * - `GET /api/development/pipeline/export?orgId=` the pipeline of an organisation as .xlsx (one row per application)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { stageOfState } from '../../../shared/development/steps.js';
import { currentUser, perm } from '../../core/auth/guard.js';
import { likeContains, parsePaging } from '../../core/paging.js';
import { streamXlsx } from '../../core/xlsx.js';
import { HttpError } from '../../errors.js';
import { exportCell } from '../../runtime/cells.js';
import { maskIdCard } from '../../runtime/sensitive.js';
import { endedUnfinishedStates } from '../../runtime/workflow/states.js';

const STAGES: [string, string][] = [['1', '入党申请人'], ['2', '入党积极分子'], ['3', '发展对象'], ['4', '预备党员'], ['5', '正式党员']];
const RECORD_PERMS = ['development-record:list', 'development-process:list'];

/** The organisations an answer covers: the caller's scope, narrowed to an organisation's subtree when one is asked for. */
async function orgCondition(req: FastifyRequest): Promise<RawBuilder<SqlBool>> {
  const { orgTree } = req.server.services;
  const { runtime } = req.server;
  const actor = await runtime.actorOf(currentUser(req));
  const raw = (req.query as { orgId?: string }).orgId;
  let ids: number[] | 'all' = actor.scope;
  if (raw !== undefined && raw !== '') {
    const orgId = Number(raw);
    if (!Number.isSafeInteger(orgId) || orgId <= 0) throw new HttpError(400, '所选党组织不正确', { errors: [{ field: 'orgId', message: '所选党组织不正确' }] });
    const sub = await orgTree.subtreeIds([orgId]);
    ids = ids === 'all' ? sub : sub.filter((id) => (ids as number[]).includes(id));
  }
  if (ids === 'all') return sql<SqlBool>`true`;
  return ids.length ? sql<SqlBool>`org_id = ANY(${ids}::int[])` : sql<SqlBool>`false`;
}

export async function developmentRoutes(app: FastifyInstance): Promise<void> {
  const { runtime } = app;
  const { database } = app.services;
  const m = runtime.module('development');
  if (!m) return;
  const wf = m.workflow!;
  const db = database.db;
  // Not passed, withdrawn (…): read from the school-merged schema, not listed by hand (issue 24 §3.8).
  const ended = endedUnfinishedStates(m);

  app.get('/api/development/funnel', { config: perm('development-process:list') }, async (req) => {
    const where = await orgCondition(req);
    const rows = await sql<{ state: number; n: number }>`SELECT state, count(*)::int AS n FROM m_development WHERE ${where} GROUP BY state`.execute(db);
    const byStage = new Map<string, number>();
    for (const r of rows.rows) {
      const stage = ended.includes(r.state) ? null : stageOfState(r.state);
      if (stage) byStage.set(stage, (byStage.get(stage) ?? 0) + r.n);
    }
    // Each figure names the states it counts, so the list it opens filters on exactly those (issue 33.11):
    // `count` those at the stage now, `reached` those at it or beyond (the funnel, never widening).
    const statesOf = (stage: string) => Object.keys(wf.schema.states).map(Number).filter((c) => !ended.includes(c) && stageOfState(c) === stage);
    return {
      stages: STAGES.map(([value, title], i) => ({
        value,
        title,
        count: byStage.get(value) ?? 0,
        states: statesOf(value),
        reached: STAGES.slice(i).reduce((sum, [v]) => sum + (byStage.get(v) ?? 0), 0),
        reachedStates: STAGES.slice(i).flatMap(([v]) => statesOf(v)),
      })),
      states: Object.keys(wf.schema.states).map((code) => ({ code: Number(code), title: wf.stateTitle(code), count: rows.rows.find((r) => r.state === Number(code))?.n ?? 0 })),
      ended: rows.rows.filter((r) => ended.includes(r.state)).reduce((s, r) => s + r.n, 0),
      total: rows.rows.reduce((s, r) => s + r.n, 0),
    };
  });

  app.get('/api/development/records', { config: perm(...RECORD_PERMS) }, async (req) => {
    const where = await orgCondition(req);
    const q = String((req.query as { q?: string }).q ?? '').trim();
    const paging = parsePaging(req.query, {}, [['id', 'desc']]);
    const match = q ? sql<SqlBool>`(name ILIKE ${likeContains(q)} OR id_card = ${q} OR person_no = ${q})` : sql<SqlBool>`true`;
    const [rows, count] = await Promise.all([
      sql<{ id: number; name: string; idCard: string; state: number; orgId: number | null; applyDate: string | null }>`
        SELECT id, name, id_card AS "idCard", state, org_id AS "orgId", apply_date AS "applyDate" FROM m_development
        WHERE ${where} AND ${match} ORDER BY id DESC LIMIT ${paging.limit} OFFSET ${paging.offset}`.execute(db),
      sql<{ n: number }>`SELECT count(*)::int AS n FROM m_development WHERE ${where} AND ${match}`.execute(db),
    ]);
    const names = await runtime.ctx.refNames('org', [...new Set(rows.rows.map((r) => r.orgId).filter((x): x is number => x !== null))]);
    return {
      content: rows.rows.map((r) => ({ ...r, idCard: r.idCard && maskIdCard(r.idCard), stateLabel: wf.stateTitle(r.state), orgIdName: r.orgId === null ? null : (names.get(r.orgId) ?? null) })),
      totalElements: count.rows[0].n,
    };
  });

  app.get('/api/development/:id/record', { config: perm(...RECORD_PERMS) }, async (req) => {
    const id = Number((req.params as { id: string }).id);
    const user = currentUser(req);
    const actor = await runtime.actorOf(user);
    if (!Number.isSafeInteger(id) || id <= 0) throw new HttpError(404, '发展党员记录不存在');
    const record = await runtime.records('development').get(id, actor);
    const approvals = await runtime.workflows.approvals(m, id, user);
    // The same person's other applications, only those the caller may see (issue 25.9).
    const visible = actor.scope === 'all' ? sql<SqlBool>`true` : sql<SqlBool>`(org_id = ANY(${actor.scope}::int[]) OR id = ${id})`;
    const others = await sql<{ id: number; state: number; applyDate: string | null; orgId: number | null }>`
      SELECT id, state, apply_date AS "applyDate", org_id AS "orgId" FROM m_development WHERE id_card = ${record.idCard as string} AND ${visible} ORDER BY id`.execute(db);
    const names = await runtime.ctx.refNames('org', [...new Set(others.rows.map((r) => r.orgId).filter((x): x is number => x !== null))]);
    // Every field as the printed record reads it: title and text (labels, names, 是/否), files by name and address.
    const fields = Object.fromEntries(
      [...m.fields.values()].map((f) => {
        const value = exportCell(f, record);
        const file = (f.schema.format === 'file' || f.schema.format === 'image') && typeof record[f.name] === 'string' ? (record[f.name] as string) : undefined;
        const text = value === null || value === undefined ? '' : value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
        return [f.name, { title: f.title, text: file ? decodeURIComponent(/[?&]name=([^&]*)/.exec(file)?.[1] ?? '附件') : text, ...(file && { url: file }) }];
      }),
    );
    return {
      record,
      fields,
      approvals,
      applications: others.rows.map((r) => ({ ...r, stateLabel: wf.stateTitle(r.state), orgIdName: r.orgId === null ? null : (names.get(r.orgId) ?? null), current: r.id === id })),
    };
  });

  app.get('/api/development/pipeline/export', { config: perm('development:export', 'development-record:list') }, async (req, reply) => {
    const where = await orgCondition(req);
    const rows = await sql<Record<string, unknown>>`
      SELECT id, org_id AS "orgId", name, gender, birth_date AS "birthDate", id_card AS "idCard", state, stage, step,
             apply_date AS "applyDate", talk_date AS "talkDate", activist_date AS "activistDate", target_date AS "targetDate",
             review_date AS "reviewDate", training_end_date AS "trainingEndDate", training_hours AS "trainingHours",
             meeting_date AS "meetingDate", admit_date AS "admitDate", volunteer_book_no AS "volunteerBookNo",
             probation_end AS "probationEnd", full_date AS "fullDate", due_date AS "dueDate", due_item AS "dueItem"
      FROM m_development WHERE ${where} ORDER BY org_id, stage, state DESC, name, id`.execute(db);
    const orgNames = await runtime.ctx.refNames('org', [...new Set(rows.rows.map((r) => r.orgId as number).filter(Boolean))]);
    const stepLabels = await runtime.ctx.dictLabels('DJ_FZ_BZ');
    const stageLabels = await runtime.ctx.dictLabels('DJ_FZ_JD');
    const genderLabels = await runtime.ctx.dictLabels('DJ_COMM_XB');
    const columns: [string, (r: Record<string, unknown>) => unknown][] = [
      ['所在党组织', (r) => orgNames.get(r.orgId as number) ?? ''],
      ['姓名', (r) => r.name],
      ['性别', (r) => genderLabels.get(String(r.gender)) ?? r.gender],
      ['出生日期', (r) => r.birthDate],
      ['身份证号', (r) => (r.idCard ? maskIdCard(String(r.idCard)) : '')],
      ['发展阶段', (r) => stageLabels.get(String(r.stage)) ?? r.stage],
      ['办理状态', (r) => wf.stateTitle(r.state)],
      ['已完成步骤', (r) => stepLabels.get(String(r.step)) ?? r.step],
      ['递交申请书', (r) => r.applyDate],
      ['谈话', (r) => r.talkDate],
      ['确定为积极分子', (r) => r.activistDate],
      ['确定为发展对象', (r) => r.targetDate],
      ['政治审查', (r) => r.reviewDate],
      ['培训结业', (r) => r.trainingEndDate],
      ['培训学时', (r) => r.trainingHours],
      ['支部大会', (r) => r.meetingDate],
      ['接收为预备党员', (r) => r.admitDate],
      ['入党志愿书编号', (r) => r.volunteerBookNo],
      ['预备期满', (r) => r.probationEnd],
      ['转正', (r) => r.fullDate],
      ['下一期限', (r) => r.dueDate],
      ['待办事项', (r) => r.dueItem],
    ];
    return streamXlsx(reply, '发展党员名册.xlsx', async (book, addRow) => {
      const sheet = book.addWorksheet('发展党员名册');
      sheet.columns = columns.map(([header]) => ({ header, width: Math.max(12, header.length * 2 + 4) }));
      sheet.getRow(1).commit();
      for (const r of rows.rows) await addRow(sheet, columns.map(([, value]) => (value(r) ?? null) as string | number | null));
      sheet.commit();
    });
  });
}
