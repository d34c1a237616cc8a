/**
 * The generic module API (`/api/m/{module}/...`) as the renderer calls it, and the react-query keys of
 * its answers. Shapes follow src/server/runtime/routes.ts.
 */
import { useQuery } from '@tanstack/react-query';
import type { AxiosRequestConfig } from 'axios';
import type { ChangeRecord, DeletedEntry, ImportMode, ImportStatus, ModuleRecord, RecordPage } from '../../shared/module-schema/api';
import type { ModuleAction, ModuleSchema } from '../../shared/module-schema/types';
import type { Page } from '../../shared/paging';
import { downloadOrJob } from '../core/jobs/useJob';
import { download } from '../core/request/download';
import { del, get, post, put } from '../core/request/request';

/** What `GET /api/m/{module}/schema` answers: the school-merged schema and what the caller may do. */
export interface ModuleMeta {
  schema: ModuleSchema;
  /** 'deleted': the caller may list and restore the module's deleted records. */
  actions: (ModuleAction | 'deleted')[];
  dicts: string[];
}

export type { ChangeRecord, DeletedEntry, FieldChange, ImportMode, ImportRowError, ImportStatus, ModuleRecord, RecordPage } from '../../shared/module-schema/api';

export interface ListParams {
  page: number;
  size: number;
  /** `field,asc|desc`. */
  sort?: string;
  /** false: skip the count (the answer's totalElements is then given only when the page shows it). */
  count?: boolean;
}

export interface RefOption {
  id: number;
  name: string;
}

/** Query keys: everything of a module under `['module', id]`, so one invalidation refreshes it all. */
export const moduleKeys = {
  all: (module: string) => ['module', module] as const,
  meta: (module: string) => ['module', module, 'meta'] as const,
  list: (module: string) => ['module', module, 'list'] as const,
  record: (module: string, id: number) => ['module', module, 'record', id] as const,
  trail: (module: string, id: number) => ['module', module, 'trail', id] as const,
  deleted: (module: string) => ['module', module, 'deleted'] as const,
};

const base = (module: string) => `/api/m/${encodeURIComponent(module)}`;

/** Requests of a part of the page (detail drawer, child tables, trail, pickers): a 403 shows there, the app stays. */
export const IN_PLACE: AxiosRequestConfig = { inPlace: true };

export const moduleApi = {
  /** The modules the caller may list (`GET /api/m`): ids and titles. */
  modules: () => get<{ id: string; title: string }[]>('/api/m', undefined, IN_PLACE),
  meta: (module: string, config?: AxiosRequestConfig) => get<ModuleMeta>(`${base(module)}/schema`, undefined, config),
  list: (module: string, filter: Record<string, unknown>, params: ListParams, config?: AxiosRequestConfig) =>
    post<Omit<RecordPage, 'totalElements'> & { totalElements?: number }>(`${base(module)}/list`, filter, { ...config, params }),
  get: (module: string, id: number) => get<ModuleRecord>(`${base(module)}/${id}`, undefined, IN_PLACE),
  create: (module: string, values: Record<string, unknown>) => post<ModuleRecord>(base(module), values, { skipErrorNotify: true }),
  /** Errors are shown on the form (400 field messages, 409 conflict), not as a notification. */
  update: (module: string, values: Record<string, unknown>) => put<ModuleRecord>(base(module), values, { skipErrorNotify: true }),
  /** New records of one spread form (x-form.spread), all or none; errors are shown on the form. */
  createMany: (module: string, rows: Record<string, unknown>[]) => post<{ ids: number[]; message: string }>(`${base(module)}/many`, { rows }, { skipErrorNotify: true }),
  /** Rows of a grid saved together, all or none (x-children grid); a refusal names its row, shown on the grid. */
  updateMany: (module: string, rows: Record<string, unknown>[]) => put<{ content: ModuleRecord[] }>(`${base(module)}/batch`, { rows }, { skipErrorNotify: true }),
  remove: (module: string, ids: number[]) => del<{ message: string; deleted: number }>(base(module), ids),
  trail: (module: string, id: number, page = 0, size = 50) =>
    get<Page<ChangeRecord>>(`${base(module)}/${id}/trail`, { page, size }, IN_PLACE),
  restore: (module: string, id: number, changeId: number) => post<ModuleRecord>(`${base(module)}/${id}/restore/${changeId}`, {}, IN_PLACE),
  deleted: (module: string, page = 0, size = 10) => get<Page<DeletedEntry>>(`${base(module)}/deleted`, { page, size }, IN_PLACE),
  restoreDeleted: (module: string, deletionId: number) =>
    post<{ message: string; id: number }>(`${base(module)}/deleted/${deletionId}/restore`, {}, IN_PLACE),
  /** The list as .xlsx, or (over 10,000 rows) a job: `{ jobId }`; `from` is the page the job's message leads back to. */
  exportFile: (module: string, title: string, filter: Record<string, unknown>, sort: string | undefined, from: string) =>
    downloadOrJob(`${base(module)}/export`, { params: { filter: JSON.stringify(filter), sort }, fallbackName: `${title}.xlsx`, from }),
  template: (module: string, title: string) => download(`${base(module)}/template`, undefined, `${title}导入模板.xlsx`),
  importFile: (module: string, file: File, mode: ImportMode, from?: string) => {
    const form = new FormData();
    form.append('mode', mode);
    form.append('file', file, file.name);
    return post<{ jobId: number }>(`${base(module)}/import`, form, { headers: { 'Content-Type': 'multipart/form-data' }, params: from ? { from } : undefined });
  },
  importStatus: (module: string, jobId: number) => get<ImportStatus>(`${base(module)}/import/${jobId}`),
  /** The bad rows with an error column (`reportUrl` of a finished job). */
  importReport: (reportUrl: string, title: string) => download(reportUrl, undefined, `${title}导入错误报告.xlsx`),
  /** Records of a module by name for pickers: `q` typed text, or `ids` to name chosen values. */
  options: (module: string, params: { q?: string; ids?: number[]; size?: number }) =>
    get<RefOption[]>(`${base(module)}/options`, { q: params.q, ids: params.ids?.join(','), size: params.size }, { ...IN_PLACE, skipErrorNotify: true }),
};

/**
 * The merged schema and allowed actions of a module, loaded once per module and kept for the session.
 * `inPlace`: for a part of a page (a child table), whose refusal must not send the app to /401.
 */
export function useModuleMeta(module: string, inPlace = false) {
  return useQuery({
    queryKey: moduleKeys.meta(module),
    queryFn: () => moduleApi.meta(module, inPlace ? IN_PLACE : undefined),
    staleTime: Infinity,
    gcTime: 60 * 60_000,
  });
}
