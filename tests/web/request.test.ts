import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AxiosError, type AxiosAdapter, type InternalAxiosRequestConfig } from 'axios';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NOTIFY_DURATION, REQUEST_TIMEOUT } from '../../src/shared/constants';
import { TOKEN_KEY, removeToken, setToken } from '../../src/web/core/auth/token';
import { download, downloadName, filenameFromDisposition } from '../../src/web/core/request/download';
import { setFeedback } from '../../src/web/core/request/feedback';
import { cancelAll, createRequest, errorText, request, serializeParams, setRequestHooks } from '../../src/web/core/request/request';

const notified: { title: unknown; duration?: number }[] = [];
const confirms: Record<string, unknown>[] = [];
setFeedback({
  message: {} as never,
  modal: { confirm: (c: Record<string, unknown>) => confirms.push(c) } as never,
  notification: { error: (n: { title: unknown; duration?: number }) => notified.push(n) } as never,
});

/** An adapter that records what the request layer sends and answers with `status`. */
function recorder(status = 200, data: unknown = { ok: true }) {
  const sent: InternalAxiosRequestConfig[] = [];
  const adapter: AxiosAdapter = async (config) => {
    sent.push(config);
    if (status >= 400) {
      const response = { status, data, headers: {}, config, statusText: '' };
      throw new AxiosError('Request failed', String(status), config, null, response as never);
    }
    return { status, data, headers: {}, config, statusText: 'OK' };
  };
  return { sent, adapter };
}

beforeEach(() => {
  notified.length = 0;
  confirms.length = 0;
  removeToken();
});

