/** The evaluation area's own endpoints (src/server/domain/evaluation/routes.ts). */
import { get, post } from '../../core/request/request';

export interface TalkCoverage {
  orgId: number;
  orgName: string;
  secretary: string | null;
  members: number;
  required: number;
  covered: number;
  /** Percent, one decimal. */
  rate: number;
  uncovered: { id: number; name: string }[];
  committeeMissed: { id: number; name: string }[];
}

export interface PointsRow {
  memberId: number;
  name: string;
  orgId: number;
  meeting: number;
  study: number;
  dues: number;
  manual: number;
  total: number;
  rank: number;
}

const query = (p: Record<string, unknown>) => new URLSearchParams(Object.entries(p).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)])).toString();

export const evaluationApi = {
  coverage: (orgId: number | undefined, year: number) => get<{ year: number; branches: TalkCoverage[] }>(`/api/evaluation/talks/coverage?${query({ orgId, year })}`),
  ranking: (orgId: number | undefined, year: number) => get<{ year: number; content: PointsRow[] }>(`/api/evaluation/points/ranking?${query({ orgId, year })}`),
};

export interface WeakCandidate {
  orgId: number;
  orgName: string;
  reasons: { reason: string; detail: string }[];
  /** The year's org-weak record of the branch, once it was listed. */
  recordId: number | null;
}

export const weakApi = {
  candidates: (year: number) => get<{ year: number; content: WeakCandidate[] }>(`/api/evaluation/weak/candidates?year=${year}`),
  /** Lists a candidate for rectification (an org-weak record, 待认定, with the rules' reasons). */
  list: (c: WeakCandidate, year: number) =>
    post('/api/m/org-weak', { orgId: c.orgId, year, reasons: [...new Set(c.reasons.map((r) => r.reason))], reasonNote: c.reasons.map((r) => r.detail).join('；') }),
};
