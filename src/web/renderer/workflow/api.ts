/**
 * The workflow API of a module with x-workflow (src/server/runtime/workflow/routes.ts) as the renderer
 * calls it, and the query keys of its answers (under the module's key, so one invalidation refreshes all).
 */
import { get, post } from '../../core/request/request';
import type { ModuleRecord } from '../api';

/** A step the caller may take now (`GET /api/m/{module}/{id}/transitions`). */
export interface OpenStep {
  id: string;
  title: string;
  to: number;
  toTitle: string;
  result: 'pass' | 'return' | 'reject' | 'withdraw';
  level: string;
  levelTitle: string;
  fields: { name: string; title: string; required: boolean }[];
  comment: 'required' | 'optional' | 'none';
  warnings: string[];
  /** What the step finds or will do (a round's candidates, a count's result): information, not a warning. */
  notes?: string[];
  blocked: string[];
}

/** One entry of the approval log (`GET /api/m/{module}/{id}/approvals`). */
export interface Approval {
  id: number;
  transition: string;
  title: string;
  from: number | null;
  fromTitle: string;
  to: number | null;
  toTitle: string;
  result: 'pass' | 'return' | 'reject' | 'withdraw';
  resultTitle: string;
  level: string;
  levelTitle: string;
  actingOrgName: string | null;
  actorName: string;
  comment: string;
  /** The step's values as given. */
  values: Record<string, unknown>;
  valueTexts: { field: string; title: string; text: string }[];
  warnings: string[];
  at: string;
}

export interface BatchAnswer {
  results: { id: number; status: 'done' | 'failed'; code: number; message: string; warnings?: string[]; notes?: string[] }[];
  done: number;
  failed: number;
}

export const workflowKeys = {
  steps: (module: string, id: number) => ['module', module, 'steps', id] as const,
  approvals: (module: string, id: number) => ['module', module, 'approvals', id] as const,
  waitingCount: (module: string) => ['module', module, 'waiting-count'] as const,
};

const base = (module: string) => `/api/m/${encodeURIComponent(module)}`;

export const workflowApi = {
  steps: (module: string, id: number) => get<OpenStep[]>(`${base(module)}/${id}/transitions`),
  approvals: (module: string, id: number) => get<Approval[]>(`${base(module)}/${id}/approvals`),
  /** Errors are shown in the step's dialog (field messages, the rule refused, a conflict). */
  take: (module: string, id: number, step: string, body: { version: number; comment: string; values: Record<string, unknown> }) =>
    post<ModuleRecord & { warnings: string[]; notes?: string[] }>(`${base(module)}/${id}/transitions/${encodeURIComponent(step)}`, body, { skipErrorNotify: true }),
  batch: (module: string, step: string, body: { ids: number[]; comment: string; values: Record<string, unknown> }) =>
    post<BatchAnswer>(`${base(module)}/transitions/${encodeURIComponent(step)}`, body),
  /** How many records wait for the caller. */
  waitingCount: async (module: string) => (await post<{ totalElements: number }>(`${base(module)}/list`, { $waiting: true }, { params: { page: 0, size: 1 } })).totalElements,
};
