/**
 * The rules of 《中国共产党发展党员工作细则》 (2014) as pure functions over 'YYYY-MM-DD' dates and counts.
 * The server's guards (src/server/domain/development/guards.ts) refuse or warn with the messages
 * built here; each function cites the article it comes from. Dates are calendar dates: no time zone.
 */
import { fullYearsBetween } from '../module-schema/computed.js';
import { WEEKDAYS_ONLY, workingDaysBetween, type WorkingCalendar } from '../working-days.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isDate(v: unknown): v is string {
  return typeof v === 'string' && DATE.test(v);
}

const pad = (n: number) => String(n).padStart(2, '0');

function parts(date: string): [number, number, number] {
  const m = DATE.exec(date);
  if (!m) throw new Error(`not a date: ${date}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** The date `months` calendar months later; the day is kept, or the month's last day when it has fewer (01-31 + 1 → 02-28/29). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = parts(date);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${pad(month)}-${pad(Math.min(d, last))}`;
}

export function addYears(date: string, years: number): string {
  return addMonths(date, years * 12);
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

/** Days from a to b (b - a). */
export function daysBetween(a: string, b: string): number {
  const [y1, m1, d1] = parts(a);
  const [y2, m2, d2] = parts(b);
  return Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86_400_000);
}

/** Full years of age on a date (a 02-29 birthday is reached on 03-01 in other years). */
export function ageOn(birthDate: string, on: string): number | null {
  return fullYearsBetween(birthDate, on);
}

/** Working days from start to end, both included: Monday to Friday less the holidays, plus the make-up days of `calendar`. */
export function workdaysBetween(start: string, end: string, calendar: WorkingCalendar = WEEKDAYS_ONLY): number {
  return workingDaysBetween(start, end, calendar);
}

// ------------------------------------------------------------------------------------------- the rules

/** 第二章 入党申请: 年满十八岁的中国工人、农民、军人、知识分子和其他社会阶层的先进分子 ... 可以申请加入中国共产党. */
export const RULE_AGE = '入党申请人应当年满十八岁（《中国共产党发展党员工作细则》第二章）';

export function ageProblem(birthDate: string | null | undefined, applyDate: string): string | undefined {
  if (!isDate(birthDate)) return `无法确认入党申请人的年龄：请填写出生日期。${RULE_AGE}`;
  const age = ageOn(birthDate, applyDate);
  if (age === null || age < 18) return `递交入党申请书时（${applyDate}）未满十八岁（${turns18(birthDate)}年满十八岁）。${RULE_AGE}`;
  return undefined;
}

/** The first day someone born on that date is 18 (02-29 → 03-01). */
export function turns18(birthDate: string): string {
  const candidate = addYears(birthDate, 18);
  return ageOn(birthDate, candidate) === 18 ? candidate : addDays(candidate, 1);
}

/** 第二章 入党申请: 党组织收到入党申请书后，应当在一个月内派人同入党申请人谈话. */
export const RULE_TALK = '党组织收到入党申请书后，应当在一个月内派人同入党申请人谈话（《细则》第二章）';

export function talkWarning(applyDate: string, talkDate: string, months = 1): string | undefined {
  const due = addMonths(applyDate, months);
  if (talkDate <= due) return undefined;
  return `谈话日期（${talkDate}）距收到入党申请书（${applyDate}）已超过一个月（应不晚于${due}，逾期${daysBetween(due, talkDate)}天）。${RULE_TALK}`;
}

/** 第四章 发展对象的确定和考察: 对经过一年以上培养教育和考察 ... 的入党积极分子，可列为发展对象. */
export const RULE_ACTIVIST_YEAR = '入党积极分子经过一年以上培养教育和考察，方可列为发展对象（《细则》第四章）';

export function activistYearProblem(activistDate: string | null | undefined, targetDate: string, years = 1): string | undefined {
  if (!isDate(activistDate)) return `尚未记录确定为入党积极分子的日期。${RULE_ACTIVIST_YEAR}`;
  const earliest = addYears(activistDate, years);
  if (targetDate >= earliest) return undefined;
  return `确定为入党积极分子（${activistDate}）未满一年，最早可于${earliest}确定为发展对象。${RULE_ACTIVIST_YEAR}`;
}

/** 第四章 发展对象的确定和考察: 发展对象应当有两名正式党员作入党介绍人. */
export const RULE_INTRODUCERS = '发展对象应当有两名正式党员作入党介绍人（《细则》第四章）';

export interface IntroducerFacts {
  id: number;
  name: string;
  /** DJ_DYJBXX_RYLX: '1' 正式党员, '2' 预备党员. */
  memberType: string | null;
  /** DJ_DY_DJZTXX: '1' 正常. */
  partyStatus: string | null;
}

export function introducerProblems(ids: number[], found: IntroducerFacts[], applicantIdCard?: string, idCards: Map<number, string> = new Map()): string[] {
  const problems: string[] = [];
  const unique = [...new Set(ids)];
  if (unique.length !== 2) problems.push(`入党介绍人应为两名，现为${unique.length}名。${RULE_INTRODUCERS}`);
  for (const id of unique) {
    const m = found.find((f) => f.id === id);
    if (!m) problems.push(`入党介绍人（编号${id}）不是本系统中的党员。${RULE_INTRODUCERS}`);
    else if (m.memberType !== '1') problems.push(`${m.name}是预备党员，不能作入党介绍人。${RULE_INTRODUCERS}`);
    else if (m.partyStatus !== '1') problems.push(`${m.name}的党籍状态不正常，不能作入党介绍人。${RULE_INTRODUCERS}`);
    else if (applicantIdCard && idCards.get(id) === applicantIdCard) problems.push(`入党申请人不能作自己的入党介绍人。${RULE_INTRODUCERS}`);
  }
  return problems;
}

/** 第三章 入党积极分子的确定和教育培养: 党组织应当指定一至两名正式党员作入党积极分子的培养联系人. */
export const RULE_CONTACTS = '党组织应当指定一至两名正式党员作入党积极分子的培养联系人（《细则》第三章）';

export function contactProblems(ids: number[], found: IntroducerFacts[]): string[] {
  const unique = [...new Set(ids)];
  const problems: string[] = [];
  if (unique.length < 1 || unique.length > 2) problems.push(`培养联系人应为一至两名，现为${unique.length}名。${RULE_CONTACTS}`);
  for (const id of unique) {
    const m = found.find((f) => f.id === id);
    if (!m) problems.push(`培养联系人（编号${id}）不是本系统中的党员。${RULE_CONTACTS}`);
    else if (m.memberType !== '1' || m.partyStatus !== '1') problems.push(`${m.name}不是党籍正常的正式党员，不能作培养联系人。${RULE_CONTACTS}`);
  }
  return problems;
}

/** 第四章 发展对象的确定和考察: 发展对象 ... 集中培训时间一般不少于三天（或不少于二十四个学时）；未经培训的，除个别特殊情况外，不能发展入党. */
export const RULE_TRAINING = '发展对象应参加集中培训，时间一般不少于三天或不少于二十四个学时；未经培训的，除个别特殊情况外，不能发展入党（《细则》第四章）';

export function trainingProblem(days: number, hours: number, minDays = 3, minHours = 24): string | undefined {
  if (days >= minDays || hours >= minHours) return undefined;
  return `集中培训为${days}天、${hours}学时，不足${minDays}天且不足${minHours}学时。${RULE_TRAINING}`;
}

/** 第五章 预备党员的接收: 有表决权的到会人数必须超过应到会有表决权人数的半数；赞成人数超过应到会有表决权的正式党员的半数，才能通过接收预备党员的决议. */
export const RULE_VOTE = '支部大会有表决权的到会人数必须超过应到会有表决权人数的半数，赞成人数超过应到会有表决权的正式党员的半数，才能通过决议（《细则》第五章）';

export interface Votes {
  entitled: number;
  present: number;
  votesFor: number;
  votesAgainst: number;
  abstentions: number;
}

/** Problems of a 支部大会 vote: each names the count that fails, by field. */
export function voteProblems(v: Votes): { field: keyof Votes; message: string }[] {
  const problems: { field: keyof Votes; message: string }[] = [];
  const half = v.entitled / 2;
  if (v.present > v.entitled) problems.push({ field: 'present', message: `实到人数（${v.present}）不能多于应到人数（${v.entitled}）` });
  else if (v.votesFor + v.votesAgainst + v.abstentions > v.present) {
    problems.push({ field: 'votesFor', message: `赞成、反对、弃权票合计（${v.votesFor + v.votesAgainst + v.abstentions}）不能多于实到人数（${v.present}）` });
  }
  if (v.present <= half) problems.push({ field: 'present', message: `到会${v.present}人，未超过应到会有表决权的${v.entitled}人的半数。${RULE_VOTE}` });
  if (v.votesFor <= half) problems.push({ field: 'votesFor', message: `赞成${v.votesFor}票，未超过应到会有表决权的${v.entitled}人的半数。${RULE_VOTE}` });
  return problems;
}

/** 第五章 预备党员的接收: 预审合格的发展对象 ... 进行公示; the number of working days is the school's setting (x-workflow.params.publicityWorkdays). */
export const RULE_PUBLICITY = '对发展对象应当进行公示，公示期满无异议方可提交支部大会讨论（《细则》第五章）';

export function publicityProblem(start: string | null | undefined, end: string | null | undefined, meetingDate: string | undefined, workdays = 5, calendar: WorkingCalendar = WEEKDAYS_ONLY): string | undefined {
  if (!isDate(start) || !isDate(end)) return `尚未记录公示起止日期。${RULE_PUBLICITY}`;
  if (end < start) return `公示结束日期（${end}）早于开始日期（${start}）`;
  const days = workdaysBetween(start, end, calendar);
  if (days < workdays) return `公示${start}至${end}共${days}个工作日，不足${workdays}个工作日。${RULE_PUBLICITY}`;
  if (meetingDate !== undefined && meetingDate <= end) return `支部大会（${meetingDate}）须在公示期满（${end}）之后召开。${RULE_PUBLICITY}`;
  return undefined;
}

/** 第六章 预备党员的教育、考察和转正 (and 党章第七条): 预备党员的预备期为一年，从支部大会通过他为预备党员之日算起. */
export function probationEndOf(admitDate: string): string {
  return addYears(admitDate, 1);
}

/** 第六章 预备党员的教育、考察和转正: 预备党员预备期满 ... 需要继续考察和教育的，可以延长预备期，延长时间不能少于半年，最长不超过一年. */
export const RULE_EXTENSION = '预备期可以延长一次，延长时间最长不超过一年（《细则》第六章）';

export function extensionProblem(months: number, alreadyExtended: boolean): string | undefined {
  if (alreadyExtended) return `该预备党员的预备期已延长过一次。${RULE_EXTENSION}`;
  if (months > 12) return `延长${months}个月超过一年。${RULE_EXTENSION}`;
  if (months < 6) return `延长${months}个月不足半年，延长时间不能少于半年（《细则》第六章）`;
  return undefined;
}

/** 第六章 / 党章第七条: 预备期满方可转为正式党员；党龄从转为正式党员之日算起. */
export const RULE_FULL = '预备党员预备期满，方可讨论其转为正式党员；党龄从转为正式党员之日算起（《细则》第六章）';

export function probationProblem(probationEnd: string | null | undefined, date: string): string | undefined {
  if (!isDate(probationEnd)) return `尚未记录预备期满日期。${RULE_FULL}`;
  if (date >= probationEnd) return undefined;
  return `预备期至${probationEnd}届满，${date}尚未期满。${RULE_FULL}`;
}

/** 第五章 预备党员的接收: 上级党委 ... 应当在三个月内审批. */
export function approveWarning(meetingDate: string | null | undefined, approveDate: string, months = 3): string | undefined {
  if (!isDate(meetingDate)) return undefined;
  const due = addMonths(meetingDate, months);
  if (approveDate <= due) return undefined;
  return `审批日期（${approveDate}）距支部大会（${meetingDate}）已超过三个月（应不晚于${due}）。上级党委应当在三个月内审批（《细则》第五章）`;
}

/** 第三章 and 第六章: 每半年对入党积极分子、预备党员进行一次考察. */
export function assessmentDue(lastAssessDate: string | null | undefined, since: string | null | undefined, months = 6): string | undefined {
  const base = isDate(lastAssessDate) ? lastAssessDate : isDate(since) ? since : undefined;
  return base ? addMonths(base, months) : undefined;
}
