/** 模板管理's own endpoints (src/server/domain/templates/index.ts). */
import type { Job } from '../../../shared/statistics';
import { download } from '../../core/request/download';
import { get, post, request } from '../../core/request/request';

export interface UsableTemplate {
  id: number;
  name: string;
  category: string;
  kind: 'docx' | 'xlsx';
  sourceModule: string;
  sourceTitle: string;
  description: string | null;
}

export type RenderFormat = 'docx' | 'pdf' | 'xlsx';

const renderUrl = (id: number) => `/api/templates/${id}/render`;

export const templateApi = {
  usable: () => get<UsableTemplate[]>('/api/templates/usable'),
  options: (module: string, q?: string) => get<{ id: number; name: string }[]>(`/api/m/${module}/options`, { q, size: 50 }),
  /** The filled document as bytes (the preview). */
  pdf: async (id: number, record: number) => (await request.get<ArrayBuffer>(renderUrl(id), { params: { record, format: 'pdf', inline: 1 }, responseType: 'arraybuffer' })).data,
  download: (t: UsableTemplate, record: number, format: RenderFormat) => download(renderUrl(t.id), { record, format }, `${t.name}.${format}`),
  bulk: (id: number, body: { ids?: number[]; filter?: Record<string, unknown>; format: RenderFormat }) => post<{ jobId: number }>(`/api/templates/${id}/bulk`, body),
  job: (id: number) => get<Job>(`/api/jobs/${id}`),
  downloadUrl: (url: string, name: string) => download(url, undefined, name),
};
