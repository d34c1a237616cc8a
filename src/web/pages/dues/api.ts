/** The dues API as the pages call it (answers typed in src/shared/dues/api.ts). */
import type {
  AdjustmentView, ArrearsRow, BatchLogEntry, BatchStepResult, BatchView, BranchStandards, Calculation, DuesSettings, GenerateResult, ItemView, LapseCandidate, MyDues,
  OnsiteMember, OrderView, Page, PayrollResult, ProgressNode, Receipt, YearReport,
} from '../../../shared/dues/api';
import { parseTime } from '../../../shared/format';
import type { ImportMode } from '../../../shared/module-schema/api';
import { download } from '../../core/request/download';
import { del, get, post, put } from '../../core/request/request';

export const duesKeys = {
  all: ['dues'] as const,
  batches: ['dues', 'batches'] as const,
  batch: (id: number) => ['dues', 'batch', id] as const,
  settings: ['dues', 'settings'] as const,
};

export const duesApi = {
  calculate: (category: string, base?: string) => get<Calculation>('/api/dues/calculate', { category, base }, { skipErrorNotify: true }),
  settings: () => get<DuesSettings>('/api/dues/settings'),
  saveSettings: (body: { baseFormula: DuesSettings['baseFormula'] | null }) => put<DuesSettings>('/api/dues/settings', body),
  generate: (year: number, orgId?: number) => post<GenerateResult>('/api/dues/standards/generate', { year, orgId }),
  branches: (year: number, orgId?: number) => get<BranchStandards[]>('/api/dues/standards/branches', { year, orgId }),
  confirm: (orgId: number, year: number) => post<BranchStandards>('/api/dues/standards/confirm', { orgId, year }),
  payrollTemplate: (year: number) => download('/api/dues/standards/payroll-template', { year }, `${year}年党费工资表模板.xlsx`),
  importPayroll: (year: number, file: File, mode: ImportMode) => {
    const form = new FormData();
    form.append('mode', mode);
    form.append('file', file, file.name);
    return post<PayrollResult>(`/api/dues/standards/import?year=${year}`, form, { headers: { 'Content-Type': 'multipart/form-data' }, timeout: 600_000 });
  },

  batches: (year?: number) => get<BatchView[]>('/api/dues/batches', { year }),
  batch: (id: number) => get<BatchView>(`/api/dues/batches/${id}`),
  // The batch is the module dues-batch: created and deleted by the module API, moved by its workflow's steps.
  createBatch: (firstMonth: string, months: number, remark?: string) => post<{ id: number; title: string }>('/api/m/dues-batch', { firstMonth, months, ...(remark && { remark }) }),
  step: (b: { id: number; version: number }, step: string, values: Record<string, unknown> = {}, comment = '', config?: { skipErrorNotify?: boolean }) =>
    post<BatchStepResult>(`/api/m/dues-batch/${b.id}/transitions/${step}`, { version: b.version, values, comment }, config),
  configure: (b: BatchView, allowMissing = false) => duesApi.step(b, 'configure', allowMissing ? { allowMissing } : {}, '', { skipErrorNotify: true }),
  start: (b: BatchView) => duesApi.step(b, 'start'),
  close: (b: BatchView) => duesApi.step(b, 'close'),
  remove: (id: number) => del<{ message: string }>('/api/m/dues-batch', [id]),
  progress: (id: number, orgId?: number) => get<ProgressNode[]>(`/api/dues/batches/${id}/progress`, { orgId }),
  exportProgress: (id: number, title: string, orgId?: number) => download(`/api/dues/batches/${id}/progress/export`, { orgId }, `${title}收缴情况.xlsx`),
  items: (id: number, q: { orgId?: number; status?: string; name?: string; page: number; size: number }) => get<Page<ItemView>>(`/api/dues/batches/${id}/items`, q),
  log: (id: number) => get<BatchLogEntry[]>(`/api/dues/batches/${id}/log`),
  /** 上报 for one organisation: the batch as it is now (other organisations' reports moved its version). */
  report: async (id: number, orgId: number, comment?: string) => duesApi.step(await get<{ id: number; version: number }>(`/api/m/dues-batch/${id}`), 'report', { orgId }, comment),
  defer: (id: number, itemIds: number[], kind: string, reason: string) => post<{ message: string }>(`/api/dues/batches/${id}/deferrals`, { itemIds, kind, reason }),
  undefer: (id: number, itemIds: number[]) => del<{ message: string }>(`/api/dues/batches/${id}/deferrals`, { itemIds }),
  adjustments: (id: number) => get<AdjustmentView[]>(`/api/dues/batches/${id}/adjustments`),
  adjust: (id: number, memberId: number, amount: string, reason: string) => post<{ id: number }>(`/api/dues/batches/${id}/adjustments`, { memberId, amount, reason }),
  removeAdjustment: (id: number) => del<{ message: string }>(`/api/dues/adjustments/${id}`),

  onsiteMembers: (q: { orgId?: number; name?: string; page: number; size: number }) => get<Page<OnsiteMember>>('/api/dues/onsite/members', q),
  pay: (body: { method: string; payer?: string; entries: { memberId: number; itemIds: number[]; backPayItemIds?: number[]; extra?: string }[] }) => post<Receipt[]>('/api/dues/payments', body),
  payments: (q: { orgId?: number; memberId?: number; batchId?: number; page: number; size: number }) => get<Page<Receipt>>('/api/dues/payments', q),
  reverse: (id: number, reason: string) => post<Receipt>(`/api/dues/payments/${id}/reverse`, { reason }),
  waive: (memberId: number, body: { itemIds: number[]; reason: string; approval: string }) => post<{ message: string }>(`/api/dues/members/${memberId}/waivers`, body),

  year: (year: number, orgId?: number) => get<YearReport>('/api/dues/reports/year', { year, orgId }),
  exportYear: (year: number, orgId?: number) => download('/api/dues/reports/year/export', { year, orgId }, `${year}年党费收缴统计.xlsx`),
  arrears: (q: { orgId?: number; period?: string; page: number; size: number }) => get<Page<ArrearsRow>>('/api/dues/reports/arrears', q),
  exportArrears: (q: { orgId?: number; period?: string }) => download('/api/dues/reports/arrears/export', q, '党费欠缴名单.xlsx'),
  lapse: (orgId?: number) => get<Page<LapseCandidate>>('/api/dues/reports/lapse', { orgId }),
  exportLapse: (orgId?: number) => download('/api/dues/reports/lapse/export', { orgId }, '连续六个月未交纳党费名单.xlsx'),

  my: (year?: number) => get<MyDues>('/api/dues/my', { year }),
  order: (itemIds: number[], extra?: string) => post<OrderView>('/api/dues/my/orders', { itemIds, extra }),
  simulate: (orderId: number, result: 'success' | 'fail') => post<OrderView>(`/api/dues/pay/simulator/${orderId}`, { result }),
};

/** "2026-11" → "2026年11月". */
export const monthText = (month: string) => `${month.slice(0, 4)}年${Number(month.slice(5, 7))}月`;
export const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
export const yuan = (text: string) => `¥${text}`;
export const timeText = (time: string | null | undefined) => parseTime(time, '{y}-{m}-{d} {h}:{i}');
