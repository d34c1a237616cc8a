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

/** The desktop login, coming back to this screen afterwards (LoginPage leads /m/… redirects to this page): a scanned check-in code survives the login. */
export function toLogin(): void {
  const here = window.location.pathname.startsWith('/web/m/') ? window.location.pathname.slice('/web'.length) : '/m/';
  window.location.assign(`/web/login?redirect=${encodeURIComponent(here)}`);
}

export class ApiError extends Error {}

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { [TERMINAL_HEADER]: String(TERMINAL_MOBILE) };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError('网络不可用，请稍后重试');
  }
  if (res.status === 401) {
    removeToken();
    toLogin();
    throw new ApiError('登录已过期，请重新登录');
  }
  const data = (await res.json().catch(() => ({}))) as T & { message?: string };
  if (!res.ok) throw new ApiError(data.message || `请求失败（${res.status}）`);
  return data;
}

export const get = <T>(url: string) => call<T>('GET', url);
export const post = <T>(url: string, body: unknown = {}) => call<T>('POST', url, body);
