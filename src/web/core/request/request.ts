import axios, { AxiosError, type AxiosInstance, type AxiosRequestConfig, type InternalAxiosRequestConfig } from 'axios';
import { NOTIFY_DURATION, REQUEST_TIMEOUT } from '../../../shared/constants';
import { getToken } from '../auth/token';
import { hasFeedback, showFeedback } from './feedback';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Do not show the error notification for this request (spec §8: "unless the request opts out"). */
    skipErrorNotify?: boolean;
    /**
     * The answer belongs to a part of the page (a panel, a tab, a picker), which shows a refusal in place:
     * a 403 does not send the whole app to /401 (it is notified like other errors unless skipErrorNotify).
     */
    inPlace?: boolean;
  }
}

export interface RequestHooks {
  /** Called once per burst of 401 answers, after the user confirms 重新登录. */
  onExpired: () => void;
  /** Called on a 403 answer to a page's read: the app navigates to /401. */
  onForbidden: () => void;
}

let hooks: RequestHooks = { onExpired: () => undefined, onForbidden: () => undefined };
export function setRequestHooks(value: RequestHooks): void {
  hooks = value;
}

const controllers = new Set<AbortController>();

/** Cancels every request in flight (spec §7: all pending requests can be cancelled at once). */
export function cancelAll(): void {
  for (const c of controllers) c.abort();
  controllers.clear();
}

/** Query parameters without array indices: `{ids:[1,2]}` → `ids=1&ids=2` (spec §7). */
export function serializeParams(params: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v === undefined || v === null) continue;
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(v instanceof Date ? v.toISOString() : String(v))}`);
    }
  }
  return parts.join('&');
}

/** The text the user sees for a failed request, per the spec's error catalogue (§8). */
export function errorText(error: AxiosError<{ message?: string }>): string {
  if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT' || /timeout/i.test(error.message)) return '网络请求超时';
  if (!error.response) {
    const text = error.message || '';
    if (/proxy/i.test(text)) return '后端服务未启动';
    return text || '接口调用失败';
  }
  return error.response.data?.message || error.message || '接口调用失败';
}

/** What a refused action says: the server's 没有访问权限 reads as "you may not see this page" beside a button. */
export const REFUSED = '没有权限执行该操作';

/** The server's own reason when it gives one (a guard's 403), else {@link REFUSED}. */
function refusalText(error: AxiosError<{ message?: string }>): string {
  const text = error.response?.data?.message;
  return !text || text === '没有访问权限' ? REFUSED : text;
}

/**
 * A 403 to a read of the page itself (spec §8: go to /401): a GET, or a module list's POST `…/list`. An action
 * (a save, a step, an export, a file download) or a read of a part of the page (`inPlace`) is refused where it
 * was asked for instead, and the page keeps what the user entered.
 */
function isPageRead(config: AxiosRequestConfig | undefined): boolean {
  if (!config || config.inPlace || config.responseType === 'blob') return false;
  const method = (config.method ?? 'get').toLowerCase();
  return method === 'get' || (method === 'post' && /\/list$/.test((config.url ?? '').split('?')[0]));
}

let expiredPromptOpen = false;

function showExpiredPrompt() {
  // Only inside the signed-in shell: a page outside it (the login page) has no session to renew.
  if (expiredPromptOpen || !hasFeedback()) return;
  expiredPromptOpen = true;
  showFeedback((f) => f.modal.confirm({
    title: '系统提示',
    content: '登录状态已过期，您可以继续留在该页面，或者重新登录',
    okText: '重新登录',
    cancelText: '取消',
    mask: { closable: false },
    keyboard: false,
    onOk: () => {
      expiredPromptOpen = false;
      hooks.onExpired();
    },
    onCancel: () => {
      expiredPromptOpen = false;
    },
  }));
}

/** Makes the one axios instance of the app (spec §7 common behaviour). `production` turns on method override. */
export function createRequest(production: boolean): AxiosInstance {
  const instance = axios.create({
    baseURL: '/',
    timeout: REQUEST_TIMEOUT,
    withCredentials: true,
    headers: { 'Content-Type': 'application/json' },
    paramsSerializer: { serialize: serializeParams },
  });

  instance.interceptors.request.use((config: InternalAxiosRequestConfig) => {
    const token = getToken();
    if (token) config.headers.set('Authorization', `Bearer ${token}`);
    const method = config.method?.toUpperCase();
    if (production && (method === 'PUT' || method === 'DELETE')) {
      config.headers.set('X-HTTP-Method-Override', method);
      config.method = 'post';
    }
    if (!config.signal) {
      const controller = new AbortController();
      controllers.add(controller);
      config.signal = controller.signal;
      (config as { _controller?: AbortController })._controller = controller;
    }
    return config;
  }, undefined, { synchronous: true }); // synchronous: a request is cancellable the moment it is issued

  const release = (config?: InternalAxiosRequestConfig) => {
    const controller = (config as { _controller?: AbortController } | undefined)?._controller;
    if (controller) controllers.delete(controller);
  };

  instance.interceptors.response.use(
    (response) => {
      release(response.config);
      return response;
    },
    (error: AxiosError<{ message?: string }>) => {
      release(error.config);
      if (axios.isCancel(error)) return Promise.reject(error);
      const status = error.response?.status;
      if (status === 401) {
        showExpiredPrompt();
      } else if (status === 403 && isPageRead(error.config)) {
        hooks.onForbidden();
      } else if (status === 403) {
        // A refused action (a save, an export, a download) stays on the page: what the user built is kept (issue 43.1).
        if (!error.config?.skipErrorNotify) showFeedback((f) => f.notification.error({ title: error.config?.inPlace ? errorText(error) : refusalText(error), duration: NOTIFY_DURATION / 1000 }));
      } else if (!error.config?.skipErrorNotify) {
        showFeedback((f) => f.notification.error({ title: errorText(error), duration: NOTIFY_DURATION / 1000 }));
      }
      return Promise.reject(error);
    },
  );
  return instance;
}

export const request = createRequest(import.meta.env.PROD);

/** GET/POST helpers answering the body. */
export async function get<T>(url: string, params?: Record<string, unknown>, config?: AxiosRequestConfig): Promise<T> {
  return (await request.get<T>(url, { ...config, params })).data;
}
export async function post<T>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<T> {
  return (await request.post<T>(url, data, config)).data;
}
export async function put<T>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<T> {
  return (await request.put<T>(url, data, config)).data;
}
export async function del<T>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<T> {
  return (await request.delete<T>(url, { ...config, data })).data;
}
