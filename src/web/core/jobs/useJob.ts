/**
 * A background job seen from a page (docs/architecture.md, "Background jobs"): `useJob(id)` polls
 * `GET /api/jobs/{id}` while the job runs; `useJobParam()` is the job a page was opened with (`?job=<id>`,
 * the link of the owner's message) or one it started; `downloadOrJob` asks for a file the server may
 * answer at once or, when big, as a job (202 `{ jobId }`).
 */
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ExportState, type Job } from '../../../shared/jobs';
import { filenameFromDisposition, saveBlob } from '../request/download';
import { get, request } from '../request/request';

/** How often a running job is asked about. */
export const JOB_POLL_MS = 1000;

export function useJob(id: number | undefined) {
  return useQuery({
    queryKey: ['job', id],
    queryFn: () => get<Job>(`/api/jobs/${id}`),
    enabled: !!id,
    refetchInterval: (q) => (q.state.data?.state === ExportState.START ? JOB_POLL_MS : false),
  });
}

/** The job of the page's address (`?job=`), and a setter (a job just started; undefined clears it). */
export function useJobParam(): [number | undefined, (id: number | undefined) => void] {
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('job')) || undefined;
  const set = useCallback(
    (next: number | undefined) =>
      setParams(
        (old) => {
          const p = new URLSearchParams(old);
          if (next) p.set('job', String(next));
          else p.delete('job');
          return p;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [id, set];
}

/**
 * A GET or POST answering a file, or 202 with a job (an export over 10,000 rows): saves the file, or
 * answers the job's id. `from` (the page's path) is where the job's message leads.
 */
export async function downloadOrJob(
  url: string,
  options: { method?: 'GET' | 'POST'; params?: Record<string, unknown>; body?: unknown; fallbackName: string; from?: string },
): Promise<{ jobId?: number }> {
  const params = { ...options.params, ...(options.from && { from: options.from }) };
  const res = await request.request<Blob>({ url, method: options.method ?? 'GET', params, data: options.body, responseType: 'blob' });
  if (res.status === 202) return JSON.parse(await res.data.text()) as { jobId: number };
  saveBlob(res.data, filenameFromDisposition(res.headers['content-disposition'] as string | undefined) ?? options.fallbackName);
  return {};
}
