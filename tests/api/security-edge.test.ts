// engines: pglite — websocket origins and request limits: no engine-specific SQL
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ARRAY_ITEMS } from '../../src/server/input-guard.js';
import { redactSecrets } from '../../src/server/log-redact.js';
import { bearer, enc, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Edge#2026abc';

/** Opens a websocket; resolves with 'open' or the HTTP status that refused the upgrade. */
function upgrade(url: string, origin?: string): Promise<number | 'open'> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin ? { origin } : {});
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', (err) => reject(err));
  });
}

/** Sends raw bytes over HTTP/1.1 and answers the status line and body (for what the HTTP parser refuses). */
function rawHttp(port: number, request: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...body] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body: body.join('\r\n\r\n') });
    });
  });
}

/** Issue 12 item 5 (tokens in the log), the websocket Origin, /doc.html and /druid, and bad input answering 500. */
describe(`the server's edge on ${TEST_DB}`, () => {
  let t: TestApp;
  let admin: string;
  let plain: string;
  let port: number;
  const logLines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({}, undefined, { logger: { level: 'info', stream: { write: (line: string) => void logLines.push(line) } } });
    admin = await login(t.app);
    await userWithRole(t.app, admin, { username: 'edgeplain', permissions: ['member:list'], password: PASS });
    plain = await login(t.app, 'edgeplain', PASS);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.app.close());

  describe('log', () => {
    it('a websocket connection does not write its token to the log', async () => {
      logLines.length = 0;
      expect(await upgrade(`ws://127.0.0.1:${port}/websocket?token=${plain}`)).toBe('open');
      await new Promise((r) => setTimeout(r, 100));
      const log = logLines.join('');
      expect(log).toContain('/websocket?token=[REDACTED]');
      expect(log).not.toContain(plain);
    });

    it('password, vercode and sessionId query parameters are redacted from every logged URL, and from errors quoting one', async () => {
      logLines.length = 0;
      await t.app.inject({ url: '/api/health?password=Pw-s3cr3t&vercode=123456&x=1&sessionId=sess-s3cr3t&TOKEN=tok-s3cr3t' });
      await t.app.inject({ url: '/api/m/%zz?token=bad-url-s3cr3t' });
      const log = logLines.join('');
      expect(log).toContain('/api/health?password=[REDACTED]&vercode=[REDACTED]&x=1&sessionId=[REDACTED]&TOKEN=[REDACTED]');
      for (const secret of ['Pw-s3cr3t', '123456', 'sess-s3cr3t', 'tok-s3cr3t', 'bad-url-s3cr3t']) expect(log).not.toContain(secret);
      expect(redactSecrets("'/websocket?a=1&token=abc' is not valid")).toBe("'/websocket?a=1&token=[REDACTED]' is not valid");
      expect(redactSecrets('/api/file/view?tokenized=1')).toBe('/api/file/view?tokenized=1');
    });
  });

  describe('websocket Origin', () => {
    it('an upgrade from another site is refused; the site itself and non-browser clients (no Origin) connect', async () => {
      const url = `ws://127.0.0.1:${port}/websocket?token=${plain}`;
      expect(await upgrade(url, 'https://evil.example')).toBe(403);
      expect(await upgrade(url, `http://127.0.0.1:${port + 1}`)).toBe(403);
      expect(await upgrade(url, 'null')).toBe(403);
      expect(await upgrade(url, `http://127.0.0.1:${port}`)).toBe('open');
      expect(await upgrade(url)).toBe('open');
    });
  });

  describe('/doc.html and /druid', () => {
    it('need an administrator (by bearer token or the web app\'s cookie)', async () => {
      for (const url of ['/doc.html', '/druid']) {
        expect((await t.app.inject({ url })).json(), url).toMatchObject({ status: 401 });
        expect((await t.app.inject({ url, headers: bearer(plain) })).json(), url).toMatchObject({ status: 403, message: '没有访问权限' });
        expect((await t.app.inject({ url, headers: { cookie: `DJ-TOKEN=${plain}` } })).statusCode, url).toBe(403);
        expect((await t.app.inject({ url, headers: { cookie: 'DJ-TOKEN=not-a-token' } })).statusCode, url).toBe(401);
        const byBearer = await t.app.inject({ url, headers: bearer(admin) });
        expect(byBearer.statusCode, url).toBe(200);
        expect(byBearer.headers['content-type']).toMatch(/^text\/html/);
        expect((await t.app.inject({ url, headers: { cookie: `theme=dark; DJ-TOKEN=${encodeURIComponent(admin)}` } })).statusCode, url).toBe(200);
      }
    });
  });

  describe('bad input answers 400, never 500', () => {
    const expect400 = (res: { statusCode: number; json(): unknown }, what: string) => {
      expect(res.statusCode, what).toBe(400);
      const body = res.json() as { status: number; message: string };
      expect(Object.keys(body).sort(), what).toEqual(['message', 'status']);
      expect(body.status).toBe(400);
      expect(body.message, what).toMatch(/[\u4e00-\u9fa5]/);
      return body.message;
    };

    it('a NUL character in the login body, another JSON body or a query string', async () => {
      const loginRes = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'ad\u0000min', password: enc(t.app, 'x') } });
      expect(expect400(loginRes, 'login')).toBe('请求内容包含无效字符（空字符），请检查后重试');
      const nested = await t.app.inject({ method: 'POST', url: '/api/sysConfig', headers: bearer(admin), payload: { configKey: 'k\u0000', configValue: 'x' } });
      expect400(nested, 'sysConfig body');
      expect400(await t.app.inject({ url: '/api/sysConfig?blurry=%00', headers: bearer(admin) }), 'query');
      expect400(await t.app.inject({ method: 'POST', url: '/api/m/member/list?page=0&size=10', headers: bearer(admin), payload: { name: 'a\u0000' } }), 'list filter');
    });

    it(`more than 65,535 ids in one body (the limit is ${MAX_ARRAY_ITEMS} items an array)`, async () => {
      const ids = Array.from({ length: 70_000 }, (_, i) => i + 1);
      for (const url of ['/api/sysConfig', '/api/m/member', '/api/users', '/api/msgPushHistory']) {
        const res = await t.app.inject({ method: 'DELETE', url, headers: bearer(admin), payload: ids });
        expect(expect400(res, url)).toBe(`一次最多提交${MAX_ARRAY_ITEMS}项数据，请分批操作`);
      }
      expect400(await t.app.inject({ method: 'DELETE', url: '/api/sysConfig', headers: bearer(admin), payload: { ids } }), 'nested ids');
    });

    it('bad % encoding, an over-long path segment and an out-of-range id', async () => {
      expect(expect400(await t.app.inject({ url: '/api/m/%zz', headers: bearer(admin) }), 'bad %')).toBe('请求地址包含无效的编码');
      expect(expect400(await t.app.inject({ url: `/api/m/member/${'1'.repeat(200)}`, headers: bearer(admin) }), 'long param')).toBe('请求地址过长');
      expect(expect400(await t.app.inject({ url: '/api/m/member/99999999999999', headers: bearer(admin) }), 'big id')).toBe('数值超出允许范围');
    });

    it('an over-long URL and a malformed request line over real HTTP', async () => {
      const long = await rawHttp(port, `GET /api/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      expect(long.status).toBe(400);
      expect(JSON.parse(long.body)).toEqual({ status: 400, message: '请求地址或请求头过长' });
      const garbage = await rawHttp(port, 'NOT A REQUEST\r\n\r\n');
      expect(garbage.status).toBe(400);
      expect(JSON.parse(garbage.body)).toEqual({ status: 400, message: '请求格式错误' });
      // The server still answers afterwards.
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
    });
  });
});
