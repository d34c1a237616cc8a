/** The development area's own endpoints (src/server/domain/development/routes.ts). */
import { download } from '../../core/request/download';
import { get } from '../../core/request/request';
import type { Approval } from '../../renderer/workflow/api';

export interface Funnel {
  /** `count` at the stage now (`states`), `reached` at it or beyond (`reachedStates`); ended applications in neither. */
  stages: { value: string; title: string; count: number; states: number[]; reached: number; reachedStates: number[] }[];
  states: { code: number; title: string; count: number }[];
  ended: number;
  total: number;
}

export interface ApplicationRow {
  id: number;
  name: string;
  idCard: string;
  state: number;
  stateLabel: string;
  orgId: number | null;
  orgIdName: string | null;
  applyDate: string | null;
}

export interface FieldText {
  title: string;
  text: string;
  url?: string;
}

export interface DevelopmentRecord {
  record: Record<string, unknown> & { id: number; name: string; state: number; orgId: number | null };
  fields: Record<string, FieldText>;
  approvals: Approval[];
  applications: (ApplicationRow & { current: boolean })[];
}

export const developmentApi = {
  funnel: (orgId?: number) => get<Funnel>('/api/development/funnel', { orgId }),
  records: (params: { q?: string; orgId?: number; page: number; size: number }) => get<{ content: ApplicationRow[]; totalElements: number }>('/api/development/records', params),
  record: (id: number) => get<DevelopmentRecord>(`/api/development/${id}/record`),
  exportPipeline: (orgId?: number) => download('/api/development/pipeline/export', { orgId }, '发展党员名册.xlsx'),
};
