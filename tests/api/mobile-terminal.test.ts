// engines: pglite — one connection suffices (what differs by engine — locks, races, DDL, type parsing, notifications — is tested on both in the runtime, workflow and cluster files): the session's terminal is a column written at login and read by the online list on each engine
import fs from 'node:fs';
import os from 'node:os';
import zlib from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, enc } from '../support/auth.js';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const ANDROID_WECHAT = 'Mozilla/5.0 (Linux; Android 13; V2183A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/116.0 Mobile Safari/537.36 MicroMessenger/8.0.47';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/604.1';

/** Issue 31: the mobile terminal's manifest and service worker, and spec §9's terminal type of a session. */
describe(`mobile terminal on ${TEST_DB}`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.app.close());

  const loginAs = async (headers: Record<string, string>) => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', headers, payload: { username: 'admin', password: enc(t.app, DEMO_ADMIN_PASSWORD) } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token as string;
  };
  const terminalOf = async (token: string) => {
    const me = await t.app.inject({ url: '/api/online?size=100', headers: bearer(token) });
    expect(me.statusCode, me.body).toBe(200);
    const row = (me.json().content as { current: boolean; terminal: number }[]).find((r) => r.current);
    return row?.terminal;
  };

  it('the manifest answers at /web/m/manifest.webmanifest: name 党建, start_url /web/m/, standalone, icons', async () => {
    const res = await t.app.inject({ url: '/web/m/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = JSON.parse(res.body);
    expect(manifest).toMatchObject({ name: '党建', start_url: '/web/m/', scope: '/web/m/', display: 'standalone', lang: 'zh-CN' });
    expect(manifest.icons.length).toBeGreaterThan(0);
  });

  it('the manifest names maskable PNG icons of 192 and 512 px, and the files are PNGs of those sizes', async () => {
    const manifest = JSON.parse((await t.app.inject({ url: '/web/m/manifest.webmanifest' })).body) as { icons: { src: string; sizes: string; type: string; purpose: string }[] };
    for (const n of [192, 512]) {
      const icons = manifest.icons.filter((i) => i.sizes === `${n}x${n}` && i.type === 'image/png');
      expect(icons.map((i) => i.purpose).sort()).toEqual(['any', 'maskable']);
      // The PNG's IHDR: width and height after the 8-byte signature and the chunk's length and type.
      const png = fs.readFileSync(path.join('src/web/public', icons[0].src.replace(/^\/web\//, '')));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([n, n]);
    }
  });

  it('the service worker keeps the shell only: /api is never cached, offline shows 离线', async () => {
    const res = await t.app.inject({ url: '/web/m/sw.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toContain('离线');
    expect(res.body).not.toContain('/api');
    // It parses, and the page it keeps loses the session's user embedded by the server (a shared phone, offline).
    expect(() => new Function(res.body)).not.toThrow();
    const session = new Function(`${res.body.match(/const SESSION = [^\n]+/)![0]} return SESSION;`)() as RegExp;
    const page = '<main></main><script type="application/json" id="m-session">{"username":"dy"}</script></body>';
    expect(page.replace(session, '')).toBe('<main></main></body>');
  });

  it('a session made from the mobile app (X-Terminal: 2) reports terminal 2 in GET /api/online', async () => {
    expect(await terminalOf(await loginAs({ 'x-terminal': '2', 'user-agent': DESKTOP }))).toBe(2);
  });

  it('a login from a phone browser (iPhone, Android WeChat) is MOBILE 2; a desktop or an iPad is PC 1', async () => {
    expect(await terminalOf(await loginAs({ 'user-agent': IPHONE }))).toBe(2);
    expect(await terminalOf(await loginAs({ 'user-agent': ANDROID_WECHAT }))).toBe(2);
    expect(await terminalOf(await loginAs({ 'user-agent': DESKTOP }))).toBe(1);
    expect(await terminalOf(await loginAs({ 'user-agent': IPAD }))).toBe(1);
    // The app names itself over the browser: the desktop site opened on a phone with X-Terminal 1 is PC.
    expect(await terminalOf(await loginAs({ 'user-agent': IPHONE, 'x-terminal': '1' }))).toBe(1);
  });
});

/** Issue 31 (speed): the mobile page carries the signed-in user, so the app asks no /auth/info before its first data. */
describe(`the mobile page on ${TEST_DB}`, () => {
  let t: TestApp;
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dj-mobile-web-'));
  beforeAll(async () => {
    fs.mkdirSync(path.join(webDir, 'mobile'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>desk</title>');
    fs.writeFileSync(path.join(webDir, 'mobile', 'index.html'), '<!doctype html><html><body><div id="m-app"></div></body></html>');
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'assets', 'shell-abc.js'), 'console.log("shell")'.repeat(100));
    fs.writeFileSync(path.join(webDir, 'assets', 'shell-abc.js.br'), zlib.brotliCompressSync('console.log("shell")'.repeat(100)));
    t = await createTestApp({}, undefined, { webDir });
  });
  afterAll(async () => {
    await t.app.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('embeds the session cookie\'s user as a JSON block (never for a stranger or a bad token), compressed and private', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { username: 'admin', password: enc(t.app, DEMO_ADMIN_PASSWORD) } });
    const token = res.json().token as string;
    const page = await t.app.inject({ url: '/web/m/approvals', headers: { cookie: `DJ-TOKEN=${token}` } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    const block = /<script type="application\/json" id="m-session">(.*)<\/script><\/body>/.exec(page.body);
    expect(JSON.parse(block![1])).toMatchObject({ username: 'admin', isSuper: true });
    expect(block![1]).not.toContain('<');
    for (const cookie of [undefined, 'DJ-TOKEN=not-a-token']) {
      const anonymous = await t.app.inject({ url: '/web/m/', headers: cookie ? { cookie } : {} });
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.body).not.toContain('m-session');
    }
    const zipped = await t.app.inject({ url: '/web/m/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(zipped.rawPayload).toString()).toContain('<div id="m-app">');
  });

  it('sends the build\'s precompressed copy of an asset to a browser that accepts it (vite.config.ts writes them)', async () => {
    const br = await t.app.inject({ url: '/web/assets/shell-abc.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe('console.log("shell")'.repeat(100));
    const plain = await t.app.inject({ url: '/web/assets/shell-abc.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("shell")'.repeat(100));
  });
});
