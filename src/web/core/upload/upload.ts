import type { AxiosProgressEvent } from 'axios';
import { LONG_REQUEST_TIMEOUT } from '../../../shared/constants';
import { FILE_TYPES, MAX_UPLOAD_BYTES, extensionOf, formatBytes } from '../../../shared/file-types';
import { endpoints } from '../config/endpoints';
import { post } from '../request/request';

/** A stored file as the file API answers it. */
export interface UploadedFile {
  /** The file's number, for the owner's own lists (delete). */
  id: number;
  /** The unguessable key URLs name the file by (`/api/file/view?id=<key>`). */
  key: string;
  name: string;
  size: number;
  mime: string;
  moduleName: string | null;
  tag: string | null;
  createTime: string;
  url: string;
}

export interface UploadOptions {
  /** Defaults to `POST /api/file/upload`. */
  url?: string;
  moduleName?: string;
  tag?: string;
  /** Query parameters (the phone page's `token`). */
  params?: Record<string, unknown>;
  /** 0–100; 100 only once the server answered (the file is stored, not just sent). */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  skipErrorNotify?: boolean;
}

/** What the server accepts: the extension list of the file API, as an `accept` attribute. */
export const ACCEPT_ALL = Object.keys(FILE_TYPES)
  .map((ext) => `.${ext}`)
  .join(',');

/** Whole percent of `loaded` out of `total`, within 0–100 (0 while the total is unknown). */
export function progressPercent(loaded: number, total: number | undefined): number {
  if (!total || total <= 0 || !Number.isFinite(loaded)) return 0;
  return Math.max(0, Math.min(100, Math.floor((loaded / total) * 100)));
}

/** Why a file will be refused, said before sending it: a type not on the list, or too big. */
export function uploadProblem(file: { name: string; size: number }, maxBytes = MAX_UPLOAD_BYTES, types: Readonly<Record<string, string>> = FILE_TYPES): string | undefined {
  const ext = extensionOf(file.name);
  if (!types[ext]) return `不支持的文件类型：${ext ? `.${ext}` : '无扩展名'}`;
  if (file.size > maxBytes) return `文件大小不能超过${formatBytes(maxBytes)}`;
  return undefined;
}

/**
 * Uploads one file as multipart (`file`, optional `moduleName` and `tag`: spec S7.F4a) with the long
 * timeout, reporting progress. The bytes being sent count up to 99; 100 follows the server's answer.
 */
export async function uploadFile<T = UploadedFile>(file: Blob, name: string, opts: UploadOptions = {}): Promise<T> {
  const form = new FormData();
  if (opts.moduleName) form.append('moduleName', opts.moduleName);
  if (opts.tag) form.append('tag', opts.tag);
  form.append('file', file instanceof File && file.name === name ? file : new File([file], name, { type: file.type }));
  opts.onProgress?.(0);
  const answer = await post<T>(opts.url ?? endpoints.fileUpload, form, {
    params: opts.params,
    timeout: LONG_REQUEST_TIMEOUT,
    // Not JSON: axios would turn the form into JSON; the browser sets the multipart boundary itself.
    headers: { 'Content-Type': 'multipart/form-data' },
    signal: opts.signal,
    skipErrorNotify: opts.skipErrorNotify,
    onUploadProgress: (event: AxiosProgressEvent) => opts.onProgress?.(Math.min(99, progressPercent(event.loaded, event.total ?? file.size))),
  });
  opts.onProgress?.(100);
  return answer;
}
