/**
 * A small university for the development workflow's API tests: a top committee, two college committees
 * with a branch each, full and probationary members (introducers), a 志愿书 number range, and the three
 * levels' accounts (支部书记, 二级党委, 组织部) holding the development permissions.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { addDays, addMonths, addYears } from '../../src/shared/development/rules.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { idCardCheckChar } from '../../src/shared/validators.js';
import { bearer, login, userWithRole } from './auth.js';

export const PASS = 'Develop#2026a';
export const TODAY = localToday();

export type Client = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => Promise<{ status: number; body: any }>;

export function clientOf(app: FastifyInstance, token: string): Client {
  return async (method, url, payload) => {
    const res = await app.inject({ method, url, headers: bearer(token), ...(payload !== undefined && { payload: payload as object }) });
    let body: unknown = res.body;
    try {
      body = res.body ? res.json() : {};
    } catch {
      // not JSON (a spreadsheet)
    }
    return { status: res.statusCode, body };
  };
}

/** A valid ID number for a birth date (sequence `n`; odd = male). */
export function idCardFor(birthDate: string, n: number): string {
  const first17 = `430102${birthDate.replace(/-/g, '')}${String(n % 1000).padStart(3, '0')}`;
  return first17 + idCardCheckChar(first17);
}

/** Every permission of the development page (menu buttons) plus the book ranges. */
export const DEVELOPMENT_PERMISSIONS = [
  'development-process:list', 'development-record:list', 'development:add', 'development:edit', 'development:delete', 'development:export',
  ...['apply', 'talk', 'activist', 'activist-file', 'contacts', 'assess', 'target', 'target-file', 'review', 'train', 'exception', 'branch-review',
    'pre-review', 'book', 'admit', 'committee-talk', 'approve', 'org-file', 'assign', 'oath', 'apply-full', 'full-meeting', 'extend', 'full',
    'archive', 'return', 'reject', 'withdraw'].map((t) => `development:${t}`),
  'development-book-range:list', 'development-book-range:edit', 'member:list', 'member:view', 'member:add',
];

export interface DevWorld {
  admin: Client;
  branch: Client;
  committee: Client;
  orgdept: Client;
  /** A branch secretary of the other college (outside the first branch's scope). */
  otherBranch: Client;
  ids: { root: number; college: number; branch: number; college2: number; branch2: number };
  users: { branch: number; committee: number; orgdept: number; otherBranch: number };
  /** Full members of the branch (introducers), and a probationary one. */
  full: number[];
  probationary: number;
  seq: number;
}

