/** The work area's own endpoints (src/server/domain/work/documents.ts). */
import { get } from '../../core/request/request';
import { download } from '../../core/request/download';

export interface DocumentItem {
  id: number;
  title: string;
  category: string;
  description: string | null;
  /** Spec §4 share type: custom organisations 1, roles 2, every party branch 3. */
  shareType: number | null;
  publishDate: string | null;
  downloads: number;
  fileName: string | null;
}

export interface DocumentPage {
  content: DocumentItem[];
  totalElements: number;
  categories: { category: string; n: number }[];
}

export const workApi = {
  documents: (params: { q?: string; category?: string; page: number; size: number }) => get<DocumentPage>('/api/work/documents', params),
  newest: (limit = 5) => get<DocumentItem[]>('/api/work/documents/newest', { limit }),
  download: (d: DocumentItem) => download(`/api/work/documents/${d.id}/download`, undefined, d.fileName ?? d.title),
};
