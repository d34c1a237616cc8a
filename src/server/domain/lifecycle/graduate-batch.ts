/**
 * The steps of a graduate-batch (毕业生批量转出, issue 41 §3): 检查 lists every selected graduate with what stands
 * in the way (graduates.ts), 批量转出 creates one transfer-out per passing graduate, its letter numbered in
 * order, in the step's one transaction — all or nothing: a failure half way leaves no transfer, no letter
 * number, no item changed, and the failures stay listed for the next attempt.
 */
import { sql } from 'kysely';
import { isDate, yearOf } from '../../../shared/calendar.js';
import { HttpError } from '../../errors.js';
import { registerEffect, type EffectContext } from '../../runtime/index.js';
import type { RuntimeModule } from '../../runtime/module.js';
import { writeLogs } from '../../runtime/workflow/log.js';
import { duesStandings } from '../transfer/dues-source.js';
import { recordLetters, reserveLetterNumbers } from '../transfer/letters.js';
import { graduateProblems, selectGraduates, type Graduate } from './graduates.js';

interface ItemRow {
  id: number;
  memberId: number;
  result: string | null;
  toOrgName: string | null;
  destination: string | null;
}

const itemsOf = async (ctx: EffectContext): Promise<ItemRow[]> =>
  (
    await sql<ItemRow>`SELECT id, member_id AS "memberId", result, to_org_name AS "toOrgName", destination FROM m_graduate_batch_item WHERE batch_id = ${ctx.id} ORDER BY id`.execute(
      ctx.trx,
    )
  ).rows;

const refuse = (message: string): never => {
  throw new HttpError(400, message, { errors: [{ field: 'state', message }] });
};

/** The transfer-out state its letter is issued in: where the step with the effect transfer.issueLetter leads. */
function issuedState(out: RuntimeModule): number {
  const t = Object.values(out.workflow?.schema.transitions ?? {}).find((s) => s && (s.effects ?? []).includes('transfer.issueLetter'));
  if (typeof t?.to !== 'number') throw new Error('transfer-out has no step issuing the letter (transfer.issueLetter)');
  return t.to;
}

