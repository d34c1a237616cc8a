import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { DEFAULT_PIN, startUkeySimulator, type UkeySimulator } from '../../scripts/ukey-simulator';
import { UKEY_PORTS } from '../../src/shared/constants';
import { TOKEN_KEY } from '../../src/web/core/auth/token';
import { endpoints } from '../../src/web/core/config/endpoints';
import { KEY_REMOVED_ALERT, NO_DEVICE_ALERT } from '../../src/web/core/ukey/controller';
import { api, apiLogin, encryptForServer } from '../support/api.js';
import { launchBrowser, newPage, webUrl } from '../support/browser.js';

const INIT_PASSWORD = 'Dj@123456';
const PASSWORD = 'Core#Pages2026';
const run = Date.now().toString(36).slice(-5);

let browser: Browser;
let admin: string;
const baseUrl = () => inject('baseUrl');

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiLogin();
});
afterAll(() => browser?.close());

interface TestUser {
  id: number;
  username: string;
  password: string;
  /** A live session: /auth/login is rate-limited (30 a minute), so tests reuse it until a logout ends it. */
  token: string;
}

/** A new account with a non-weak password (so no forced change dialog), optionally flagged useUkey. */
async function createUser(prefix: string, opts: { useUkey?: boolean } = {}): Promise<TestUser> {
  const username = `${prefix}_${run}`;
  const created = await api<{ id: number }>('POST', '/api/users', { username, nickName: `${prefix}用户` }, admin);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (opts.useUkey) {
    const flagged = await api('PUT', '/api/users', { id: created.body.id, useUkey: true }, admin);
    expect(flagged.status, JSON.stringify(flagged.body)).toBe(200);
  }
  const token = await apiLogin(username, INIT_PASSWORD);
  // Changing the password ends the user's other sessions; this one stays valid.
  const changed = await api('POST', '/api/users/updatePass', { newPass: await encryptForServer(PASSWORD) }, token);
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  return { id: created.body.id, username, password: PASSWORD, token };
}

/** A page signed in as `user` (token cookie), at `route`; `fresh`: a new session (the last one was logged out). */
async function openAs(user: TestUser | 'admin', route: string, opts: { context?: BrowserContext; fresh?: boolean } = {}): Promise<Page> {
  if (user !== 'admin' && opts.fresh) user.token = await apiLogin(user.username, user.password);
  const token = user === 'admin' ? admin : user.token;
  const context = opts.context;
  const page = context ? await context.newPage() : await newPage(browser);
  await page.context().addCookies([{ name: TOKEN_KEY, value: token, url: baseUrl() }]);
  await page.goto(webUrl(route));
  return page;
}

const tokenCookie = async (page: Page) => (await page.context().cookies()).find((c) => c.name === TOKEN_KEY)?.value;

