/** The wire shape of 三会一课 compliance (GET /api/meetings/compliance): the server answers it, the pages read it. */

export interface PeriodCompliance {
  orgId: number;
  /** '2026-01', '2026-Q1' or '2026'. */
  period: string;
  /** The meeting type (DJ_HY_LX). */
  type: string;
  /** The declared rule (two rules may count one type: 党课 per quarter, and the secretary's once a year). */
  rule: string;
  required: number;
  held: number;
  compliant: boolean;
  /** The period has not ended yet (as of `today`): not held yet is not a failure yet. */
  open: boolean;
}

export interface OrgCompliance {
  orgId: number;
  orgName: string;
  /** DJ_DZZ_LB of the organisation. */
  orgType: string | null;
  periods: PeriodCompliance[];
  /** Periods due (ended, or met already) and how many of them were met. */
  due: number;
  met: number;
  /** met / due, 0–1 (1 when nothing is due yet). */
  rate: number;
  /** Every due period met. */
  compliant: boolean;
}
