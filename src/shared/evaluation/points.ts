/** The wire shape of a member's points of a year (GET /api/evaluation/points/ranking, …/history): by source. */
export interface PointsRow {
  memberId: number;
  name: string;
  orgId: number;
  meeting: number;
  study: number;
  dues: number;
  manual: number;
  total: number;
}

/** A row of a branch's ranking: ties share a rank. */
export interface RankedPointsRow extends PointsRow {
  rank: number;
}