export function registerGraduateBatch(modules: () => RuntimeModule[], school: () => string, module: (id: string) => RuntimeModule | undefined): void {
  /** 检查: (re)builds the list of graduates not yet transferred, each with its result and what to do. */
  registerEffect('lifecycle.graduateCheck', async (ctx) => {
    const batch = ctx.next;
    if (!isDate(batch.leaveDate)) refuse('请填写离校日期');
    const before = await itemsOf(ctx);
    const done = new Set(before.filter((i) => i.result === '已转出').map((i) => i.memberId));
    const kept = new Map(before.map((i) => [i.memberId, i]));
    const { graduates, unmatched } = await selectGraduates(ctx.trx, ctx.records('member'), batch, ctx.actor);
    const max = Number(ctx.params.maxBatch ?? 5000);
    if (graduates.length > max) refuse(`本批选取${graduates.length}人，超过每批最多${max}人，请按学院或毕业日期分批办理`);
    if (!graduates.length && !unmatched.length) refuse('没有选取到毕业生党员：请填写毕业日期、班级或名单');
    // A destination edited on the item between attempts stays unless the list gives one.
    const pending: Graduate[] = graduates
      .filter((g) => !done.has(g.memberId))
      .map((g) => ({ ...g, toOrgName: g.toOrgName ?? kept.get(g.memberId)?.toOrgName ?? null, destination: g.destination ?? kept.get(g.memberId)?.destination ?? null }));
    const problems = await graduateProblems(ctx.trx, modules(), pending, batch.leaveDate as string);
    const items = ctx.records('graduate-batch-item');
    const stale = before.filter((i) => i.result !== '已转出').map((i) => i.id);
    if (stale.length) await items.remove(stale, ctx.actor, { trx: ctx.trx });
    await items.createMany(
      pending.map((g) => {
        const p = problems.get(g.memberId) ?? [];
        return {
          body: { batchId: ctx.id, toOrgName: g.toOrgName, destination: g.destination },
          set: { memberId: g.memberId, name: g.name, studentNo: g.studentNo, orgId: g.orgId, graduationDate: g.graduationDate, result: p.length ? '未通过' : '通过', problems: p.join('；') || null },
        };
      }),
      ctx.actor,
      { trx: ctx.trx, source: ctx.source },
    );
    const failed = pending.filter((g) => problems.get(g.memberId)?.length).length;
    return {
      total: pending.length + done.size,
      passed: pending.length - failed,
      failed,
      created: done.size,
      checkDate: ctx.today,
      unmatched: unmatched.length ? `名单中未找到（或不在本组织范围内）：${unmatched.slice(0, 200).join('、')}${unmatched.length > 200 ? '等' : ''}` : null,
    };
  });

  /**
   * 批量转出: every graduate the check passed, checked again (things change between the two steps: a refusal
   * names them and creates nothing), then the transfers in one set-based write, born with their letters
   * (the batch stands for the branch's, the committee's and the 组织部's steps: 《中国共产党党员组织关系转接工作办法》
   * lets the school's organisation department issue the letters of its graduates at once).
   */
  registerEffect('lifecycle.graduateTransferOut', async (ctx) => {
    const out = module('transfer-out');
    if (!out) throw new Error('transfer-out module missing');
    const passing = (await itemsOf(ctx)).filter((i) => i.result === '通过');
    if (!passing.length) refuse('没有检查通过的毕业生党员，请先检查');
    const facts = (
      await sql<Graduate>`SELECT id AS "memberId", name, person_no AS "studentNo", org_id AS "orgId", party_status AS "partyStatus" FROM m_member WHERE id = ANY(${passing.map((p) => p.memberId)}::int[])`.execute(ctx.trx)
    ).rows;
    const byId = new Map(facts.map((f) => [f.memberId, f]));
    const graduates = passing.map((p) => ({ ...byId.get(p.memberId)!, toOrgName: p.toOrgName, destination: p.destination }));
    const problems = await graduateProblems(ctx.trx, modules(), graduates, ctx.next.leaveDate as string);
    const changed = graduates.filter((g) => problems.get(g.memberId)?.length);
    if (changed.length) {
      refuse(`检查后情况有变，本次未建任何转出记录，请重新检查：${changed.slice(0, 20).map((g) => `${g.name}（${problems.get(g.memberId)!.join('；')}）`).join('；')}${changed.length > 20 ? `等${changed.length}人` : ''}`);
    }
    const standings = await duesStandings(ctx.trx, graduates.map((g) => g.memberId));
    const year = yearOf(ctx.today);
    const letters = await reserveLetterNumbers(ctx.trx, school(), year, graduates.length);
    const validDays = Number(ctx.next.validDays ?? 30);
    const state = issuedState(out);
    const ids = await ctx.records('transfer-out').createMany(
      graduates.map((g, i) => ({
        body: { memberId: g.memberId, toOrgName: g.toOrgName, destination: g.destination, kind: '正式组织关系', reason: '毕业', applyDate: ctx.today, validDays },
        set: { letterNo: letters[i].letterNo, issueDate: ctx.today, duesPaidTo: standings.get(g.memberId)?.paidUpTo ?? null, batchId: ctx.id },
      })),
      ctx.actor,
      { trx: ctx.trx, source: ctx.source, state },
    );
    await recordLetters(ctx.trx, { school: school(), letters, transferIds: ids, issuedOn: ctx.today, issuedBy: ctx.actor.id });
    const actorName = ctx.actor.id ? ((await sql<{ n: string }>`SELECT coalesce(nullif(nick_name, ''), username) AS n FROM users WHERE id = ${ctx.actor.id}`.execute(ctx.trx)).rows[0]?.n ?? '') : '';
    await writeLogs(
      ctx.trx,
      ids.map((id, i) => ({
        module: out.id,
        recordId: id,
        transition: 'approve',
        transitionTitle: '开具介绍信（毕业生批量转出）',
        from: out.workflow!.initial,
        to: state,
        result: 'pass',
        level: ctx.level,
        actingOrgId: ctx.actingOrgId,
        actorId: ctx.actor.id,
        actorName,
        comment: `毕业生批量转出：${String(ctx.next.title ?? '')}，介绍信${letters[i].letterNo}`,
        values: {},
        valueTexts: [],
        warnings: [],
        ip: null,
      })),
    );
    // The items are the batch's own rows (no trail, no reminders): one UPDATE for all.
    const values = passing.map((p, i) => sql`(${p.id}::int, ${ids[i]}::int, ${letters[i].letterNo}::text)`);
    await sql`UPDATE m_graduate_batch_item AS t SET result = '已转出', problems = NULL, transfer_id = v.tid, letter_no = v.no, version = t.version + 1, updated_at = now()
      FROM (VALUES ${sql.join(values)}) AS v(id, tid, no) WHERE t.id = v.id`.execute(ctx.trx);
    const created = Number(ctx.next.created ?? 0) + ids.length;
    return { created, passed: 0, total: created + Number(ctx.next.failed ?? 0) };
  });
}
