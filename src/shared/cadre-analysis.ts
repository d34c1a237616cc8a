/** The wire shapes of the cadre analyses (干部队伍结构分析 answers the member analysis's `Analysis`). */
import type { Slice } from './member-analysis.js';

/** The yearly assessment results (干部年度考核), best first. */
export const ASSESSMENT_RESULTS = ['优秀', '称职', '基本称职', '不称职'] as const;

/** `GET /api/cadre/performance`: one year's results, overall and per unit, rank and age band. */
export interface PerformanceAnalysis {
  year: number;
  /** Years with results, newest first. */
  years: number[];
  total: number;
  results: Slice[];
  dimensions: { key: string; title: string; rows: (Slice & { counts: Record<string, number>; excellentShare: number })[] }[];
}
