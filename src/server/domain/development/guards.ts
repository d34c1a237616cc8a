/**
 * The guards of the development workflow (schemas/modules/development.json, x-workflow): each refuses
 * with the rule's own words from 《中国共产党发展党员工作细则》 (src/shared/development/rules.ts) or adds a
 * warning that goes into the approval log. Step dates come from the step's values; when listing the
 * steps open now (preview) a missing date reads as today.
 */
import { paramRule } from '../../runtime/params/refusal.js';
import { sql, type Kysely } from 'kysely';
import {
  activistYearProblem,
  ageProblem,
  approveWarning,
  contactProblems,
  extensionProblem,
  introducerProblems,
  isDate,
  probationProblem,
  publicityProblem,
  talkWarning,
  trainingProblem,
  voteProblems,
  type IntroducerFacts,
  type Votes,
} from '../../../shared/development/rules.js';
import { idCardInfo } from '../../../shared/validators.js';
import type { DB } from '../../db/types.js';
import { registerGuard, type GuardContext, type GuardResult } from '../../runtime/index.js';
import { sourcedTraining } from './training-source.js';
import { workingCalendar } from '../../runtime/working-calendar.js';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const param = (ctx: GuardContext, key: string, fallback: number) => (typeof ctx.params[key] === 'number' ? (ctx.params[key] as number) : fallback);
/** A date of the step: the value given, else (previewing) today. */
const stepDate = (ctx: GuardContext, field: string) => (isDate(ctx.values[field]) ? (ctx.values[field] as string) : isDate(ctx.next[field]) ? (ctx.next[field] as string) : ctx.today);
const refuse = (field: string, message: string | undefined): GuardResult => (message ? { problems: [{ field, message }] } : undefined);

async function membersByIds(db: Kysely<DB>, ids: number[]): Promise<{ facts: IntroducerFacts[]; idCards: Map<number, string> }> {
  if (!ids.length) return { facts: [], idCards: new Map() };
  const rows = await sql<{ id: number; name: string; member_type: string | null; party_status: string | null; id_card: string | null }>`
    SELECT id, name, member_type, party_status, id_card FROM m_member WHERE id = ANY(${ids}::int[])`.execute(db);
  return {
    facts: rows.rows.map((r) => ({ id: r.id, name: r.name, memberType: r.member_type, partyStatus: r.party_status })),
    idCards: new Map(rows.rows.map((r) => [r.id, r.id_card ?? ''])),
  };
}

const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => Number.isSafeInteger(x)) : []);

registerGuard('development.age', (ctx) => {
  const birth = (ctx.next.birthDate as string | null) ?? idCardInfo(ctx.next.idCard as string)?.birthDate;
  return refuse('applyDate', ageProblem(birth, stepDate(ctx, 'applyDate')));
});

registerGuard('development.talkWithinMonth', (ctx) => {
  if (!isDate(ctx.next.applyDate)) return;
  const warning = talkWarning(ctx.next.applyDate, stepDate(ctx, 'talkDate'), param(ctx, 'talkWithinMonths', 1));
  return warning ? { warnings: [warning] } : undefined;
});

registerGuard('development.activistYear', (ctx) =>
  refuse('targetDate', activistYearProblem(ctx.next.activistDate as string | null, stepDate(ctx, 'targetDate'), param(ctx, 'activistYears', 1))),
);

registerGuard('development.introducers', async (ctx) => {
  if (ctx.preview && !ids(ctx.next.introducerIds).length) return;
  const chosen = ids(ctx.next.introducerIds);
  const { facts, idCards } = await membersByIds(ctx.trx, chosen);
  const problems = introducerProblems(chosen, facts, ctx.next.idCard as string, idCards);
  return problems.length ? { problems: problems.map((message) => ({ field: 'introducerIds', message })) } : undefined;
});

