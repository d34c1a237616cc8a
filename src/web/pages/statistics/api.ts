/** Calls of the statistics pages (docs/statistics.md). */
import { get, post, request } from '../../core/request/request';
import { downloadOrJob } from '../../core/jobs/useJob';
import type { QueryRequest, ReportDefinitionAnswer, ReportResult, ReportSpec, ReportSummary, SavedQuery, Snapshot, SnapshotDiff } from '../../../shared/statistics';

export interface QueryField {
  name: string;
  title: string;
  kind: string;
  /** false: computed (age), a column only. */
  stored: boolean;
  dict: string | null;
  ref: string | null;
  format: string | null;
  enum: string[] | null;
}

export interface QueryModule {
  id: string;
  title: string;
  listFields: string[];
  detail: boolean;
  /** The caller may export the module's records (导出结果). */
  export: boolean;
  fields: QueryField[];
}

export type Row = Record<string, unknown> & { id: number };

export const statApi = {
  modules: () => get<QueryModule[]>('/api/query/modules'),
  run: (q: QueryRequest) => post<{ content: Row[]; totalElements: number }>('/api/query/run', q),
  saved: () => get<SavedQuery[]>('/api/query/saved'),
  save: (body: { title: string; shared: boolean; definition: QueryRequest }, id?: number) =>
    id ? request.put<SavedQuery>(`/api/query/saved/${id}`, body).then((r) => r.data) : post<SavedQuery>('/api/query/saved', body),
  removeSaved: (id: number) => request.delete(`/api/query/saved/${id}`),
  reports: () => get<ReportSummary[]>('/api/reports'),
  runReport: (id: string, params: Record<string, unknown>) => post<ReportResult>(`/api/reports/${id}/run`, { params }),
  sources: () => get<DataSourceInfo[]>('/api/stat/sources'),
  reportDefinition: (id: string) => get<ReportDefinitionAnswer>(`/api/reports/${id}/definition`),
  previewReport: (definition: ReportSpec, params: Record<string, unknown>) => post<ReportResult>('/api/reports/preview', { definition, params }),
  saveReport: (body: { definition: ReportSpec; shared: boolean }, id?: string) =>
    id ? request.put<ReportSummary>(`/api/reports/${id}`, body).then((r) => r.data) : post<ReportSummary>('/api/reports', body),
  removeReport: (id: string) => request.delete(`/api/reports/${id}`),
  snapshots: () => get<Snapshot[]>('/api/snapshots'),
  takeSnapshot: (title: string, modules: string[]) => post<{ jobId: number; snapshotId: number }>('/api/snapshots', { title, modules }),
  diff: (a: number, b: number, module: string, kind: string, page: number) => get<SnapshotDiff>(`/api/snapshots/${a}/diff/${b}`, { module, kind, page, size: 10 }),
  snapshotRecords: (id: number, body: { module: string; where: unknown; page: number; size: number }) => post<{ content: Row[]; totalElements: number }>(`/api/snapshots/${id}/records`, body),
  schedules: () => get<SnapshotSchedule[]>('/api/snapshots/schedules'),
  addSchedule: (body: { title: string; modules: string[]; every: string }) => post<SnapshotSchedule>('/api/snapshots/schedules', body),
  removeSchedule: (id: number) => request.delete(`/api/snapshots/schedules/${id}`),
  /** The members behind a figure of 党员增减变化 (issue 41 §5): read through the member list, the caller's scope and masking apply. */
  memberChangeMembers: (q: { year: number; measure: string; orgId?: number; page: number; size: number }) =>
    get<{ content: Row[]; totalElements: number }>('/api/lifecycle/member-change/members', q),
  bigdata: () => get<BigData>('/api/bigdata/overview'),
  studyHours: (year: number) => get<StudyHours>('/api/bigdata/study-hours', { year }),
};

/** A data source a report may name (`GET /api/stat/sources`). */
export interface DataSourceInfo {
  code: string;
  title: string;
  module: string;
  /** Fields reports may use (empty: every stored field of the module). */
  fields: string[];
}

export interface SnapshotSchedule {
  id: number;
  title: string;
  modules: string[];
  every: 'month-end' | 'year-end';
  lastRun: string | null;
}

export interface Slice {
  label: string;
  value: number;
}

export interface BigData {
  year: number;
  updatedAt: string;
  members?: { total: number; byCommittee: (Slice & { full: number; probation: number })[] };
  gender?: Slice[];
  orgs?: { total: number; byCommittee: Slice[] };
  developmentYear?: Slice[];
}

/** The party school's study hours of a year in the caller's scope (hours done by the students of the year's classes). */
export interface StudyHours {
  year: number;
  hours: number;
  learners: number;
  byCommittee: (Slice & { learners: number })[];
}

/** A POST that answers a file, or 202 with a job (an export over 10,000 rows). */
export const postDownload = (url: string, body: unknown, fallbackName: string) => downloadOrJob(url, { method: 'POST', body, fallbackName });
