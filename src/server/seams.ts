/**
 * Where one business area answers another's question, wired once by the composition root, so no
 * domain area imports another: the transfer area asks the dues area for a member's standing and the
 * 自行脱党 candidates; the development workflow's training guard asks the party school for completed
 * training; the party school's classes of the early stages pick their students from development.
 */
import { duesStatusOf, duesStatusesOf, lapseCandidates } from './domain/dues/index.js';
import { developmentCandidates, registerTrainingSource } from './domain/development/index.js';
import { completedTrainingOf, registerCandidateSource } from './domain/pschool/index.js';
import { setDuesSources } from './domain/transfer/index.js';
import { registerQuarterCompliance } from './domain/evaluation/index.js';
import { complianceOf } from './domain/meetings/index.js';
import { quarterRates } from '../shared/evaluation/rules.js';
import type { Runtime } from './runtime/index.js';
import { DxPcType } from '../shared/constants.js';

export function wireAreaSeams(runtime: Runtime): void {
  setDuesSources({
    status: async (db, memberId) => {
      const { paidUpTo, unpaidMonths } = await duesStatusOf(db, memberId);
      return { paidUpTo, unpaidMonths };
    },
    statuses: async (db, memberIds) => new Map([...(await duesStatusesOf(db, memberIds))].map(([id, s]) => [id, { paidUpTo: s.paidUpTo, unpaidMonths: s.unpaidMonths }])),
    lapse: async (db, orgIds) => (await lapseCandidates(db, orgIds)).map(({ memberId, name, orgId, months }) => ({ memberId, name, orgId, months })),
  });
  // 《中国共产党发展党员工作细则》第十八条: the short concentrated course is the one for 发展对象 (batch type 3).
  registerTrainingSource({
    name: '党校',
    trainingOf: async (idCard, db) => {
      const { hours, days } = await completedTrainingOf(db, { idCard }, { dxPc: DxPcType.DEVELOP });
      return { hours, days };
    },
  });
  // 软弱涣散 candidates read 三会一课 compliance per quarter from the meetings area (issue 27).
  registerQuarterCompliance(async (app, orgIds, year, today) => {
    const list = await complianceOf(app, { orgIds, year, today, types: ['支部党员大会', '支委会', '党小组会', '党课'] });
    return new Map(list.map((o) => [o.orgId, quarterRates(o.periods)]));
  });
  const development = runtime.module('development');
  if (development?.workflow) {
    for (const stage of [DxPcType.APPLY, DxPcType.ACTIVE, DxPcType.DEVELOP]) {
      registerCandidateSource(stage, (db, opts) => developmentCandidates(db, development, stage, opts));
    }
  }
}