registerGuard('development.contacts', async (ctx) => {
  if (ctx.preview) return;
  const chosen = ids(ctx.next.contactIds);
  const { facts } = await membersByIds(ctx.trx, chosen);
  const problems = contactProblems(chosen, facts);
  return problems.length ? { problems: problems.map((message) => ({ field: 'contactIds', message })) } : undefined;
});

registerGuard('development.reviewPassed', (ctx) => {
  if (ctx.preview || ctx.values.reviewResult !== '不合格') return;
  return refuse('reviewResult', '政治审查结论为不合格的，不能发展入党；请办理“不予通过”（《细则》第四章）');
});

/**
 * Training before admission: recorded days, or recorded hours plus the party school's completed hours.
 * Short of both, the step is refused, unless the organisation department recorded the special case
 * (step `exception`): then it passes with a warning naming the reason.
 */
registerGuard('development.training', async (ctx) => {
  const school = await sourcedTraining(ctx.next.idCard, ctx.trx);
  const days = num(ctx.next.trainingDays) + school.days;
  const hours = num(ctx.next.trainingHours) + school.hours;
  const problem = trainingProblem(days, hours, param(ctx, 'trainingDays', 3), param(ctx, 'trainingHours', 24));
  const counted = [school.hours > 0 && `学时${school.hours}`, school.days > 0 && `${school.days}天`].filter(Boolean);
  const warnings = counted.length ? [`含党校（${school.source}）已完成培训${counted.join('、')}`] : [];
  if (!problem) return warnings.length ? { warnings } : undefined;
  const exception = ctx.next.trainingException;
  if (typeof exception === 'string' && exception.trim()) return { warnings: [...warnings, `经党委组织部记录的特殊情况：${exception.trim()}。${problem}`] };
  return { problems: [{ field: 'trainingHours', message: problem }], warnings };
});

function votesOf(values: Record<string, unknown>, names: Record<keyof Votes, string>): Votes | undefined {
  if (Object.values(names).some((n) => typeof values[n] !== 'number')) return undefined;
  return Object.fromEntries(Object.entries(names).map(([k, n]) => [k, values[n]])) as unknown as Votes;
}

function voteGuard(names: Record<keyof Votes, string>) {
  return (ctx: GuardContext): GuardResult => {
    const votes = votesOf(ctx.values, names);
    if (!votes) return;
    const problems = voteProblems(votes);
    return problems.length ? { problems: problems.map((p) => ({ field: names[p.field], message: p.message })) } : undefined;
  };
}

registerGuard('development.vote', voteGuard({ entitled: 'entitled', present: 'present', votesFor: 'votesFor', votesAgainst: 'votesAgainst', abstentions: 'abstentions' }));
registerGuard('development.fullVote', voteGuard({ entitled: 'fullEntitled', present: 'fullPresent', votesFor: 'fullVotesFor', votesAgainst: 'fullVotesAgainst', abstentions: 'fullAbstentions' }));

/** 公示: at pre-review, the period given; at admission, the period recorded, over before the meeting. */
registerGuard('development.publicity', async (ctx) => {
  const meeting = isDate(ctx.values.meetingDate) ? (ctx.values.meetingDate as string) : undefined;
  const [start, end] = [ctx.next.publicityStart, ctx.next.publicityEnd];
  // Working days skip the national holidays and count the make-up days (系统管理 → 节假日安排).
  const calendar = isDate(start) && isDate(end) && start <= end ? await workingCalendar(ctx.trx, start, end) : undefined;
  // The working days in force when the 公示 started.
  const workdays = isDate(start) ? Number(ctx.paramsOn(start as string).publicityWorkdays ?? 5) : param(ctx, 'publicityWorkdays', 5);
  const problem = publicityProblem(start as string, end as string, meeting, workdays, calendar);
  return refuse('publicityEnd', problem && problem.includes('工作日') ? paramRule(ctx.module, 'publicityWorkdays', problem) : problem);
});

