// engines: pglite — uploads and downloads stream to disk; file rows are plain SQL
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, userWithRole } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

const PASS = 'Files#2026ab';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4e50000000049454e44ae426082', 'hex');

/** A multipart body: the file (name and bytes) plus fields, placed before or after the file. */
function form(filename: string, content: string | Buffer, fields: Record<string, string> = {}, fieldsAfterFile = false): FormData {
  const fd = new FormData();
  const addFields = () => Object.entries(fields).forEach(([k, v]) => fd.append(k, v));
  if (!fieldsAfterFile) addFields();
  fd.append('file', new Blob([content as BlobPart]), filename);
  if (fieldsAfterFile) addFields();
  return fd;
}

/** Every file under a directory, recursively. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
}

describe(`files API on ${TEST_DB}`, () => {
  let t: TestApp;
  let dataDir: string;
  let admin: string;
  let alice: string;
  let bob: string;
  let reader: string;
  let aliceId: number;
  let base: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dj-files-'));
    t = await createTestApp({ DATA_DIR: dataDir });
    admin = await login(t.app);
    aliceId = await userWithRole(t.app, admin, { username: 'falice', permissions: ['member:add'], password: PASS });
    await userWithRole(t.app, admin, { username: 'fbob', permissions: ['dues:list'], password: PASS });
    await userWithRole(t.app, admin, { username: 'freader', permissions: ['member:list'], password: PASS });
    alice = await login(t.app, 'falice', PASS);
    bob = await login(t.app, 'fbob', PASS);
    reader = await login(t.app, 'freader', PASS);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const upload = (token: string | undefined, payload: FormData, url = '/api/file/upload') =>
    t.app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload });
  const get = (url: string, token?: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers: { ...(token ? bearer(token) : {}), ...headers } });
  const fileRow = (id: number) => t.database.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('[S7.F4a][S3.E14] POST /api/file/upload takes multipart with only file, or with file, moduleName and tag', async () => {
    const only = await upload(alice, form('报告.docx', 'hello world'));
    expect(only.statusCode, only.body).toBe(200);
    expect(only.json()).toMatchObject({ id: expect.any(Number), key: expect.stringMatching(/^[0-9a-f]{32}$/), name: '报告.docx', size: 11, mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' });
    // URLs name a file by its unguessable key (issue 12), never by its number.
    expect(only.json().url).toBe(`/api/file/view?id=${only.json().key}`);
    const row = await fileRow(only.json().id);
    expect(row).toMatchObject({ original_name: '报告.docx', size: 11, owner_id: aliceId, module_name: null, tag: null });
    expect(row.sha256).toBe('b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9');
    // Stored under DATA_DIR/files/yyyy/mm/<uuid>: nothing of the client's name on disk.
    expect(row.storage_name).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}$/);
    expect(fs.readFileSync(path.join(dataDir, 'files', row.storage_name), 'utf8')).toBe('hello world');

    for (const after of [false, true]) {
      const full = await upload(alice, form('photo.png', PNG, { moduleName: 'member', tag: '证件照' }, after));
      expect(full.statusCode, full.body).toBe(200);
      expect(await fileRow(full.json().id)).toMatchObject({ module_name: 'member', tag: '证件照', mime: 'image/png', size: PNG.length });
    }
  });

  it('refuses a forbidden type (415), a bad module name, a missing file and a caller without a session; nothing is stored', async () => {
    const before = filesUnder(dataDir).length;
    const exe = await upload(alice, form('setup.exe', 'MZ'));
    expect(exe.statusCode).toBe(415);
    expect(exe.json()).toMatchObject({ status: 415, message: '不支持的文件类型：.exe' });
    expect((await upload(alice, form('noext', 'x'))).json().message).toBe('不支持的文件类型：无扩展名');
    const html = await upload(alice, form('page.html', '<script>alert(1)</script>'));
    expect(html.statusCode).toBe(415);
    const badModule = await upload(alice, form('a.txt', 'x', { moduleName: '../etc' }));
    expect(badModule.json()).toMatchObject({ status: 400, errors: [{ field: 'moduleName', message: '模块名称的格式不正确' }] });
    const noFile = await t.app.inject({ method: 'POST', url: '/api/file/upload', headers: bearer(alice), payload: (() => { const f = new FormData(); f.append('tag', 'x'); return f; })() });
    expect(noFile.json()).toMatchObject({ status: 400, message: '请选择要上传的文件' });
    const json = await t.app.inject({ method: 'POST', url: '/api/file/upload', headers: bearer(alice), payload: { file: 'x' } });
    expect(json.json().message).toBe('请选择要上传的文件');
    expect((await upload(undefined, form('a.txt', 'x'))).statusCode).toBe(401);
    expect(filesUnder(dataDir).length).toBe(before);
  });

  it('a client file name with path parts (../../etc/passwd) is stored safely and downloaded under the sanitised name', async () => {
    const before = filesUnder(dataDir).length;
    const res = await upload(alice, form('../../etc/passwd.txt', 'root:x:0:0'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().name).toBe('passwd.txt');
    const win = await upload(alice, form('..\\..\\windows\\evil\u202egpj.pdf', '%PDF'));
    expect(win.json().name).toBe('evilgpj.pdf');
    // Both files are inside DATA_DIR/files, and nothing was written elsewhere.
    const after = filesUnder(dataDir);
    expect(after.length).toBe(before + 2);
    expect(after.every((f) => f.startsWith(path.join(dataDir, 'files') + path.sep))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'etc'))).toBe(false);
    const dl = await get(`/api/file/download?id=${res.json().id}`, alice);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-disposition']).toBe(`attachment; filename="passwd.txt"; filename*=UTF-8''passwd.txt`);
    expect(dl.body).toBe('root:x:0:0');
    // Without an extension such a name is refused outright.
    expect((await upload(alice, form('../../etc/passwd', 'root'))).statusCode).toBe(415);
  });

  it('[S7.F5] GET /api/file/download answers the bytes as an attachment named after the original file', async () => {
    const id = (await upload(alice, form('党费收缴表.xlsx', Buffer.from([1, 2, 3, 4, 5])))).json().id;
    const res = await get(`/api/file/download?id=${id}`, alice);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(Buffer.from([1, 2, 3, 4, 5]));
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="_____.xlsx"; filename*=UTF-8''${encodeURIComponent('党费收缴表.xlsx')}`);
    expect(res.headers['content-length']).toBe('5');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const cached = await get(`/api/file/download?id=${id}`, alice, { 'if-none-match': res.headers.etag as string });
    expect(cached.statusCode).toBe(304);
  });

  it('[S7.F7h] GET /api/file/view shows images, PDF and text inline; SVG and other types only as attachments', async () => {
    const cases: [string, string | Buffer, string, string][] = [
      ['a.png', PNG, 'inline', 'image/png'],
      ['a.pdf', '%PDF-1.4', 'inline', 'application/pdf'],
      ['a.txt', '你好', 'inline', 'text/plain; charset=utf-8'],
      ['a.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'attachment', 'image/svg+xml'],
      ['a.docx', 'x', 'attachment', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ];
    for (const [name, content, disposition, mime] of cases) {
      const id = (await upload(alice, form(name, content))).json().id;
      const res = await get(`/api/file/view?id=${id}`, alice);
      expect(res.statusCode, name).toBe(200);
      expect(res.headers['content-disposition'], name).toMatch(new RegExp(`^${disposition};`));
      expect(res.headers['content-type'], name).toBe(mime);
    }
  });

  it('[S7.F7i] GET /api/file/play honours Range requests with 206 and the right bytes', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    const id = (await upload(alice, form('课程.mp4', bytes))).json().id;
    const whole = await get(`/api/file/play?id=${id}`, alice);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-type']).toBe('video/mp4');
    const part = await get(`/api/file/play?id=${id}`, alice, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/1000');
    expect(part.headers['content-length']).toBe('100');
    expect(part.rawPayload).toEqual(bytes.subarray(100, 200));
    const open = await get(`/api/file/play?id=${id}`, alice, { range: 'bytes=990-' });
    expect(open.headers['content-range']).toBe('bytes 990-999/1000');
    expect(open.rawPayload).toEqual(bytes.subarray(990));
    const suffix = await get(`/api/file/play?id=${id}`, alice, { range: 'bytes=-10' });
    expect(suffix.rawPayload).toEqual(bytes.subarray(990));
    const beyond = await get(`/api/file/play?id=${id}`, alice, { range: 'bytes=1000-1100' });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */1000');
  });

  it('a file is served to its uploader and file:all holders (by key or number); to others it is not found (404, like an unknown id)', async () => {
    const ownFile = (await upload(alice, form('私人.txt', 'mine'))).json();
    const own = ownFile.id;
    const member = (await upload(alice, form('党员材料.txt', 'shared', { moduleName: 'member' }))).json();
    for (const url of ['/api/file/download', '/api/file/view', '/api/file/play']) {
      expect((await get(`${url}?id=${ownFile.key}`, bob)).json(), url).toMatchObject({ status: 404, message: '文件不存在或已被删除' });
      expect((await get(`${url}?id=${own}`, bob)).json(), url).toMatchObject({ status: 404, message: '文件不存在或已被删除' });
      expect((await get(`${url}?id=${ownFile.key}`)).statusCode, url).toBe(401);
    }
    expect((await get(`/api/file/download?id=${ownFile.key}`, reader)).statusCode).toBe(404);
    // A member's file attached to no member record: its uploader only (record access: security-scope.test.ts).
    expect((await get(`/api/file/download?id=${member.key}`, reader)).statusCode).toBe(404);
    expect((await get(`/api/file/download?id=${member.key}`, alice)).body).toBe('shared');
    expect((await get(`/api/file/download?id=${member.key}`, bob)).statusCode).toBe(404);
    expect((await get(`/api/file/download?id=${own}`, alice)).body).toBe('mine');
    expect((await get(`/api/file/download?id=${own}`, admin)).body).toBe('mine');
    expect((await get(`/api/file/download?id=${ownFile.key}`, admin)).body).toBe('mine');
    expect((await get('/api/file/download?id=999999', alice)).json()).toMatchObject({ status: 404, message: '文件不存在或已被删除' });
    expect((await get('/api/file/view?id=abc', alice)).json()).toMatchObject({ status: 400, message: '请指定文件' });
  });

  it('[S7.F7d] POST /api/users/updateAvatar stores an image and sets the avatar; the old one is removed; others can see it', async () => {
    const avatarForm = (name: string, content: string | Buffer) => {
      const fd = new FormData();
      fd.append('avatar', new Blob([content as BlobPart]), name);
      return fd;
    };
    const first = await upload(alice, avatarForm('me.png', PNG), '/api/users/updateAvatar');
    expect(first.statusCode, first.body).toBe(200);
    const avatar = first.json().avatar as string;
    expect(avatar).toMatch(/^\/api\/file\/view\?id=[0-9a-f]{32}$/);
    expect((await get('/auth/info', alice)).json().avatar).toBe(avatar);
    expect((await get(avatar, bob)).statusCode).toBe(200);
    const second = await upload(alice, avatarForm('me2.jpg', PNG), '/api/users/updateAvatar');
    expect((await get(avatar, alice)).statusCode).toBe(404);
    expect((await get('/auth/info', alice)).json().avatar).toBe(second.json().avatar);
    expect((await upload(alice, avatarForm('me.svg', '<svg/>'), '/api/users/updateAvatar')).json().message).toBe('不支持的文件类型：.svg');
    const big = await upload(alice, avatarForm('big.png', Buffer.alloc(5 * 1024 * 1024 + 1)), '/api/users/updateAvatar');
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('文件大小不能超过5MB');
    expect((await get('/auth/info', alice)).json().avatar).toBe(second.json().avatar);
  });

  it('mobile upload: a one-time token lets a phone upload into the desktop user\'s files, pushed to the desktop websocket', async () => {
    const tokenRes = await t.app.inject({ method: 'POST', url: '/api/file/mobileToken', headers: bearer(alice) });
    expect(tokenRes.statusCode, tokenRes.body).toBe(200);
    const { token, expiresAt } = tokenRes.json();
    expect(new Date(expiresAt).getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    expect((await get(`/api/file/mobileToken/${token}`, alice)).json()).toMatchObject({ used: false, expired: false, file: null });
    expect((await get(`/api/file/mobileToken/${token}`, bob)).statusCode).toBe(404);
    expect((await get(`/api/file/mobileUpload?token=${token}`)).json()).toMatchObject({ valid: true });

    const ws = new WebSocket(`ws://${base}/websocket?token=${alice}`);
    const frames: { type: string; file?: { name: string } }[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d))));
    await new Promise((resolve) => ws.once('open', resolve));

    const phone = await t.app.inject({ method: 'POST', url: `/api/file/mobileUpload?token=${token}`, payload: form('现场照片.jpg', PNG) });
    expect(phone.statusCode, phone.body).toBe(200);
    expect((await fileRow(phone.json().id)).owner_id).toBe(aliceId);
    const again = await t.app.inject({ method: 'POST', url: `/api/file/mobileUpload?token=${token}`, payload: form('b.jpg', PNG) });
    expect(again.json()).toMatchObject({ status: 400, message: '二维码已失效，请在电脑端刷新' });
    const poll = (await get(`/api/file/mobileToken/${token}`, alice)).json();
    expect(poll).toMatchObject({ used: true, file: { id: phone.json().id, name: '现场照片.jpg' } });
    await expect.poll(() => frames.find((f) => f.type === 'upload')).toMatchObject({ type: 'upload', file: { name: '现场照片.jpg' } });
    ws.close();

    expect((await t.app.inject({ method: 'POST', url: '/api/file/mobileUpload?token=forged', payload: form('c.jpg', PNG) })).json().message).toBe('二维码已失效，请在电脑端刷新');
    const stale = (await t.app.inject({ method: 'POST', url: '/api/file/mobileToken', headers: bearer(alice) })).json().token;
    await t.database.db.updateTable('file_upload_tokens').set({ expires_at: new Date(Date.now() - 1000) }).where('used_at', 'is', null).execute();
    expect((await t.app.inject({ method: 'POST', url: `/api/file/mobileUpload?token=${stale}`, payload: form('d.jpg', PNG) })).statusCode).toBe(400);
    expect((await get(`/api/file/mobileToken/${stale}`, alice)).json()).toMatchObject({ used: false, expired: true });
    expect((await t.app.inject({ method: 'POST', url: '/api/file/mobileToken' })).statusCode).toBe(401);
  });

  it('[S7.F7a][S7.F7b] POST /api/deploy/upload and /api/database/upload store the package for operations (superuser only)', async () => {
    for (const kind of ['deploy', 'database']) {
      const res = await upload(admin, form(kind === 'deploy' ? 'web.zip' : 'dump.sql', 'x'), `/api/${kind}/upload`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toMatch(/请联系运维人员/);
      expect((await fileRow(res.json().file.id)).module_name).toBe(kind);
      expect((await upload(alice, form('a.zip', 'x'), `/api/${kind}/upload`)).statusCode).toBe(403);
    }
    expect((await upload(admin, form('run.sh', 'rm -rf /'), '/api/deploy/upload')).statusCode).toBe(415);
  });

  it('[S7.F7c][S7.F7e][S7.F7f][S7.F7g] /api/pictures, /api/qiNiuContent, /api/upload and /api/localStorage list, upload and delete the caller\'s files', async () => {
    const pic = await upload(bob, form('风采.png', PNG), '/api/pictures');
    expect(pic.statusCode, pic.body).toBe(200);
    expect((await upload(bob, form('a.pdf', 'x'), '/api/pictures')).statusCode).toBe(415);
    const viaAlias = await upload(bob, form('通知.pdf', '%PDF'), '/api/upload');
    expect(viaAlias.statusCode).toBe(200);
    const local = await upload(bob, form('记录.txt', 'x'), '/api/localStorage');
    expect(local.statusCode).toBe(200);

    const pictures = (await get('/api/pictures?page=0&size=10', bob)).json();
    expect(pictures.content.map((f: { name: string }) => f.name)).toEqual(['风采.png']);
    const all = (await get('/api/localStorage?page=0&size=10', bob)).json();
    expect(all.totalElements).toBe(3);
    expect((await get('/api/localStorage?blurry=通知', bob)).json().content.map((f: { name: string }) => f.name)).toEqual(['通知.pdf']);
    expect((await get('/api/qiNiuContent', bob)).json().totalElements).toBe(3);
    expect((await get('/api/localStorage', alice)).json().content.map((f: { id: number }) => f.id)).not.toContain(local.json().id);

    const stored = path.join(dataDir, 'files', (await fileRow(local.json().id)).storage_name);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/localStorage', headers: bearer(alice), payload: [local.json().id] })).json()).toMatchObject({ status: 404, message: '文件不存在或不是您上传的' });
    const del = await t.app.inject({ method: 'DELETE', url: '/api/localStorage', headers: bearer(bob), payload: [local.json().id] });
    expect(del.statusCode, del.body).toBe(200);
    expect(fs.existsSync(stored)).toBe(false);
    expect((await get('/api/localStorage', bob)).json().totalElements).toBe(2);
    expect((await get('/api/pictures')).statusCode).toBe(401);
  });

  it('[S7.F7j] GET /api/archivesShareFile/viewFile?fileId= serves a file under the same access rule', async () => {
    const id = (await upload(alice, form('档案.pdf', '%PDF-archive'))).json().id;
    const res = await get(`/api/archivesShareFile/viewFile?fileId=${id}`, alice);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('%PDF-archive');
    expect((await get(`/api/archivesShareFile/viewFile?fileId=${id}`, bob)).statusCode).toBe(404);
  });

  it('[S7.F7l][S7.F7m] /druid and /doc.html are routed pages (for administrators)', async () => {
    expect((await get('/doc.html')).statusCode).toBe(401);
    expect((await get('/druid', alice)).statusCode).toBe(403);
    const doc = await get('/doc.html', admin);
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toMatch(/^text\/html/);
    expect(doc.body).toContain('<title>接口文档</title>');
    expect(doc.body).toMatch(/<td>POST<\/td><td><code>\/api\/file\/upload<\/code><\/td><td>登录<\/td>/);
    expect(doc.body).toMatch(/<td>GET<\/td><td><code>\/api\/sysConfig\/listAll<\/code><\/td><td>公开<\/td>/);
    expect(doc.body).toMatch(/<td>GET<\/td><td><code>\/api\/sysConfig<\/code><\/td><td>sysconfig:list<\/td>/);
    expect(doc.body).toContain('/auth/login');
    expect(doc.body).toContain('/api/health');
    const druid = await get('/druid', admin);
    expect(druid.statusCode).toBe(200);
    expect(druid.body).toContain('<title>数据库监控</title>');
    expect(druid.body).toContain(TEST_DB === 'pglite' ? 'PGlite' : 'PostgreSQL');
    expect(druid.body).toMatch(/SELECT 1 耗时<\/th><td>\d+\.\d\d ms/);
    expect(druid.body).not.toMatch(/postgres(ql)?:\/\//);
  });

  /**
   * Real HTTP without keep-alive (node:http, agent false): an idle pooled connection would otherwise race
   * the server's close at the end of the file. The multipart body is streamed from `content`.
   */
  function httpUpload(token: string, filename: string, content: AsyncIterable<Buffer>): Promise<{ status: number; body: Record<string, unknown> }> {
    const boundary = '----djtest';
    async function* body() {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
      yield* content;
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    }
    return new Promise((resolve, reject) => {
      const req = http.request(`http://${base}/api/file/upload`, { method: 'POST', agent: false, headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      });
      req.on('error', reject);
      pipeline(Readable.from(body()), req).catch(reject);
    });
  }

  /** Downloads over real HTTP, counting bytes without keeping them. */
  function httpDownloadSize(token: string, url: string): Promise<number> {
    return new Promise((resolve, reject) => {
      http.get(`http://${base}${url}`, { agent: false, headers: bearer(token) }, (res) => {
        let n = 0;
        res.on('data', (c: Buffer) => (n += c.length));
        res.on('end', () => resolve(n));
      }).on('error', reject);
    });
  }

  async function* repeat(chunk: Buffer, total: number) {
    for (let sent = 0; sent < total; sent += chunk.length) yield sent + chunk.length > total ? chunk.subarray(0, total - sent) : chunk;
  }

  it('an upload over 200MB is refused with 413 and leaves nothing behind (real HTTP, streamed)', async () => {
    const before = filesUnder(dataDir).length;
    const started = performance.now();
    const res = await httpUpload(alice, 'big.zip', repeat(Buffer.alloc(1024 * 1024), 200 * 1024 * 1024 + 1024));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ status: 413, message: '文件大小不能超过200MB' });
    console.log(`[files] oversized 200MB+ upload refused in ${Math.round(performance.now() - started)} ms`);
    expect(filesUnder(dataDir).length).toBe(before);
  });

  it('a 50 MB file uploads and downloads over HTTP as streams (time and memory logged)', async () => {
    const size = 50 * 1024 * 1024;
    let peak = 0;
    const baseline = process.memoryUsage();
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.heapUsed + m.arrayBuffers - baseline.heapUsed - baseline.arrayBuffers);
    }, 10);
    try {
      const t0 = performance.now();
      const up = await httpUpload(alice, 'fifty.zip', repeat(Buffer.alloc(1024 * 1024, 7), size));
      const uploadMs = performance.now() - t0;
      expect(up.status).toBe(200);
      expect(up.body.size).toBe(size);
      const t1 = performance.now();
      expect(await httpDownloadSize(alice, `/api/file/download?id=${up.body.id}`)).toBe(size);
      const downloadMs = performance.now() - t1;
      // Not asserted: garbage collection timing makes heap figures noisy; buffering would show as >= 50 MB.
      console.log(`[files] 50 MB on ${TEST_DB}: upload ${Math.round(uploadMs)} ms, download ${Math.round(downloadMs)} ms, peak heap+buffers growth ${Math.round(peak / 1048576)} MB`);
      const row = await fileRow(up.body.id as number);
      expect(fs.statSync(path.join(dataDir, 'files', row.storage_name)).size).toBe(size);
    } finally {
      clearInterval(sampler);
    }
  }, 60_000);
});
