/**
 * The mobile terminal's requests: the same API and session as the desktop (the DJ-TOKEN cookie), with no
 * axios or antd so the shell stays small. Every request names the terminal (spec §9: MOBILE 2).
 */
import { getToken, removeToken } from '../core/auth/token';
import { TERMINAL_HEADER, TERMINAL_MOBILE } from '../../shared/terminal';

export interface Page<T> {
  content: T[];
  totalElements: number;
}

/** The mobile login form (/web/m/login), coming back afterwards to the screen asked for (a to-do link opened on a phone). */
export function toLogin(): void {
  const here = window.location.pathname + window.location.search;
  window.location.assign(`/web/m/login${here.startsWith('/web/m/') && !here.startsWith('/web/m/login') ? `?redirect=${encodeURIComponent(here)}` : ''}`);
}

export class ApiError extends Error {
  /** The server's field messages (`errors` of a 400), shown under the fields. */
  fields: { field: string; message: string }[] = [];
  /** Whether the refusal asks for a captcha (a locked account: server core/auth/lockout.ts). */
  captchaRequired = false;
}

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { [TERMINAL_HEADER]: String(TERMINAL_MOBILE) };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const form = body instanceof FormData;
  if (body !== undefined && !form) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : form ? body : JSON.stringify(body) });
  } catch {
    throw new ApiError('网络不可用，请稍后重试');
  }
  if (res.status === 401 && url !== '/auth/login') {
    removeToken();
    toLogin();
    throw new ApiError('登录已过期，请重新登录');
  }
  const data = (await res.json().catch(() => ({}))) as T & { message?: string; errors?: unknown };
  if (!res.ok) {
    const error = new ApiError(data.message || `请求失败（${res.status}）`);
    if (Array.isArray(data.errors)) error.fields = data.errors as ApiError['fields'];
    error.captchaRequired = (data as { captchaRequired?: unknown }).captchaRequired === true;
    throw error;
  }
  return data;
}

export const get = <T>(url: string) => call<T>('GET', url);
export const post = <T>(url: string, body: unknown = {}) => call<T>('POST', url, body);
/** A multipart body (`FormData`: a file upload) goes as is. */
export const postForm = <T>(url: string, form: FormData) => call<T>('POST', url, form);