/** What should have happened before the meeting: warned, logged, not refused. */
registerGuard('development.admitChecks', (ctx) => {
  const warnings: string[] = [];
  const missing: [string, string][] = [
    ['activistFiledDate', '入党积极分子尚未报上级党委备案'],
    ['targetFiledDate', '发展对象尚未报上级党委备案'],
    ['branchReviewDate', '支部委员会尚未审查'],
    ['preReviewDate', '上级党委尚未预审'],
  ];
  for (const [field, text] of missing) if (!ctx.next[field]) warnings.push(text);
  if (!ctx.next.bookDate) warnings.push('尚未记录填写入党志愿书，志愿书编号将随本次办理分配');
  return warnings.length ? { warnings } : undefined;
});

registerGuard('development.approveChecks', (ctx) => {
  const warnings: string[] = [];
  if (!ctx.next.committeeTalkDate) warnings.push('上级党委尚未派人同发展对象谈话（《细则》第五章）');
  const late = approveWarning(ctx.next.meetingDate as string, stepDate(ctx, 'approveDate'), param(ctx, 'approveWithinMonths', 3));
  if (late) warnings.push(late);
  return warnings.length ? { warnings } : undefined;
});

registerGuard('development.fullChecks', (ctx) => {
  const warnings: string[] = [];
  if (!ctx.next.fullApplyDate) warnings.push('本人尚未提出书面转正申请');
  if (!ctx.next.fullMeetingDate) warnings.push('支部大会尚未讨论其转正');
  return warnings.length ? { warnings } : undefined;
});

registerGuard('development.probationEnded', (ctx) => {
  const field = ctx.transition.id === 'fullMeeting' ? 'fullMeetingDate' : 'fullDate';
  return refuse(field, probationProblem(ctx.next.probationEnd as string, stepDate(ctx, field)));
});

registerGuard('development.extension', (ctx) => {
  if (ctx.preview) return refuse('extendMonths', ctx.record.extendMonths ? extensionProblem(12, true) : undefined);
  return refuse('extendMonths', extensionProblem(num(ctx.values.extendMonths), !!ctx.record.extendMonths));
});

/** The milestones in the order the rules have them: a later one never comes before an earlier one. */
const CHAIN = ['applyDate', 'talkDate', 'activistDate', 'targetDate', 'reviewDate', 'trainingEndDate', 'meetingDate', 'approveDate', 'fullDate', 'archiveDate'];
/** Dates that may lie ahead (a publicity still running). */
const FUTURE_ALLOWED = new Set(['publicityStart', 'publicityEnd']);

/** Step dates: none in the future, none before the milestone the rules put before it. */
registerGuard('development.dates', (ctx) => {
  if (ctx.preview) return;
  const problems: { field: string; message: string }[] = [];
  const title = (f: string) => ctx.module.field(f)?.title ?? f;
  for (const [field, value] of Object.entries(ctx.values)) {
    if (!isDate(value) || ctx.module.field(field)?.kind !== 'date') continue;
    if (!FUTURE_ALLOWED.has(field) && value > ctx.today) problems.push({ field, message: `${title(field)}（${value}）不能晚于今天` });
    const at = CHAIN.indexOf(field);
    const before = (at > 0 ? CHAIN.slice(0, at) : at === 0 ? [] : ['applyDate']).filter((f) => isDate(ctx.next[f]));
    const latest = before.sort((a, b) => String(ctx.next[b]).localeCompare(String(ctx.next[a])))[0];
    if (latest && value < (ctx.next[latest] as string)) problems.push({ field, message: `${title(field)}（${value}）不能早于${title(latest)}（${ctx.next[latest] as string}）` });
  }
  if (isDate(ctx.values.admitDate) && isDate(ctx.next.meetingDate) && (ctx.values.admitDate as string) < (ctx.next.meetingDate as string)) {
    problems.push({ field: 'admitDate', message: '接收为预备党员日期不能早于支部大会日期' });
  }
  return problems.length ? { problems } : undefined;
});
