/** The API of 填报管理 (server: src/server/domain/forms/index.ts). */
import type { ModuleSchema } from '../../../shared/module-schema/types';
import { downloadOrJob } from '../../core/jobs/useJob';
import { download } from '../../core/request/download';
import { get, post, put, request } from '../../core/request/request';

export interface FormSummary {
  id: string;
  title: string;
  shareType: number | null;
  shareState: number | null;
  deadline: string | null;
  organisations: number;
  submitted: number;
  accepted: number;
}

export interface FormDetail {
  id: string;
  title: string;
  shareType: number | null;
  shareState: number | null;
  deadline: string | null;
  version: number | null;
  versions: { version: number }[];
}

export interface Progress {
  orgId: number;
  orgName: string | null;
  state: number;
  stateLabel: string;
  joinType: number | null;
  schemaVersion: number | null;
  comment: string | null;
}

export interface Answer {
  orgId: number;
  state: number;
  stateLabel: string;
  comment: string | null;
  deadline: string | null;
  shareState: number | null;
  values: Record<string, unknown>;
}

export interface PublishInput {
  shareType: number;
  orgIds?: number[];
  roleIds?: number[];
  deadline: string;
}

export const FORMS_KEY = 'forms';

export const formsApi = {
  /** Dictionaries by their Chinese names (the designer's 字典选项). */
  dictionaries: () => get<{ code: string; name: string }[]>('/api/dict/names'),
  list: () => get<FormSummary[]>('/api/forms'),
  detail: (id: string) => get<FormDetail>(`/api/forms/${id}`),
  schema: (id: string) => get<{ schema: ModuleSchema }>(`/api/m/${id}/schema`).then((r) => r.schema),
  create: (title: string, schema: ModuleSchema) => post<{ id: string; version: number }>('/api/forms', { title, schema }),
  change: (id: string, title: string, schema: ModuleSchema) => put<{ id: string; version: number }>(`/api/forms/${id}/schema`, { title, schema }),
  publish: (id: string, input: PublishInput) => post<{ organisations: number }>(`/api/forms/${id}/publish`, input),
  progress: (id: string) => get<Progress[]>(`/api/forms/${id}/progress`),
  answer: (id: string, orgId?: number) => get<Answer>(`/api/forms/${id}/answer`, orgId ? { orgId } : {}),
  fill: (id: string, values: Record<string, unknown>, submit: boolean, orgId?: number) => post<Answer>(`/api/forms/${id}/fill`, { values, submit, ...(orgId && { orgId }) }),
  decide: (id: string, step: 'return' | 'accept', orgId: number, comment?: string) => post(`/api/forms/${id}/${step}`, { orgId, comment }),
  remind: (id: string) => post<{ organisations: number; users: number }>(`/api/forms/${id}/remind`),
  stop: (id: string) => post(`/api/forms/${id}/stop`),
  /** Every answer as .xlsx, or (over 10,000 rows) a job: `{ jobId }`. */
  exportAnswers: (id: string, title: string) => downloadOrJob(`/api/forms/${id}/export`, { fallbackName: `${title}.xlsx` }),
  exportFile: (id: string) => download(`/api/forms/${id}/file`, undefined, `${id}.json`),
  importFor: (id: string, orgId: number, file: File) => {
    const body = new FormData();
    body.append('file', file);
    return request.post(`/api/forms/${id}/import`, body, { params: { orgId } });
  },
  /** Role names for publishing to roles (the role picker's options, for who may publish, not only 角色管理). */
  roles: () => get<{ id: number; name: string }[]>('/api/m/role/options', { size: 100 }),
};
