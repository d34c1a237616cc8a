/**
 * The fee batch on the workflow engine (module dues-batch, schemas/modules/dues-batch.json): the hooks of
 * its writes and the guards and effects of its steps, each citing its rule. The engine holds the rest:
 * one transaction per step, the claim on state and version (a second caller racing gets 409), the log in
 * workflow_log, the trail.
 *
 * The closures read this app's school and organisation levels: registered by duesRoutes, as the
 * standard's hook is.
 */
import { sql } from 'kysely';
import { BatchState } from '../../../shared/constants.js';
import { isMonth, monthLabel, monthsOf } from '../../../shared/dues/rules.js';
import { HttpError } from '../../errors.js';
import { registerEffect, registerGuard, registerHook, registerRestoreHook, type HookContext } from '../../runtime/index.js';
import type { GuardContext } from '../../runtime/workflow/hooks.js';
import { batchOfMonths, batchPeriod, batchTitle, committeesNotReported, keepClosedFigures, logBatch, membersWithoutStandard, snapshotBatch } from './batches.js';
import type { DuesCore } from './context.js';
import { ReportLevel } from './levels.js';
import { duesDb, type DuesDb } from './tables.js';

const fieldError = (field: string, message: string) => new HttpError(400, message, { errors: [{ field, message }] });
const names = (list: string[], total: number) => `${list.join('、')}${total > list.length ? '等' : ''}`;
const db = (ctx: { trx: unknown }): DuesDb => duesDb(ctx.trx as never);