async function created(c: Client, url: string, body: unknown): Promise<number> {
  const res = await c('POST', url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

export async function developmentWorld(app: FastifyInstance, extraPermissions: string[] = []): Promise<DevWorld> {
  const token = await login(app);
  const admin = clientOf(app, token);
  const root = await created(admin, '/api/m/org', { name: '中共测试大学委员会', type: '1', code: 'T-ROOT' });
  const college = await created(admin, '/api/m/org', { name: '信息学院党委', type: '1', parentId: root, code: 'T-C1' });
  const branch = await created(admin, '/api/m/org', { name: '信息学院学生第一党支部', type: '3', parentId: college, code: 'T-B1' });
  const college2 = await created(admin, '/api/m/org', { name: '机电学院党总支', type: '2', parentId: root, code: 'T-C2' });
  const branch2 = await created(admin, '/api/m/org', { name: '机电学院教工党支部', type: '3', parentId: college2, code: 'T-B2' });
  const member = (name: string, n: number, memberType: string) =>
    created(admin, '/api/m/member', { name, gender: '1', idCard: idCardFor('1980-01-01', n), category: '1', memberType, partyStatus: '1', joinDate: '2005-07-01', fullDate: memberType === '1' ? '2006-07-01' : null, orgId: branch });
  const full = [await member('介绍人甲', 901, '1'), await member('介绍人乙', 903, '1'), await member('介绍人丙', 905, '1')];
  const probationary = await member('预备党员丁', 907, '2');
  const permissions = [...DEVELOPMENT_PERMISSIONS, ...extraPermissions];
  const users = {
    branch: await userWithRole(app, token, { username: 'devbranch', permissions, dataScope: 'own', orgId: branch, password: PASS }),
    committee: await userWithRole(app, token, { username: 'devcommittee', permissions, dataScope: 'own', orgId: college, password: PASS }),
    orgdept: await userWithRole(app, token, { username: 'devorgdept', permissions, dataScope: 'all', orgId: root, password: PASS }),
    otherBranch: await userWithRole(app, token, { username: 'devbranch2', permissions, dataScope: 'own', orgId: branch2, password: PASS }),
  };
  for (const year of [Number(TODAY.slice(0, 4)) - 3, Number(TODAY.slice(0, 4)) - 2, Number(TODAY.slice(0, 4)) - 1, Number(TODAY.slice(0, 4))]) {
    await created(admin, '/api/m/development-book-range', { year, prefix: `${year}`, startNo: 1, endNo: 500, width: 4 });
  }
  return {
    admin,
    branch: clientOf(app, await login(app, 'devbranch', PASS)),
    committee: clientOf(app, await login(app, 'devcommittee', PASS)),
    orgdept: clientOf(app, await login(app, 'devorgdept', PASS)),
    otherBranch: clientOf(app, await login(app, 'devbranch2', PASS)),
    ids: { root, college, branch, college2, branch2 },
    users,
    full,
    probationary,
    seq: 100,
  };
}

/** A new application (state 待提交) in the branch; the applicant is 25. */
export async function newApplicant(w: DevWorld, extra: Record<string, unknown> = {}): Promise<{ id: number; version: number }> {
  const n = (w.seq += 2);
  const res = await w.branch('POST', '/api/m/development', { name: `申请人${n}`, idCard: idCardFor(addYears(TODAY, -25), n), category: '4', orgId: w.ids.branch, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, version: res.body.version };
}

/** Dates of a plausible history ending today: applied three years and a half ago. */
export function history(today = TODAY) {
  const apply = addMonths(today, -42);
  return {
    apply,
    talk: addDays(apply, 20),
    activist: addMonths(apply, 3),
    target: addMonths(apply, 16),
    review: addMonths(apply, 17),
    train: addMonths(apply, 18),
    branchReview: addDays(addMonths(apply, 18), 5),
    preReview: addDays(addMonths(apply, 18), 10),
    publicityStart: addDays(addMonths(apply, 18), 11),
    publicityEnd: addDays(addMonths(apply, 18), 25),
    book: addDays(addMonths(apply, 18), 26),
    meeting: addMonths(apply, 19),
    committeeTalk: addDays(addMonths(apply, 19), 10),
    approve: addMonths(apply, 20),
    oath: addDays(addMonths(apply, 20), 5),
    assess: addMonths(apply, 25),
    fullApply: addDays(addMonths(apply, 31), -10),
    // the probation ends a year after the meeting
    fullMeeting: addDays(addMonths(apply, 31), 2),
    full: addMonths(apply, 31),
    archive: addDays(addMonths(apply, 31), 20),
  };
}

/** The steps of the main line, in order, with valid values for the history above. */
export function mainSteps(w: DevWorld, h = history()): [string, Client, Record<string, unknown>][] {
  return [
    ['apply', w.branch, { applyDate: h.apply }],
    ['talk', w.branch, { talkDate: h.talk, talker: '张书记' }],
    ['activist', w.branch, { activistDate: h.activist, recommendMethod: '党员推荐' }],
    ['target', w.branch, { targetDate: h.target, introducerIds: w.full.slice(0, 2) }],
    ['review', w.branch, { reviewDate: h.review, reviewResult: '合格' }],
    ['train', w.branch, { trainingEndDate: h.train, trainingDays: 3, trainingHours: 24 }],
    ['preReview', w.committee, { preReviewDate: h.preReview, publicityStart: h.publicityStart, publicityEnd: h.publicityEnd }],
    ['admit', w.branch, { meetingDate: h.meeting, entitled: 10, present: 8, votesFor: 7, votesAgainst: 1, abstentions: 0 }],
    ['approve', w.committee, { approveDate: h.approve }],
    ['full', w.committee, { fullDate: h.full }],
    ['archive', w.orgdept, { archiveDate: h.archive, archiveNo: 'DA-001' }],
  ];
}

/** Takes one step with the record's current version; answers the response. */
export async function step(c: Client, id: number, transition: string, values: Record<string, unknown> = {}, comment = '') {
  const current = await c('GET', `/api/m/development/${id}`);
  return c('POST', `/api/m/development/${id}/transitions/${transition}`, { version: current.body.version, comment, values });
}

/** The state each main-line step leaves a record in (preReview records something: its date). */
const AFTER: Record<string, number> = { apply: 0, talk: 1, activist: 2, target: 3, review: 4, train: 5, preReview: 5, admit: 6, approve: 7, full: 9, archive: 10 };

/** Walks the main line from where the record stands up to (not including) `until`; every step must pass. */
export async function walkUntil(w: DevWorld, id: number, until: string | null, h = history()): Promise<void> {
  const record = (await w.admin('GET', `/api/m/development/${id}`)).body as { state: number; preReviewDate: string | null };
  for (const [t, c, values] of mainSteps(w, h)) {
    if (t === until) return;
    if (t === 'preReview' ? record.preReviewDate !== null || record.state > 5 : AFTER[t] <= record.state) continue;
    const res = await step(c, id, t, values);
    expect(res.status, `${t}: ${JSON.stringify(res.body)}`).toBe(200);
  }
}