/** Uploads a file through the API as `token`; answers the stored file. */
async function apiUpload(token: string, name: string, bytes: Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const res = await fetch(`${baseUrl()}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: number; name: string };
}

describe('personal centre', () => {
  it('[S2.R6a] /user/center is the personal centre inside the layout, titled 个人中心', async () => {
    const page = await openAs('admin', '/user/center');
    await page.getByText('个人信息').waitFor();
    expect(await page.locator('.app-sidebar, .sidebar-drawer').first().isVisible()).toBe(true);
    expect(await page.locator('.navbar').isVisible()).toBe(true);
    expect(await page.title()).toMatch(/^个人中心/);
    expect(new URL(page.url()).pathname).toBe('/web/user/center');
    for (const tab of ['基本资料', '修改邮箱', '修改密码', '登录记录', '我的文件']) await page.getByRole('tab', { name: tab }).waitFor();
    await page.context().close();
  });

  it('profile: name, phone and gender (dictionary DJ_COMM_XB) are saved with PUT api/users/center', async () => {
    const user = await createUser('profile');
    const page = await openAs(user, '/user/center');
    const form = page.locator('.user-center-form');
    await form.getByPlaceholder('请输入姓名').fill('张三丰');
    await form.getByPlaceholder('请输入手机号码').fill('1380013800'); // 10 digits: refused on blur
    await form.getByPlaceholder('请输入姓名').click();
    await page.getByText('请输入正确的手机号码').waitFor();
    await form.getByPlaceholder('请输入手机号码').fill(`139${String(Date.now()).slice(-8)}`);
    await form.getByText('女', { exact: true }).click();
    // A production build sends PUT as POST with X-HTTP-Method-Override (spec S7.C2a).
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/users/center') && (r.method() === 'PUT' || r.headers()['x-http-method-override'] === 'PUT'));
    await form.getByRole('button', { name: /保\s*存/ }).click();
    const body = (await sent).postDataJSON() as { nickName: string; gender: string };
    expect(body).toMatchObject({ nickName: '张三丰', gender: '2' });
    await page.getByText('保存成功').waitFor();
    const info = await api<{ nickName: string; gender: string }>('GET', '/auth/info', undefined, user.token);
    expect(info.body).toMatchObject({ nickName: '张三丰', gender: '2' });
    // The card shows the label, not the code.
    await page.locator('.user-center-info').getByText('女').waitFor();
    await page.context().close();
  });

  it('avatar: a picked picture is previewed, uploaded to /api/users/updateAvatar and shown (fetched with the token)', async () => {
    const user = await createUser('avatar');
    const page = await openAs(user, '/user/center');
    await page.getByText('个人信息').waitFor();
    // A 1×1 PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
    await page.locator('.user-avatar input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    const dialog = page.locator('.ant-modal').filter({ hasText: '更换头像' });
    await dialog.locator('img[alt="头像预览"]').waitFor();
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/users/updateAvatar'));
    await dialog.getByRole('button', { name: '确定上传' }).click();
    expect((await sent).status()).toBe(200);
    await page.getByText('头像修改成功').waitFor();
    const info = await api<{ avatar: string }>('GET', '/auth/info', undefined, user.token);
    expect(info.body.avatar).toMatch(/^\/api\/file\/view\?id=\d+$/);
    await expect.poll(() => page.locator('.user-avatar img').getAttribute('src')).toMatch(/^blob:/);
    // A forbidden type is refused before anything is sent.
    await page.locator('.user-avatar input[type=file]').setInputFiles({ name: 'vector.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg/>') });
    await page.getByText('不支持的文件类型：.svg').waitFor();
    await page.context().close();
  });

  it('[S5.V2c] changing the e-mail sends the password encrypted, with the code sent to the new address', async () => {
    const user = await createUser('mail');
    const email = `mail_${run}@example.edu.cn`;
    const page = await openAs(user, '/user/center?tab=email');
    const form = page.locator('.user-center-form');
    await form.getByPlaceholder('请输入新邮箱').fill(email);
    const codeSent = page.waitForResponse((r) => r.url().endsWith('/api/users/emailCode'));
    await form.getByRole('button', { name: '获取验证码' }).click();
    expect((await codeSent).status()).toBe(200);
    await form.getByRole('button', { name: /秒后重发/ }).waitFor();
    const outbox = await api<{ content: { target: string; content: string }[] }>('GET', `/api/outbox?target=${encodeURIComponent(email)}`, undefined, admin);
    const code = /(\d{6})/.exec(outbox.body.content[0]?.content ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await form.getByPlaceholder('请输入邮箱验证码').fill(code!);
    await form.getByPlaceholder('请输入当前密码').fill(user.password);
    const sent = page.waitForRequest((r) => r.url().includes('/api/users/updateEmail/') && r.method() === 'POST');
    await form.getByRole('button', { name: '修改邮箱' }).click();
    const request = await sent;
    expect(request.url()).toContain(`/api/users/updateEmail/${code}`);
    const body = request.postDataJSON() as { password: string; email: string };
    expect(body.email).toBe(email);
    expect(body.password).not.toBe(user.password);
    expect(request.postData()).not.toContain(user.password);
    await page.getByText('邮箱修改成功').waitFor();
    const info = await api<{ email: string }>('GET', '/auth/info', undefined, user.token);
    expect(info.body.email).toBe(email);
    await page.context().close();
  });

  it('[S5.V2a] changing the own password sends oldPass (and newPass) encrypted, then the notice and logout', async () => {
    const user = await createUser('pass');
    const page = await openAs(user, '/user/center?tab=password');
    const form = page.locator('.user-center-form');
    // Wrong old password: the server's field message, still signed in.
    await form.getByPlaceholder('请输入旧密码').fill('Wrong#Old2026');
    await form.getByPlaceholder('请输入新密码').fill('short');
    await form.getByPlaceholder('请再次输入密码').fill('other');
    await form.getByRole('button', { name: '修改密码' }).click();
    await page.getByText('密码须为8-20位，且同时包含字母、数字和特殊字符').waitFor();
    await page.getByText('两次输入的密码不一致').waitFor();
    const next = 'Next#Pass2026';
    await form.getByPlaceholder('请输入新密码').fill(next);
    await form.getByPlaceholder('请再次输入密码').fill(next);
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/users/updatePass'));
    await form.getByRole('button', { name: '修改密码' }).click();
    expect((await refused).status()).toBe(400);
    await form.getByText('旧密码错误').waitFor();

    await form.getByPlaceholder('请输入旧密码').fill(user.password);
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/users/updatePass'));
    await form.getByRole('button', { name: '修改密码' }).click();
    const request = await sent;
    const body = request.postDataJSON() as { oldPass: string; newPass: string };
    expect(body.oldPass).toBeTruthy();
    expect(body.oldPass).not.toBe(user.password);
    expect(body.newPass).not.toBe(next);
    expect(request.postData()).not.toContain(user.password);
    expect(request.postData()).not.toContain(next);
    await page.getByText('密码修改成功，请重新登录').waitFor();
    const shown = Date.now();
    await page.waitForURL(/\/web\/login/, { timeout: 5000 });
    expect(Date.now() - shown).toBeGreaterThan(1000);
    expect(await tokenCookie(page)).toBeUndefined();
    await expect(apiLogin(user.username, next)).resolves.toBeTruthy();
    await page.context().close();
  });

  it('login history lists the own sign-ins, failed ones included', async () => {
    const user = await createUser('hist');
    const failed = await api('POST', '/auth/login', { username: user.username, password: await encryptForServer('Wrong#Pass1') });
    expect(failed.status).toBe(400);
    const page = await openAs(user, '/user/center?tab=history');
    const table = page.locator('.ant-table');
    await table.getByText('失败').first().waitFor();
    await table.getByText('成功').first().waitFor();
    expect(await table.locator("tbody tr.ant-table-row").count()).toBeGreaterThanOrEqual(2);
    await page.context().close();
  });
});

describe('files', () => {
  it('[S7.F4b][S7.F4a] an upload shows a 0–100 % progress that updates and ends at 100', async () => {
    const user = await createUser('upl');
    const page = await openAs(user, '/user/center?tab=files');
    await page.getByRole('button', { name: '上传文件' }).waitFor();
    // Slow the network so the progress can be watched.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 4 * 1024 * 1024 });
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { __percents: number[] }).__percents = seen;
      new MutationObserver(() => {
        const el = document.querySelector('.upload-button .upload-progress');
        const p = el ? Number(el.getAttribute('data-percent')) : NaN;
        if (!Number.isNaN(p) && seen.at(-1) !== p) seen.push(p);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-percent'] });
    });
    const big = Buffer.alloc(12 * 1024 * 1024, 7);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/file/upload'), { timeout: 60_000 });
    await page.locator('.upload-button input[type=file]').setInputFiles({ name: '党建资料.pdf', mimeType: 'application/pdf', buffer: big });
    expect((await answered).status()).toBe(200);
    await page.locator('.upload-button .upload-progress[data-status="done"]').waitFor();
    const percents = await page.evaluate(() => (window as unknown as { __percents: number[] }).__percents);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    expect(percents.at(-1)).toBe(100);
    expect(percents.filter((p) => p > 0 && p < 100).length).toBeGreaterThanOrEqual(3);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(await page.locator('.upload-button .ant-progress').getAttribute('class')).toContain('ant-progress-status-success');
    // The stored file is listed in 我的文件.
    await page.locator('.my-files .ant-table').getByText('党建资料.pdf').waitFor();
    await page.context().close();
  });

  it('[S7.F6] a .download-enclosure element downloads /api/file/download?id=<id>, saved under its text', async () => {
    const user = await createUser('encl');
    const file = await apiUpload(user.token, 'server-side-name.docx', new TextEncoder().encode('PK fake docx'));
    const page = await openAs(user, '/dashboard');
    await page.locator('.navbar').waitFor();
    await page.evaluate((id) => {
      const box = document.createElement('div');
      box.innerHTML = `<p>附件：<a class="download-enclosure" data-id="${id}" href="#">报告.docx</a></p>`;
      document.querySelector('.app-main')!.appendChild(box);
    }, file.id);
    const requested = page.waitForRequest((r) => r.url().includes('/api/file/download'));
    const download = page.waitForEvent('download');
    await page.getByText('报告.docx').click();
    expect(new URL((await requested).url()).searchParams.get('id')).toBe(String(file.id));
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('报告.docx');
    const stream = await saved.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('PK fake docx');
    await page.context().close();
  });

  it('[S7.F8] preview opens the preview service in a new window with the base64 file URL of image base URL + id', async () => {
    const user = await createUser('prev');
    const file = await apiUpload(user.token, '制度汇编.pdf', new TextEncoder().encode('%PDF-1.4 test'));
    const page = await openAs(user, '/user/center?tab=files');
    const row = page.locator('.my-files tr', { hasText: '制度汇编.pdf' });
    await row.waitFor();
    const popup = page.context().waitForEvent('page');
    await row.getByRole('button', { name: /预\s*览/ }).click();
    const opened = await popup;
    const url = new URL(opened.url());
    expect(`${url.pathname}`).toBe(endpoints.filePreviewService);
    expect(Buffer.from(url.searchParams.get('url')!, 'base64').toString('utf8')).toBe(`${baseUrl()}${endpoints.imageBaseUrl}${file.id}`);
    await page.context().close();
  });

  it('[S2.R2a][S2.R2b][S2.R2c] 手机上传: the QR link opens /mobileUpload without a session and the phone upload reaches the desktop user', async () => {
    const user = await createUser('mob');
    const desktop = await openAs(user, '/user/center?tab=files');
    await desktop.getByRole('button', { name: '手机上传' }).click();
    const dialog = desktop.locator('.ant-modal').filter({ hasText: '手机上传' });
    await dialog.locator('img[alt="手机上传二维码"]').waitFor();
    const link = (await dialog.locator('.mobile-upload-link a').getAttribute('href'))!;
    expect(link).toMatch(new RegExp(`^${baseUrl()}/web/mobileUpload\\?token=`));

    // The phone: no cookies at all, a phone-sized screen.
    const phoneContext = await browser.newContext({ locale: 'zh-CN', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const phone = await phoneContext.newPage();
    await phone.goto(link);
    await phone.getByRole('button', { name: '选择文件' }).waitFor();
    expect(new URL(phone.url()).pathname).toBe('/web/mobileUpload');
    expect(await phone.title()).toMatch(/^上传文件/);
    expect(await phone.locator('.app-sidebar, .navbar').count()).toBe(0); // not in the layout, not a menu page
    await phone.locator('[data-testid=file-input]').setInputFiles({ name: '现场照片.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(300_000, 1) });
    await phone.getByText('上传成功').waitFor();
    expect(await phone.locator('.mobile-upload-progress, .ant-result').first().isVisible()).toBe(true);

    // The desktop dialog sees it, and the file is the desktop user's.
    await dialog.locator('.mobile-upload-received', { hasText: '现场照片.jpg' }).waitFor({ timeout: 10_000 });
    await dialog.getByRole('button', { name: /完\s*成/ }).click();
    await desktop.locator('.my-files .ant-table').getByText('现场照片.jpg').waitFor();
    const own = await api<{ content: { name: string }[] }>('GET', '/api/localStorage?page=0&size=50', undefined, user.token);
    expect(own.body.content.map((f) => f.name)).toContain('现场照片.jpg');

    // The link works once: opened again it says so plainly.
    await phone.reload();
    await phone.getByText('二维码已失效，请在电脑端刷新').waitFor();
    await phoneContext.close();
    await desktop.context().close();
  });

  it('[S2.R2c] a token from the API: the phone page uploads without a session and the desktop state reports the file', async () => {
    const user = await createUser('mob2');
    const token = user.token;
    const created = await api<{ token: string }>('POST', '/api/file/mobileToken', undefined, token);
    const phoneContext = await browser.newContext({ locale: 'zh-CN', viewport: { width: 375, height: 700 } });
    const phone = await phoneContext.newPage();
    await phone.goto(webUrl(`/mobileUpload?token=${encodeURIComponent(created.body.token)}`));
    await phone.getByRole('button', { name: '拍照上传' }).waitFor();
    expect(await phoneContext.cookies()).toEqual([]);
    await phone.locator('[data-testid=photo-input]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.alloc(2000, 3) });
    await phone.getByText('上传成功').waitFor();
    const state = await api<{ used: boolean; file: { name: string } | null }>('GET', `/api/file/mobileToken/${encodeURIComponent(created.body.token)}`, undefined, token);
    expect(state.body.used).toBe(true);
    expect(state.body.file?.name).toBe('photo.png');
    await phone.goto(webUrl('/mobileUpload?token=not-a-token'));
    await phone.getByText('二维码已失效，请在电脑端刷新').waitFor();
    await phoneContext.close();
  });
});

describe('private messages and to-dos', () => {
  it('[S2.R7][S3.E8a][S3.E8b] /message/msginfo lists only the current user\'s messages and to-dos; read/unread, mark read, done', async () => {
    const a = await createUser('msga');
    const b = await createUser('msgb');
    const send = (kind: 'msg' | 'todo', body: unknown) => api('POST', kind === 'todo' ? '/api/msgTodo' : '/api/msgPushHistory', body, admin);
    for (const [user, tag] of [[a, 'A'], [b, 'B']] as const) {
      expect((await send('msg', { userId: user.id, title: `致${tag}的私信${run}`, content: `正文${tag}` })).status).toBe(201);
      expect((await send('msg', { userId: user.id, type: 'remind', title: `${tag}的提醒${run}` })).status).toBe(201);
      expect((await send('todo', { userId: user.id, title: `${tag}的待办${run}`, link: '/user/center' })).status).toBe(201);
    }
    const page = await openAs(a, '/message/msginfo');
    const messages = page.locator('.msginfo-messages');
    await messages.getByText(`致A的私信${run}`).waitFor();
    await messages.getByText(`A的提醒${run}`).waitFor();
    expect(await page.getByText(`致B的私信${run}`).count()).toBe(0);
    expect(await page.getByText(`B的提醒${run}`).count()).toBe(0);
    expect(await messages.locator('tbody tr.ant-table-row').count()).toBe(2);
    expect(await messages.getByText('提醒', { exact: true }).count()).toBe(1);

    // Unread filter, open (marks read), read filter.
    await page.getByText('未读', { exact: true }).first().click();
    await expect.poll(() => messages.locator('tbody tr.ant-table-row').count()).toBe(2);
    await messages.getByText(`致A的私信${run}`).click();
    await page.locator('.ant-modal').getByText('正文A').waitFor();
    await page.locator('.ant-modal-footer').getByRole('button', { name: /关\s*闭/ }).click();
    await expect.poll(() => messages.locator('tbody tr.ant-table-row').count()).toBe(1);
    await page.locator('.msginfo-toolbar').getByText('已读', { exact: true }).click();
    await messages.getByText(`致A的私信${run}`).waitFor();
    const unreadLeft = await api<{ totalElements: number }>('GET', '/api/msgPushHistory/count', undefined, a.token);
    expect(unreadLeft.body.totalElements).toBe(1);

    // To-dos: only A's; marking done takes it off the open list.
    await page.getByRole('tab', { name: /待办/ }).click();
    const todos = page.locator('.msginfo-todos');
    await todos.getByText(`A的待办${run}`).waitFor();
    expect(await page.getByText(`B的待办${run}`).count()).toBe(0);
    await todos.getByRole('button', { name: '标记完成' }).click();
    await expect.poll(() => todos.getByText(`A的待办${run}`).count()).toBe(0);
    const open = await api<{ totalElements: number }>('GET', '/api/msgTodo/count', undefined, a.token);
    expect(open.body.totalElements).toBe(0);
    await page.context().close();

    // B still has their own, unread and open.
    const bToken = b.token;
    expect((await api<{ totalElements: number }>('GET', '/api/msgPushHistory/count', undefined, bToken)).body.totalElements).toBe(2);
    expect((await api<{ totalElements: number }>('GET', '/api/msgTodo/count', undefined, bToken)).body.totalElements).toBe(1);
  });

  it('sending a private message to a user picked by search, by a user without any role; the recipient sees it', async () => {
    const to = await createUser('rcpt');
    const from = await createUser('sndr'); // no role, so no user:list: the recipient lookup is open to every user
    const page = await openAs(from, '/message/msginfo?tab=private');
    await page.getByRole('button', { name: '发私信' }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '发私信' });
    await dialog.locator('.ant-select').first().click();
    await page.keyboard.type(to.username);
    await page.locator('.ant-select-item-option', { hasText: to.username }).click();
    await dialog.getByPlaceholder('请输入标题').fill(`你好${run}`);
    await dialog.getByPlaceholder('请输入内容').fill('请查收');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/msgPushHistory') && r.method() === 'POST');
    await dialog.getByRole('button', { name: /发\s*送/ }).click();
    expect((await sent).postDataJSON()).toMatchObject({ userIds: [to.id], title: `你好${run}`, type: 'private' });
    await page.getByText('已发送给1人').waitFor();
    await page.context().close();
    const inbox = await api<{ content: { title: string; senderName: string }[] }>('GET', '/api/msgPushHistory', undefined, to.token);
    expect(inbox.body.content.find((m) => m.title === `你好${run}`)?.senderName).toBe('sndr用户');
  });
});

describe('hardware certificate (uKey) against the simulator', () => {
  let sim: UkeySimulator;
  let ukeyUser: TestUser;
  beforeAll(async () => {
    sim = await startUkeySimulator({ ports: UKEY_PORTS });
    ukeyUser = await createUser('ukey', { useUkey: true });
  });
  afterAll(() => sim?.close());

  beforeEach(() => sim.reset());

  const pinDialog = (page: Page) => page.locator('.ukey-pin');
  const unlockDialog = (page: Page) => page.locator('.ukey-unlock');
  const promptFor = (n: number) => `请输入Pin码确认身份，最多还可尝试${n}次`;

  async function enterPin(page: Page, pin: string, dialog = pinDialog(page)) {
    await dialog.locator('input[type=password]').fill(pin);
    await dialog.locator('.ant-modal-footer button').click();
  }

  it('[S4.U0][S6.P5] a user without useUkey opens no connection to the loopback ports and sees no prompt', async () => {
    const plain = await createUser('noukey');
    const before = sim.state().connections;
    const page = await openAs(plain, '/user/center');
    await page.getByText('个人信息').waitFor();
    await page.waitForTimeout(2000);
    expect(sim.state().connections).toEqual(before);
    expect(await page.locator('.ukey-dialog').count()).toBe(0);
    await page.context().close();
  });

  it('[S4.U1][S4.U3][S4.U4][S4.U6][S5.V9b][S6.P5] connects to both ports; PIN prompt with 5 tries, a wrong PIN leaves 4, per device; a correct PIN validates and restores 5', async () => {
    const before = sim.state().connections;
    const page = await openAs(ukeyUser, '/dashboard', { context: await browser.newContext({ locale: 'zh-CN', viewport: { width: 1366, height: 800 } }) });
    await page.evaluate(() => {
      const w = window as unknown as { __validated: unknown[] };
      w.__validated = [];
      window.addEventListener('ukey:validated', (e) => w.__validated.push((e as CustomEvent).detail));
    });
    const dialog = pinDialog(page);
    await dialog.getByText(promptFor(5)).waitFor();
    const after = sim.state().connections;
    for (const port of UKEY_PORTS) expect(after[port]).toBeGreaterThan(before[port] ?? 0);

    // [S5.V9b] a 7-character PIN is refused on the page and never sent.
    const frames = sim.state().received.length;
    await enterPin(page, 'abc-123');
    await dialog.getByText('Pin码至少8位').waitFor();
    expect(sim.state().received.length).toBe(frames);

    await enterPin(page, 'wrong-pin-1');
    await dialog.getByText(promptFor(4)).waitFor();
    await dialog.getByText('Pin码错误').waitFor();

    // A second key keeps its own count.
    sim.insert('UK-SIM-0002');
    await dialog.getByText(promptFor(5)).waitFor();
    sim.insert('UK-SIM-0001');
    await dialog.getByText(promptFor(4)).waitFor();

    await enterPin(page, DEFAULT_PIN);
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => (window as unknown as { __validated: unknown[] }).__validated)).toEqual([{ deviceId: 'UK-SIM-0001' }]);
    // The next prompt for that key shows 5 again.
    await page.reload();
    await pinDialog(page).getByText(promptFor(5)).waitFor();
    await enterPin(page, DEFAULT_PIN);
    await pinDialog(page).waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('[S4.U5] a locked key asks for a new PIN; the new PIN unlocks it and then confirms the user', async () => {
    const page = await openAs(ukeyUser, '/dashboard');
    await enterPin(page, sim.state().pin);
    await pinDialog(page).waitFor({ state: 'hidden' });
    sim.lock();
    const unlock = unlockDialog(page);
    await unlock.getByText('uKey已锁定，请设置新的Pin码解锁').waitFor();
    await enterPin(page, 'short', unlock);
    await unlock.getByText('Pin码至少8位').waitFor();
    await enterPin(page, 'new-pin-2026', unlock);
    await pinDialog(page).getByText(promptFor(5)).waitFor();
    expect(sim.state()).toMatchObject({ pin: 'new-pin-2026', locked: false });
    await enterPin(page, 'new-pin-2026');
    await pinDialog(page).waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('[S4.U2][S8.E15] pulling the key out: an alert, then logout to the login page', async () => {
    const page = await openAs(ukeyUser, '/dashboard');
    await enterPin(page, DEFAULT_PIN);
    await pinDialog(page).waitFor({ state: 'hidden' });
    sim.remove();
    const alert = page.locator('.ant-modal-confirm').filter({ hasText: KEY_REMOVED_ALERT });
    await alert.waitFor();
    await alert.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL(/\/web\/login/);
    expect(await tokenCookie(page)).toBeUndefined();
    sim.insert();
    await page.context().close();
  });

  it('[S4.U7][S8.E14] no key found: alert 请插入干部安全数字证书uKey, then logout; also when no service answers', async () => {
    sim.noDevice();
    const page = await openAs(ukeyUser, '/dashboard', { fresh: true });
    const alert = page.locator('.ant-modal-confirm').filter({ hasText: NO_DEVICE_ALERT });
    await alert.waitFor();
    expect(NO_DEVICE_ALERT).toBe('请插入干部安全数字证书uKey');
    await alert.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL(/\/web\/login/);
    expect(await tokenCookie(page)).toBeUndefined();
    await page.context().close();

    await sim.close();
    const offline = await openAs(ukeyUser, '/dashboard', { fresh: true });
    const noService = offline.locator('.ant-modal-confirm').filter({ hasText: NO_DEVICE_ALERT });
    await noService.waitFor({ timeout: 15_000 });
    await noService.getByRole('button', { name: /确\s*定/ }).click();
    await offline.waitForURL(/\/web\/login/);
    await offline.context().close();
    sim = await startUkeySimulator({ ports: UKEY_PORTS });
  });
});