describe('the request layer (spec §7 common behaviour, §8 errors)', () => {
  it('[S7.C1a] sends the Authorization header only when a token exists; [S7.C1b] JSON; [S7.C1c] with credentials', async () => {
    const r = createRequest(false);
    const rec = recorder();
    r.defaults.adapter = rec.adapter;
    await r.get('/auth/code');
    expect(rec.sent[0].headers.Authorization).toBeUndefined();
    setToken('tok123');
    expect(document.cookie).toContain(`${TOKEN_KEY}=tok123`);
    await r.post('/api/x', { a: 1 });
    expect(rec.sent[1].headers.Authorization).toBe('Bearer tok123');
    expect(rec.sent[1].headers['Content-Type']).toBe('application/json');
    expect(r.defaults.withCredentials).toBe(true);
  });

  it('[S7.C2a] in production PUT and DELETE go out as POST with X-HTTP-Method-Override', async () => {
    const prod = createRequest(true);
    const rec = recorder();
    prod.defaults.adapter = rec.adapter;
    await prod.put('/api/users', { id: 1 });
    await prod.delete('/api/users', { data: [1] });
    expect(rec.sent.map((c) => [c.method, c.headers['X-HTTP-Method-Override']])).toEqual([['post', 'PUT'], ['post', 'DELETE']]);
    const dev = createRequest(false);
    const rec2 = recorder();
    dev.defaults.adapter = rec2.adapter;
    await dev.put('/api/users', {});
    expect(rec2.sent[0].method).toBe('put');
  });

  it('[S7.C3] serialises query arrays without indices', async () => {
    expect(serializeParams({ ids: [1, 2], name: '张三', skip: undefined })).toBe(`ids=1&ids=2&name=${encodeURIComponent('张三')}`);
    const r = createRequest(false);
    const rec = recorder();
    r.defaults.adapter = rec.adapter;
    await r.get('/api/x', { params: { ids: [1, 2] } });
    expect(r.getUri(rec.sent[0])).toContain('ids=1&ids=2');
  });

  it('[S7.C6a][S9.L1a] the default timeout is 60000 ms', () => {
    expect(createRequest(false).defaults.timeout).toBe(REQUEST_TIMEOUT);
    expect(REQUEST_TIMEOUT).toBe(60000);
  });

  it('[S7.C5] cancels every pending request at once', async () => {
    const r = createRequest(false);
    r.defaults.adapter = (config) =>
      new Promise((_resolve, reject) => config.signal?.addEventListener?.('abort', () => reject(new AxiosError('canceled', AxiosError.ERR_CANCELED, config))));
    const pending = [r.get('/a'), r.get('/b'), r.get('/c')].map((p) => p.then(() => 'done', (e: AxiosError) => e.code));
    cancelAll();
    expect(await Promise.all(pending)).toEqual([AxiosError.ERR_CANCELED, AxiosError.ERR_CANCELED, AxiosError.ERR_CANCELED]);
    expect(notified).toEqual([]);
  });

  it('[S8.E3a][S8.E6][S9.L3a] an error answer shows the server message for 5000 ms; [S8.E3b] unless the request opts out', async () => {
    const r = createRequest(false);
    r.defaults.adapter = recorder(400, { status: 400, message: '用户名已存在' }).adapter;
    await expect(r.post('/api/users', {})).rejects.toThrow();
    expect(notified).toEqual([{ title: '用户名已存在', duration: NOTIFY_DURATION / 1000 }]);
    expect(NOTIFY_DURATION).toBe(5000);
    await expect(r.post('/api/users', {}, { skipErrorNotify: true })).rejects.toThrow();
    expect(notified).toHaveLength(1);
    r.defaults.adapter = recorder(500, { status: 500, message: '服务器内部错误' }).adapter;
    await expect(r.get('/x')).rejects.toThrow();
    expect(notified[1].title).toBe('服务器内部错误');
  });

  it('[S8.E4] a timeout shows 网络请求超时; [S8.E5a][S8.E5b][S8.E5c] no response shows the text, 接口调用失败 or 后端服务未启动', () => {
    expect(errorText(new AxiosError('timeout of 60000ms exceeded', 'ECONNABORTED'))).toBe('网络请求超时');
    expect(errorText(new AxiosError('Network Error', 'ERR_NETWORK'))).toBe('Network Error');
    expect(errorText(new AxiosError('', 'ERR_NETWORK'))).toBe('接口调用失败');
    expect(errorText(new AxiosError('Error occurred while trying to proxy request', 'ERR_NETWORK'))).toBe('后端服务未启动');
  });

  it('[S8.E4] a request that exceeds its timeout fails with the timeout notification', async () => {
    const server = http.createServer(() => undefined); // never answers
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const r = createRequest(false);
    r.defaults.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    r.defaults.adapter = 'http'; // a real socket; the DOM's XHR would refuse the cross-origin test server
    await expect(r.get('/slow', { timeout: 200 })).rejects.toThrow();
    expect(notified.at(-1)?.title).toBe('网络请求超时');
    server.closeAllConnections();
    server.close();
  });

  it('a burst of 401 answers opens one prompt, not one per call (the dialog itself: tests/e2e/session-errors.test.ts)', async () => {
    const r = createRequest(false);
    r.defaults.adapter = recorder(401, { status: 401, message: '登录状态已过期，请重新登录' }).adapter;
    await Promise.allSettled([r.get('/a'), r.get('/b'), r.get('/c')]);
    expect(confirms).toHaveLength(1);
    expect(confirms[0]).toMatchObject({ title: '系统提示', okText: '重新登录', cancelText: '取消', mask: { closable: false }, keyboard: false });
    expect(notified).toEqual([]);
    (confirms[0].onCancel as () => void)();
    await expect(r.get('/d')).rejects.toThrow();
    expect(confirms).toHaveLength(2); // closed, the next 401 asks again
    (confirms[1].onCancel as () => void)();
  });

  it('[issue 13.1] a 403 to a part of the page (inPlace: a panel, a tab, a picker) stays there: notified, no /401', async () => {
    const onForbidden = vi.fn();
    setRequestHooks({ onExpired: vi.fn(), onForbidden });
    const r = createRequest(false);
    r.defaults.adapter = recorder(403, { status: 403, message: '没有访问权限' }).adapter;
    await expect(r.post('/api/m/child/list', {}, { inPlace: true })).rejects.toThrow();
    expect(onForbidden).not.toHaveBeenCalled();
    expect(notified.at(-1)?.title).toBe('没有访问权限');
  });

  it('[issue 43.1] a refused action (a save, an export, a download) stays on the page with a message; a refused read of the page goes to /401', async () => {
    const onForbidden = vi.fn();
    setRequestHooks({ onExpired: vi.fn(), onForbidden });
    const r = createRequest(false);
    r.defaults.adapter = recorder(403, { status: 403, message: '没有访问权限' }).adapter;
    await expect(r.post('/api/query/export', { module: 'member' })).rejects.toThrow();
    await expect(r.put('/api/m/member', {})).rejects.toThrow();
    await expect(r.get('/api/m/member/export', { responseType: 'blob' })).rejects.toThrow();
    expect(onForbidden).not.toHaveBeenCalled();
    expect(notified.slice(-3).map((n) => n.title)).toEqual(['没有权限执行该操作', '没有权限执行该操作', '没有权限执行该操作']);
    r.defaults.adapter = recorder(403, { status: 403, message: '只能处理本支部的记录' }).adapter;
    await expect(r.post('/api/m/member/1/transitions/x', {})).rejects.toThrow();
    expect(notified.at(-1)?.title).toBe('只能处理本支部的记录'); // a guard's own reason is kept
    await expect(r.post('/api/m/member/list', {})).rejects.toThrow();
    await expect(r.get('/api/users')).rejects.toThrow();
    expect(onForbidden).toHaveBeenCalledTimes(2);
  });

  it('[S7.C4a] downloads read the file name from content-disposition; [S7.F5] name plus optional extension', () => {
    expect(filenameFromDisposition(`attachment; filename="_____.xlsx"; filename*=UTF-8''${encodeURIComponent('模板.xlsx')}`)).toBe('模板.xlsx');
    expect(filenameFromDisposition('attachment; filename=模板.xlsx')).toBe('模板.xlsx');
    expect(filenameFromDisposition('attachment; filename="report.pdf"')).toBe('report.pdf');
    expect(filenameFromDisposition(undefined)).toBeUndefined();
    expect(downloadName('花名册')).toBe('花名册');
    expect(downloadName('花名册', 'xlsx')).toBe('花名册.xlsx');
  });
});

describe('download() of the product', () => {
  it('[S7.C4b] asks for a blob and saves the bytes as they came, under the name of content-disposition', async () => {
    const bytes = new Uint8Array([1, 2, 3, 250, 0, 128]);
    const sent: InternalAxiosRequestConfig[] = [];
    const network = request.defaults.adapter;
    // The network answers; download() and the request layer are the product's.
    request.defaults.adapter = async (config) => {
      sent.push(config);
      return { status: 200, data: new Blob([bytes]), headers: { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('模板.xlsx')}` }, config, statusText: 'OK' };
    };
    const saved: Blob[] = [];
    const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push(blob as Blob);
      return 'blob:saved';
    });
    const clicked: { href: string; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    try {
      const result = await download('/api/users/template', { type: 'all' }, 'fallback.xlsx');
      expect(sent[0]).toMatchObject({ url: '/api/users/template', responseType: 'blob', params: { type: 'all' } });
      expect(result.name).toBe('模板.xlsx');
      expect(clicked).toEqual([{ href: 'blob:saved', download: '模板.xlsx' }]);
      expect([...new Uint8Array(await saved[0].arrayBuffer())]).toEqual([...bytes]);
    } finally {
      request.defaults.adapter = network;
      createObjectURL.mockRestore();
      click.mockRestore();
    }
  });
});
