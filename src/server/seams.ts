/**
 * Where one business area answers another's question, wired once by the composition root, so no
 * domain area imports another: the transfer area asks the dues area for a member's standing and the
 * 自行脱党 candidates; the development workflow's training guard asks the party school for completed hours.
 */
import { duesStatusOf, lapseCandidates } from './domain/dues/index.js';
import { registerTrainingHoursSource } from './domain/development/index.js';
import { completedTrainingOf } from './domain/pschool/index.js';
import { setDuesSources } from './domain/transfer/index.js';

/** 《中国共产党发展党员工作细则》第十八条: the short concentrated course is the one for 发展对象 (batch type 3). */
const DEVELOPMENT_TARGET_BATCH = 3;

export function wireAreaSeams(): void {
  setDuesSources({
    status: async (db, memberId) => {
      const { paidUpTo, unpaidMonths } = await duesStatusOf(db, memberId);
      return { paidUpTo, unpaidMonths };
    },
    lapse: async (db, orgIds) => (await lapseCandidates(db, orgIds)).map(({ memberId, name, orgId, months }) => ({ memberId, name, orgId, months })),
  });
  registerTrainingHoursSource({
    name: '党校',
    hoursOf: async (idCard, db) => (await completedTrainingOf(db, { idCard }, { dxPc: DEVELOPMENT_TARGET_BATCH })).hours,
  });
}
