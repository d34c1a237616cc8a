/**
 * The five stages and twenty-five steps of 《中国共产党发展党员工作细则》 as the `development` workflow
 * records them: which transition completes each step, and which fields of the record hold its date,
 * people, counts and documents. Shared by the server (progress, deadlines, the printable record) and
 * the web (the 发展纪实 page).
 */
import { addMonths, assessmentDue, isDate } from './rules.js';

export interface DevelopmentStep {
  /** 1..25, the value of dictionary DJ_FZ_BZ. */
  no: number;
  /** 1..5: the chapter of the rules (申请入党 ... 预备党员的教育考察和转正). */
  stage: number;
  title: string;
  /** The transition that completes it. */
  transition: string;
  /** The field holding its date. */
  date?: string;
  /** Further fields shown with it (people, counts, results, documents). */
  details: string[];
}

export const STAGE_TITLES = ['申请入党', '入党积极分子的确定和教育培养', '发展对象的确定和考察', '预备党员的接收', '预备党员的教育考察和转正'] as const;

const s = (no: number, stage: number, title: string, transition: string, date: string | undefined, details: string[] = []): DevelopmentStep => ({ no, stage, title, transition, date, details });

export const DEVELOPMENT_STEPS: readonly DevelopmentStep[] = [
  s(1, 1, '递交入党申请书', 'apply', 'applyDate', ['applyDoc']),
  s(2, 1, '党组织派人谈话', 'talk', 'talkDate', ['talker', 'talkDoc']),
  s(3, 2, '推荐和确定入党积极分子', 'activist', 'activistDate', ['recommendMethod', 'activistDoc']),
  s(4, 2, '上级党委备案', 'activistFile', 'activistFiledDate'),
  s(5, 2, '指定培养联系人', 'contacts', undefined, ['contactIds']),
  s(6, 2, '培养教育考察', 'assess', 'lastAssessDate'),
  s(7, 3, '确定发展对象', 'target', 'targetDate', ['targetDoc']),
  s(8, 3, '报上级党委备案', 'targetFile', 'targetFiledDate'),
  s(9, 3, '确定入党介绍人', 'target', undefined, ['introducerIds']),
  s(10, 3, '进行政治审查', 'review', 'reviewDate', ['reviewResult', 'reviewDoc']),
  s(11, 3, '开展集中培训', 'train', 'trainingEndDate', ['trainingDays', 'trainingHours', 'trainingCertNo', 'trainingException']),
  s(12, 4, '支部委员会审查', 'branchReview', 'branchReviewDate'),
  s(13, 4, '上级党委预审', 'preReview', 'preReviewDate', ['publicityStart', 'publicityEnd']),
  s(14, 4, '填写入党志愿书', 'book', 'bookDate', ['volunteerBookNo']),
  s(15, 4, '支部大会讨论', 'admit', 'meetingDate', ['entitled', 'present', 'votesFor', 'votesAgainst', 'abstentions', 'admitDate', 'meetingDoc']),
  s(16, 4, '上级党委派人谈话', 'committeeTalk', 'committeeTalkDate', ['committeeTalker']),
  s(17, 4, '上级党委审批', 'approve', 'approveDate', ['approveDoc']),
  s(18, 4, '再上一级党委组织部门备案', 'orgFile', 'orgFiledDate'),
  s(19, 5, '编入党支部和党小组', 'assign', undefined, ['partyGroup']),
  s(20, 5, '入党宣誓', 'oath', 'oathDate'),
  s(21, 5, '继续教育考察', 'assess', 'lastAssessDate', ['extendMonths', 'probationEnd']),
  s(22, 5, '提出转正申请', 'applyFull', 'fullApplyDate'),
  s(23, 5, '支部大会讨论', 'fullMeeting', 'fullMeetingDate'),
  s(24, 5, '上级党委审批', 'full', 'fullDate', ['fullDoc']),
  s(25, 5, '材料归档', 'archive', 'archiveDate', ['archiveNo']),
];

/** States whose record has completed a step by being in them (the state-changing transitions). */
const STEP_BY_STATE: Readonly<Record<number, number>> = { 0: 1, 1: 2, 2: 3, 3: 9, 4: 10, 5: 11, 6: 15, 7: 17, 8: 17, 9: 24, 10: 25 };

