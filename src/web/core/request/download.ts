import type { AxiosRequestConfig } from 'axios';
import { request } from './request';

/** The file name from a content-disposition header (RFC 5987 `filename*` preferred). */
export function filenameFromDisposition(header: string | undefined | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) return decodeURIComponent(star[1].trim());
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  if (!plain) return undefined;
  try {
    return decodeURIComponent(plain[1].trim());
  } catch {
    return plain[1].trim();
  }
}

/** `name` or `name.ext` (spec S7.F5). */
export function downloadName(name: string, ext?: string): string {
  return ext ? `${name}.${ext.replace(/^\./, '')}` : name;
}

/** Hands a blob to the browser as a file download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Downloads as a blob and saves it under the server's file name (or `fallbackName`). */
export async function download(url: string, params?: Record<string, unknown>, fallbackName = 'download', config?: AxiosRequestConfig) {
  const response = await request.get<Blob>(url, { ...config, params, responseType: 'blob' });
  const name = filenameFromDisposition(response.headers['content-disposition'] as string | undefined) ?? fallbackName;
  saveBlob(response.data, name);
  return { name, blob: response.data };
}
