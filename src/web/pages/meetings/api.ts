/** The organisation life area's own endpoints (src/server/domain/meetings/routes.ts). */
import { get } from '../../core/request/request';

import type { OrgCompliance, PeriodCompliance } from '../../../shared/meetings/compliance';

export type { OrgCompliance, PeriodCompliance };

export interface ComplianceSummary {
  organisations: number;
  branches: number;
  compliantBranches: number;
  due: number;
  met: number;
  rate: number;
}

export interface Compliance {
  year: number;
  periods: PeriodCompliance[];
  orgs: OrgCompliance[];
  summary: ComplianceSummary;
}

const params = (orgId: number | undefined, year: number, types?: string[]) => ({ orgId, year, types: types?.join(',') });

export const meetingsApi = {
  /** Per organisation and period (a branch's calendar). */
  compliance: (orgId: number | undefined, year: number, types?: string[]) => get<Compliance>('/api/meetings/compliance', params(orgId, year, types)),
  /** Each organisation's rate and the totals (a committee's or the school's overview). */
  overview: (orgId: number | undefined, year: number, types?: string[]) => get<Omit<Compliance, 'periods'>>('/api/meetings/compliance/overview', params(orgId, year, types)),
};

export interface PlanCompletion {
  plan: { id: number; month: string; topic: string; orgId: number; orgIdName?: string };
  total: number;
  done: number;
  rate: number;
  branches?: { orgId: number; orgName: string; held: number; lastDate: string | null }[];
}

export const themePlanApi = {
  year: (year: number) => get<{ year: number; plans: PlanCompletion[] }>('/api/meetings/theme-plans/completion', { year }),
  one: (id: number) => get<PlanCompletion>(`/api/meetings/theme-plans/${id}/completion`),
};
