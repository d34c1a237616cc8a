/**
 * The figures of 大数据展示 that this area computes: members and organisations by committee, genders and
 * the year's development, each through a report definition over a data source (so in the caller's scope and
 * only from sources they may use). A figure whose source the caller may not use is left out. The page
 * adds the figures other areas serve (the development funnel, dues, 三会一课 compliance, terms) from their own endpoints.
 * Study hours (`GET /api/bigdata/study-hours`) are the party school's students' hours done, by committee,
 * over the source `study` (module pschool-student, scoped as its list is).
 */
import type { FastifyInstance } from 'fastify';
import type { SessionUser } from '../../core/auth/session-user.js';
import { HttpError } from '../../errors.js';
import { ACTIVE_MEMBER_STATUS } from '../../../shared/party-members.js';
import { builtinReport } from './builtin-reports.js';
import { readParams, runReport, type ReportDefinition } from './reports.js';

const ORGS_BY_COMMITTEE: ReportDefinition = {
  id: 'orgs-by-committee', title: '党组织按二级党组织统计', description: '', source: 'organisations',
  rows: { kind: 'org', field: 'parentId', title: '二级党组织', depth: 1 }, measures: [{ key: 'count', title: '个数', agg: 'count' }],
};

/** Hours done by the students of the year's classes (the batch's year), by committee of the student's organisation. */
const STUDY_BY_COMMITTEE: ReportDefinition = {
  id: 'study-hours-by-committee', title: '党校学习学时（按二级党组织）', description: '', source: 'study',
  rows: { kind: 'org', field: 'orgId', title: '二级党组织', depth: 1 },
  where: { and: [{ field: 'classId.batchId.year', op: 'eq', value: '{year}' }] },
  measures: [
    { key: 'hours', title: '已修学时', agg: 'sum', field: 'hoursDone' },
    { key: 'learners', title: '学员', agg: 'count' },
  ],
};

/** The year's study hours (`?year`, default this year) in the caller's scope; 403 when they may not use the source. */
export async function studyHours(app: FastifyInstance, user: SessionUser, rawYear: unknown) {
  const { year } = readParams({ year: rawYear });
  const r = await runReport(app.runtime, user, STUDY_BY_COMMITTEE, { year });
  // Hours are recorded to two decimals; sums are rounded back to them.
  const hours = (v: number | undefined) => Math.round((v ?? 0) * 100) / 100;
  return {
    year,
    hours: hours(r.totals['|hours']),
    learners: r.totals['|learners'] ?? 0,
    byCommittee: r.rows.map((row) => ({ label: row.label, value: hours(row.values['|hours']), learners: row.values['|learners'] ?? 0 })),
  };
}

/** A figure, or undefined when the caller may not use its source (403/400 of the report). */
async function figure<T>(run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError && (error.statusCode === 403 || error.statusCode === 400)) return undefined;
    throw error;
  }
}

export async function bigDataOverview(app: FastifyInstance, user: SessionUser) {
  const { runtime } = app;
  const year = new Date().getFullYear();
  const slices = (r: Awaited<ReturnType<typeof runReport>>, key: string) => r.rows.map((row) => ({ label: row.label, value: row.values[key] ?? 0 }));
  const members = await figure(() => runReport(runtime, user, builtinReport('members-by-org')!, { filter: { partyStatus: ACTIVE_MEMBER_STATUS } }));
  const orgs = await figure(() => runReport(runtime, user, ORGS_BY_COMMITTEE, {}));
  const yearly = await figure(() => runReport(runtime, user, builtinReport('development-in-year')!, { year }));
  const gender = await figure(() => runReport(runtime, user, builtinReport('members-by-gender')!, { filter: { partyStatus: ACTIVE_MEMBER_STATUS } }));
  return {
    year,
    updatedAt: new Date().toISOString(),
    ...(members && {
      members: { total: members.totals['__total|count'] ?? 0, byCommittee: members.rows.map((r) => ({ label: r.label, value: r.values['__total|count'] ?? 0, full: r.values['1|count'] ?? 0, probation: r.values['2|count'] ?? 0 })) },
    }),
    ...(gender && { gender: slices(gender, '|count') }),
    ...(orgs && { orgs: { total: orgs.totals['|count'] ?? 0, byCommittee: slices(orgs, '|count') } }),
    ...(yearly && { developmentYear: yearly.columns.slice(1).map((c) => ({ label: c.title, value: yearly.totals[c.key] ?? 0 })) }),
  };
}
