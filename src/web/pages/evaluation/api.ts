/** The evaluation area's own endpoints (src/server/domain/evaluation/routes.ts). */
import { get } from '../../core/request/request';

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
