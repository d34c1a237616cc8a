/** The evaluation area's own endpoints (src/server/domain/evaluation/routes.ts). */
import { get, post } from '../../core/request/request';
import type { RankedPointsRow as PointsRow } from '../../../shared/evaluation/points';

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

export type { PointsRow };

/** A member's points of a year (`GET /api/evaluation/points/history`): by source, and their manual records. */
export interface PointsHistory {
  year: number;
  items: { id: number; name: string; source: string; score: number; yearCap: number | null }[];
  points: PointsRow | null;
  manual: { id: number; date: string; score: number; reason: string | null; state: number; itemName: string }[];
}

/** 党员帮扶 of a year per branch (`GET /api/evaluation/assist/totals`); amounts in yuan, two decimals. */
export interface AssistTotal {
  orgId: number;
  orgName: string;
  cases: number;
  approved: string;
  paid: string;
  paidCases: number;
}

/** A scored branch of an assessment plan (`GET /api/evaluation/assess/{id}/results`). */
export interface AssessResult {
  orgId: number;
  orgName: string;
  indicators: number;
  total: number;
  rank: number;
}

const query = (p: Record<string, unknown>) => new URLSearchParams(Object.entries(p).filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => [k, String(v)])).toString();

export const evaluationApi = {
  coverage: (orgId: number | undefined, year: number) => get<{ year: number; branches: TalkCoverage[] }>(`/api/evaluation/talks/coverage?${query({ orgId, year })}`),
  ranking: (orgId: number | undefined, year: number) => get<{ year: number; content: PointsRow[] }>(`/api/evaluation/points/ranking?${query({ orgId, year })}`),
  history: (memberId: number, year: number) => get<PointsHistory>(`/api/evaluation/points/history?${query({ memberId, year })}`),
  assistTotals: (orgId: number | undefined, year: number) => get<{ year: number; content: AssistTotal[] }>(`/api/evaluation/assist/totals?${query({ orgId, year })}`),
  assessResults: (planId: number) =>
    get<{ plan: { id: number; title: string; year: number; orgId: number }; content: AssessResult[] }>(`/api/evaluation/assess/${planId}/results`),
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