/** Side steps (filings, assignments) counted done while the record is in one of their states. */
const SIDE_STEPS: readonly { no: number; field: string; states: number[]; since?: string }[] = [
  { no: 4, field: 'activistFiledDate', states: [2, 3, 4, 5, 6, 7, 8, 9, 10] },
  { no: 5, field: 'contactIds', states: [2, 3, 4, 5, 6, 7, 8, 9, 10] },
  { no: 6, field: 'lastAssessDate', states: [2, 3, 4, 5], since: 'activistDate' },
  { no: 8, field: 'targetFiledDate', states: [3, 4, 5, 6, 7, 8, 9, 10] },
  { no: 12, field: 'branchReviewDate', states: [5, 6, 7, 8, 9, 10] },
  { no: 13, field: 'preReviewDate', states: [5, 6, 7, 8, 9, 10] },
  { no: 14, field: 'bookDate', states: [5, 6, 7, 8, 9, 10] },
  { no: 16, field: 'committeeTalkDate', states: [6, 7, 8, 9, 10] },
  { no: 18, field: 'orgFiledDate', states: [7, 8, 9, 10] },
  { no: 19, field: 'partyGroup', states: [7, 8, 9, 10] },
  { no: 20, field: 'oathDate', states: [7, 8, 9, 10] },
  { no: 21, field: 'lastAssessDate', states: [7, 8], since: 'admitDate' },
  { no: 22, field: 'fullApplyDate', states: [7, 8, 9, 10] },
  { no: 23, field: 'fullMeetingDate', states: [7, 8, 9, 10] },
];

const filled = (v: unknown) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);

/**
 * The furthest step the record has completed (DJ_FZ_BZ value), from its state and the side steps it
 * recorded; null before the application. A return moves it back with the state.
 */
export function completedStep(record: Record<string, unknown>): string | null {
  const state = record.state as number;
  let step = STEP_BY_STATE[state] ?? 0;
  for (const side of SIDE_STEPS) {
    if (!side.states.includes(state) || !filled(record[side.field])) continue;
    // An assessment counts for the stage it was made in (the probation's start after admission).
    if (side.since && !(isDate(record[side.since]) && String(record[side.field]) >= String(record[side.since]))) continue;
    step = Math.max(step, side.no);
  }
  return step ? String(step) : null;
}

/** DJ_FZ_JD: 1 入党申请人, 2 入党积极分子, 3 发展对象, 4 预备党员, 5 正式党员 (by state; ended applications keep theirs). */
export function stageOfState(state: number): string | null {
  if (state >= -1 && state <= 1) return '1';
  if (state === 2) return '2';
  if (state >= 3 && state <= 6) return '3';
  if (state === 7 || state === 8) return '4';
  if (state === 9 || state === 10) return '5';
  return null;
}

export interface Due {
  dueDate: string | null;
  dueItem: string | null;
}

/**
 * The next deadline of a record, from its dates (never from the clock): the talk within a month of the
 * application, the six-monthly assessments, the committee's approval within three months, the end of
 * the probation. `months` are the workflow's params.
 */
export function nextDue(record: Record<string, unknown>, months: { talk?: number; assess?: number; approve?: number } = {}): Due {
  const state = record.state as number;
  const none = { dueDate: null, dueItem: null };
  const date = (f: string) => (isDate(record[f]) ? (record[f] as string) : undefined);
  if (state === 0) {
    const apply = date('applyDate');
    return apply ? { dueDate: addMonths(apply, months.talk ?? 1), dueItem: '入党谈话' } : none;
  }
  if (state >= 2 && state <= 5) {
    const due = assessmentDue(date('lastAssessDate'), date('activistDate'), months.assess ?? 6);
    return due ? { dueDate: due, dueItem: '培养考察' } : none;
  }
  if (state === 6) {
    const meeting = date('meetingDate');
    return meeting ? { dueDate: addMonths(meeting, months.approve ?? 3), dueItem: '上级党委审批' } : none;
  }
  if (state === 7 || state === 8) {
    const admit = date('admitDate');
    const last = date('lastAssessDate');
    const assess = assessmentDue(last && admit && last >= admit ? last : undefined, admit, months.assess ?? 6);
    const end = date('probationEnd');
    if (assess && (!end || assess < end)) return { dueDate: assess, dueItem: '培养考察' };
    return end ? { dueDate: end, dueItem: '讨论转正' } : none;
  }
  return none;
}