/** Members of the subtree who have neither paid nor a deferral (a report waits for them). */
async function unaccounted(trx: DuesDb, batchId: number, orgIds: number[]) {
  const where = sql`i.batch_id = ${batchId} AND i.org_id = ANY(${orgIds}::int[]) AND i.payment_id IS NULL AND NOT EXISTS (SELECT 1 FROM dues_deferral d WHERE d.item_id = i.id)`;
  const total = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM dues_item i WHERE ${where}`.execute(trx)).rows[0].n;
  const sample = total ? (await sql<{ name: string }>`SELECT m.name FROM dues_item i JOIN m_member m ON m.id = i.member_id WHERE ${where} ORDER BY i.id LIMIT 5`.execute(trx)).rows : [];
  return { total, sample: sample.map((r) => r.name) };
}

/** How the actor's name reads in the log and the report: their nickname (the name the account goes by), else the user name. */
async function actorName(trx: DuesDb, actor: { id: number | null; username: string }): Promise<string> {
  if (actor.id === null) return actor.username;
  const row = await trx.selectFrom('users').select(['nick_name', 'username']).where('id', '=', actor.id).executeTakeFirst();
  return row?.nick_name || row?.username || actor.username;
}

/** A refusal of a guard: listed when previewing (GET transitions), else the answer with its own status (409: the batch's state of affairs). */
function refuse(ctx: GuardContext, status: number, message: string, body: Record<string, unknown> = {}) {
  if (ctx.preview || status === 400) return { problems: [{ message }] };
  throw new HttpError(status, message, body);
}

export function registerBatchWorkflow(dues: DuesCore): void {
  /**
   * `dues.batch` (beforeWrite): a batch is a month or a quarter starting in January, April, July or
   * October (按月或按季收缴, 中组发〔2008〕3号 第十一条); its title follows; a month belongs to one batch.
   * Its months stay what they were created with (its items and payments are of those months).
   */
  registerHook('dues.batch', async (ctx: HookContext) => {
    if (ctx.action === 'delete') return;
    const r = ctx.record;
    if (ctx.action === 'update') {
      const before = ctx.previous!;
      if (r.firstMonth !== before.firstMonth || (r.months ?? 1) !== before.months) throw fieldError('firstMonth', '收费月份和收费周期在新建后不能修改；如需更改，请删除本批次后重新新建');
      r.title = before.title;
      return;
    }
    const months = r.months === undefined || r.months === null ? 1 : Number(r.months);
    if (!isMonth(r.firstMonth)) throw fieldError('firstMonth', '收费月份的格式为 YYYY-MM');
    if (months === 3 && (Number(r.firstMonth.slice(5, 7)) - 1) % 3 !== 0) throw fieldError('firstMonth', '按季收费须从季度的第一个月开始（1、4、7、10月）');
    const taken = await batchOfMonths(db(ctx), dues.school, r.firstMonth, months);
    if (taken) throw new HttpError(409, `${monthLabel(taken.month)}已有收费批次“${taken.title}”`);
    Object.assign(r, { months, title: batchTitle(r.firstMonth, months), state: BatchState.NOT_CONFIGURED });
  });

  /** The months a batch covers (their unique index refuses an overlap: a concurrent create, or a restore after another batch took a month). */
  const insertMonths = async (trx: DuesDb, batchId: number, r: { firstMonth: string; months: number }) => {
    try {
      await trx.insertInto('dues_batch_month').values(monthsOf(r.firstMonth, r.months).map((month) => ({ batch_id: batchId, school: dues.school, month }))).execute();
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new HttpError(409, `${monthLabel(r.firstMonth)}已有收费批次`);
      throw error;
    }
  };

  /** `dues.batchMonths` (afterWrite): the months a new batch covers, and its log's first entry. */
  registerHook('dues.batchMonths', async (ctx: HookContext) => {
    if (ctx.action !== 'create') return;
    const r = ctx.record as { firstMonth: string; months: number; title: string };
    await insertMonths(db(ctx), ctx.id!, r);
    await logBatch(db(ctx), ctx.id!, 'create', { id: ctx.actor.id, name: await actorName(db(ctx), ctx.actor) }, { to: BatchState.NOT_CONFIGURED, comment: r.title });
  });

  /** `dues.batchMonthsRestore` (afterRestore): a deleted batch put back takes its months again, unless another batch has one. */
  registerRestoreHook('dues.batchMonthsRestore', async (ctx) => insertMonths(db(ctx), ctx.id, ctx.record as { firstMonth: string; months: number }));

  /**
   * `dues.batchStandards` (配置): every member in the batch needs a standard for its year (the amount
   * frozen is the standard's, 中组发〔2008〕3号 第三条); those without one are listed and stop the step,
   * unless `allowMissing` leaves them out knowingly (then a warning in the log).
   */
  registerGuard('dues.batchStandards', async (ctx) => {
    const { year, lastDay } = batchPeriod(ctx.record as { firstMonth: string; months: number });
    const missing = await membersWithoutStandard(db(ctx), year, lastDay);
    if (!missing.count) return;
    if (ctx.values.allowMissing === true) return { warnings: [`${missing.count}名党员无党费标准，未纳入本批次`] };
    const sample = missing.sample.slice(0, 5).map((m) => m.name);
    const message = `${missing.count}名党员没有${year}年度的党费标准（${names(sample, missing.count)}），请先导入或生成党费标准`;
    if (ctx.preview) return { warnings: [message] };
    throw new HttpError(400, message, { missing: missing.sample, missingCount: missing.count, errors: [{ field: 'allowMissing', message }] });
  });

  /**
   * `dues.batchSnapshot` (配置): the snapshot, its totals on the batch (hidden fields: the school's figures,
   * which scoped callers read for their scope only).
   */
  registerEffect('dues.batchSnapshot', async (ctx) => {
    const totals = await snapshotBatch(db(ctx), ctx.id, { first_month: ctx.record.firstMonth as string, months: ctx.record.months as number });
    await db(ctx).updateTable('dues_batch').set({ members: totals.members, due_cents: totals.due }).where('id', '=', ctx.id).execute();
    return { configuredAt: new Date().toISOString() };
  });

  registerEffect('dues.batchStarted', () => ({ startedAt: new Date().toISOString() }));

  /**
   * `dues.batchReport` (上报): a branch (党支部) reports to its committee, a committee (the organisation
   * under the school committee) to the school, each once; not while a member of it has neither paid nor a
   * recorded deferral, and a committee not before each of its branches (中组发〔2008〕3号 第十三条:
   * 党费收缴情况逐级上报).
   */
  registerGuard('dues.batchReport', async (ctx) => {
    const orgId = ctx.values.orgId as number | undefined;
    if (!orgId) return;
    const trx = db(ctx);
    const level = await dues.levels.levelOf(orgId);
    if (!level) return refuse(ctx, 400, '只有党支部和二级党组织上报党费收缴情况');
    const orgName = await dues.levels.name(orgId);
    const done = await trx.selectFrom('dues_report').select('org_id').where('batch_id', '=', ctx.record.id as number).where('org_id', '=', orgId).executeTakeFirst();
    if (done) return refuse(ctx, 409, `${orgName}已上报本批次`);
    const subtree = await dues.levels.subtree([orgId]);
    if (level === ReportLevel.COMMITTEE) {
      const branchOrgs = (await trx.selectFrom('dues_item').select('org_id').distinct().where('batch_id', '=', ctx.record.id as number).where('org_id', 'in', subtree).where('org_id', '<>', orgId).execute()).map((r) => r.org_id);
      const reported = new Set((await trx.selectFrom('dues_report').select('org_id').where('batch_id', '=', ctx.record.id as number).where('level', '=', ReportLevel.BRANCH).execute()).map((r) => r.org_id));
      const waiting: number[] = [];
      for (const id of branchOrgs) if (!reported.has(id) && (await dues.levels.levelOf(id)) === ReportLevel.BRANCH) waiting.push(id);
      if (waiting.length) {
        const sample = await Promise.all(waiting.slice(0, 5).map((id) => dues.levels.name(id)));
        return refuse(ctx, 409, `${orgName}还有${waiting.length}个党支部未上报（${names(sample, waiting.length)}），不能上报`);
      }
    }
    const open = await unaccounted(trx, ctx.record.id as number, subtree);
    if (open.total) return refuse(ctx, 409, `${orgName}尚有${open.total}名党员未缴纳党费且未登记缓交（${names(open.sample, open.total)}），不能上报`);
  });

  /** `dues.batchReportFigures` (上报): the organisation's figures now, kept with its report (the progress and closing read them). */
  registerEffect('dues.batchReportFigures', async (ctx) => {
    const trx = db(ctx);
    const orgId = ctx.values.orgId as number;
    const level = (await dues.levels.levelOf(orgId))!;
    const subtree = await dues.levels.subtree([orgId]);
    const figures = (await sql<{ members: number; paidMembers: number; deferred: number; due: number; paid: number }>`
      SELECT count(*)::int AS members, count(i.payment_id)::int AS "paidMembers", count(d.item_id) FILTER (WHERE i.payment_id IS NULL)::int AS deferred,
             coalesce(sum(i.due_cents), 0)::bigint AS due, coalesce(sum(i.paid_cents), 0)::bigint AS paid
      FROM dues_item i LEFT JOIN dues_deferral d ON d.item_id = i.id WHERE i.batch_id = ${ctx.id} AND i.org_id = ANY(${subtree}::int[])`.execute(trx)).rows[0];
    if (!figures.members) throw new HttpError(400, `${await dues.levels.name(orgId)}在本批次中没有党员，无需上报`);
    const inserted = await trx
      .insertInto('dues_report')
      .values({ batch_id: ctx.id, org_id: orgId, level, members: figures.members, paid_members: figures.paidMembers, deferred: figures.deferred, due_cents: figures.due, paid_cents: figures.paid, comment: ctx.comment.slice(0, 200), reported_by: ctx.actor.id, reported_by_name: await actorName(trx, ctx.actor) })
      .onConflict((oc) => oc.columns(['batch_id', 'org_id']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw new HttpError(409, `${await dues.levels.name(orgId)}已上报本批次`);
  });

  /** `dues.batchAllReported` (关闭): the school closes the month when every committee with members in it has reported. */
  registerGuard('dues.batchAllReported', async (ctx) => {
    const waiting = await committeesNotReported(db(ctx), dues, ctx.record.id as number);
    if (!waiting.length) return;
    const sample = await Promise.all(waiting.slice(0, 5).map((c) => dues.levels.name(c)));
    return { problems: [{ message: `还有${waiting.length}个二级党组织未上报（${names(sample, waiting.length)}），全部上报后才能关闭` }] };
  });

  /**
   * `dues.batchClosingFigures` (关闭): the figures at closing kept on the batch and per organisation;
   * nothing of it changes afterwards (payments, reversals, deferrals and adjustments refuse). The engine
   * moved the state first: its row lock waited for payments under way (they hold the batch FOR SHARE),
   * so these figures see every one of them, and none can follow.
   */
  registerEffect('dues.batchClosingFigures', async (ctx) => {
    const totals = await keepClosedFigures(db(ctx), ctx.id);
    await db(ctx).updateTable('dues_batch').set({ paid_members: totals.paidMembers, paid_cents: totals.paid }).where('id', '=', ctx.id).execute();
    return { closedAt: new Date().toISOString() };
  });
}

