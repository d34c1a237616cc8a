/**
 * Guards and effects of the workflows of members' daily management (docs/organisation-life.md). Each
 * refuses with the words of the rule it holds.
 */
import { paramRule } from '../../runtime/params/refusal.js';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { ballotTotalsProblems, validBallots, votesProblem } from '../../../shared/ballot.js';
import { appraisalCounts, excellentCap, excellentCapProblem, EXCELLENT, type AppraisalVotes } from '../../../shared/evaluation/rules.js';
import { registerEffect, registerGuard } from '../../runtime/index.js';

const cents = (money: unknown) => Math.round(Number(money ?? 0) * 100);

/** 帮扶: the level above approves at most what the branch applied for. */
registerGuard('evaluation.assistAmount', (ctx) => {
  if (ctx.preview) return;
  if (cents(ctx.next.approvedAmount) > cents(ctx.record.amount)) {
    return { problems: [{ field: 'approvedAmount', message: `批准金额（${ctx.next.approvedAmount}元）不能超过申请金额（${ctx.record.amount}元）` }] };
  }
});

/** 整顿: the measures (with their dates) are recorded before they are carried out. */
registerGuard('evaluation.weakMeasures', async (ctx) => {
  const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM m_org_weak_measure WHERE weak_id = ${Number(ctx.record.id)}`.execute(ctx.trx);
  if (!n.rows[0]?.n) return { problems: [{ message: '请先在“整改措施”中登记整改措施及完成时限' }] };
});

/** 验收: every measure is done. */
registerGuard('evaluation.weakMeasuresDone', async (ctx) => {
  const open = await sql<{ content: string }>`SELECT content FROM m_org_weak_measure WHERE weak_id = ${Number(ctx.record.id)} AND done_date IS NULL ORDER BY due_date`.execute(ctx.trx);
  if (open.rows.length) return { problems: [{ message: `整改措施尚未全部完成：${open.rows.map((r) => r.content).join('；')}` }] };
});

/** 启动评议: a result row for every member of the branch in good standing (党籍状态 正常), for self-assessment. */
registerEffect('evaluation.appraisalRoster', async (ctx) => {
  const members = await sql<{ id: number }>`
    SELECT m.id FROM m_member m WHERE m.org_id = ${Number(ctx.record.orgId)} AND m.party_status = '1'
      AND NOT EXISTS (SELECT 1 FROM m_appraisal_result r WHERE r.appraisal_id = ${ctx.id} AND r.member_id = m.id) ORDER BY m.id`.execute(ctx.trx);
  const results = ctx.records('appraisal-result');
  for (const m of members.rows) await results.create({ appraisalId: ctx.id, memberId: m.id }, ctx.actor, { trx: ctx.trx, source: ctx.source });
});

interface ResultRow extends AppraisalVotes {
  name: string;
  grade: string | null;
}
const resultsOf = (trx: Kysely<DB>, id: number) =>
  sql<ResultRow>`
    SELECT m.name, r.grade, r.votes_excellent AS "votesExcellent", r.votes_qualified AS "votesQualified", r.votes_basic AS "votesBasic",
           r.votes_unqualified AS "votesUnqualified"
    FROM m_appraisal_result r JOIN m_member m ON m.id = r.member_id WHERE r.appraisal_id = ${id}`.execute(trx);

/** 计票: the totals hold together, and no member has more votes than there are valid ballots. */
registerGuard('evaluation.ballots', async (ctx) => {
  if (ctx.preview) return;
  const totals = { issued: Number(ctx.next.ballotsIssued ?? 0), returned: Number(ctx.next.ballotsReturned ?? 0), void: Number(ctx.next.ballotsVoid ?? 0) };
  const fields = { issued: 'ballotsIssued', returned: 'ballotsReturned', void: 'ballotsVoid' } as const;
  const problems = ballotTotalsProblems(totals).map((p) => ({ field: fields[p.field], message: p.message }));
  const valid = validBallots(totals);
  for (const r of (await resultsOf(ctx.trx, Number(ctx.record.id))).rows) {
    const p = votesProblem(r.name, appraisalCounts(r), valid);
    if (p) problems.push({ field: 'ballotsReturned', message: p });
  }
  if (problems.length) return { problems };
});

/**
 * 评定等次: every member graded, and 优秀 within the school's cap (x-workflow.params.excellentCapPercent;
 * 《中国共产党党员教育管理工作条例》第二十九条: 民主评议党员 ... 评定等次，优秀比例由上级党组织把握).
 */
registerGuard('evaluation.gradeCap', async (ctx) => {
  const rows = (await resultsOf(ctx.trx, Number(ctx.record.id))).rows;
  const ungraded = rows.filter((r) => !r.grade);
  if (ungraded.length) return { problems: [{ message: `尚有${ungraded.length}名党员未评定等次：${ungraded.slice(0, 5).map((r) => r.name).join('、')}${ungraded.length > 5 ? '等' : ''}` }] };
  // The cap in force on the day the grades were decided (a later change does not re-judge last year's).
  const decided = typeof ctx.next.gradeDate === 'string' ? ctx.next.gradeDate : ctx.today;
  const cap = Number(ctx.paramsOn(decided).excellentCapPercent ?? 30);
  const excellent = rows.filter((r) => r.grade === EXCELLENT).length;
  const problem = excellentCapProblem(excellent, rows.length, cap);
  if (problem) return { problems: [{ field: 'gradeDate', message: paramRule(ctx.module, 'excellentCapPercent', problem) }] };
  // The step's record keeps the cap it was judged under, so a later change of the parameter leaves it explained.
  return { notes: [paramRule(ctx.module, 'excellentCapPercent', `优秀${excellent}名，不超过参评${rows.length}名的${cap}%（最多${excellentCap(rows.length, cap)}名，按${decided}有效的比例）`)] };
});
