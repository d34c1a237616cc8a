import { execSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { encryptPassword } from '../../src/server/core/auth/rsa.js';
import { menuPaths, type MenuNode } from '../../src/shared/menus.js';
import { CONTEXT, launchBrowser } from '../support/browser.js';
import { flowSteps, freshClone, mergePatch } from '../support/fresh-clone.js';

/**
 * Issue 13: the implementer flow of docs/schema.md ("Add a module in ten minutes"), run verbatim on a
 * fresh copy of the repository — the documented commands run, the documented files written and merged —
 * then `npm start` and the new page used in Chromium: a new page 党员荣誉 joined 党员日常管理,
 * records are added with a dictionary field, a member picker and an organisation picker, a child table
 * is filled in, and a role granted only the page and its 编辑 button works with the children.
 */
const PASSWORD = 'Reward#2026a';
let dir: string;
let server: ChildProcess | undefined;
let base = '';
let browser: Browser;

async function call<T = any>(method: string, url: string, body?: unknown, token?: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
let publicKey: string | undefined;
const encrypt = async (plain: string) => encryptPassword((publicKey ??= (await call('GET', '/auth/publicKey')).body.publicKey), plain);
async function token(username: string, password: string): Promise<string> {
  const res = await call('POST', '/auth/login', { username, password: await encrypt(password) });
  if (!res.body?.token) throw new Error(`login ${username}: ${JSON.stringify(res.body)}`);
  return res.body.token;
}

/** Runs `npm start` in the copy; resolves with the URL it prints, or rejects with what it printed on exit. */
function npmStart(env: Record<string, string>): Promise<{ child: ChildProcess; url?: string; exit?: { code: number | null; output: string } }> {
  const child = spawn('npm', ['start'], { cwd: dir, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /is running: (http:\/\/\S+?)\/web\//.exec(output);
      if (m) resolve({ child, url: m[1] });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => resolve({ child, exit: { code, output } }));
  });
}

const stop = (child: ChildProcess | undefined) => {
  if (child?.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
};

beforeAll(async () => {
  dir = freshClone();
  const docs = fs.readFileSync(path.join(dir, 'docs/schema.md'), 'utf8');
  const steps = flowSteps(docs.slice(docs.indexOf('## Add a module in ten minutes')));
  expect(steps.map((s) => s.action)).toEqual(['run', 'merge', 'write', 'write', 'merge', 'run']);
  for (const step of steps) {
    const file = step.file && path.join(dir, step.file);
    if (step.action === 'run') execSync(step.body, { cwd: dir, stdio: 'pipe' });
    else if (step.action === 'write') fs.writeFileSync(file!, `${step.body}\n`);
    else fs.writeFileSync(file!, `${JSON.stringify(mergePatch(JSON.parse(fs.readFileSync(file!, 'utf8')), JSON.parse(step.body)), null, 2)}\n`);
  }
  const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: path.join(dir, 'data'), CAPTCHA: 'off', DEMO_MEMBERS: '300', LOG_LEVEL: 'warn', AUTH_RATE_LIMIT: '100000' };

  // Issue 13 item 3: a broken school override stops `npm start` with one line, before anything is built.
  const school = path.join(dir, 'schemas/schools/hntb.json');
  const original = fs.readFileSync(school, 'utf8');
  fs.writeFileSync(school, JSON.stringify({ ...JSON.parse(original), overrides: { 'member-honor': { properties: { remark: { type: 'text' } } } } }));
  const refused = await npmStart(env);
  expect(refused.exit?.code).toBe(1);
  const lines = refused.exit!.output.split('\n').filter((l) => l.trim() && !l.startsWith('>') && !/npm (warn|error)/.test(l));
  expect(lines).toEqual([expect.stringMatching(/^Start failed: school hntb: the override of module member-honor breaks it: \/properties\/remark\/type must be equal to one of the allowed values/)]);
  fs.writeFileSync(school, original);

  const started = await npmStart(env);
  server = started.child;
  if (!started.url) throw new Error(`npm start failed:\n${started.exit?.output}`);
  base = started.url;
  browser = await launchBrowser();
}, 1_200_000);

afterAll(async () => {
  await browser?.close();
  stop(server);
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the implementer flow of docs/schema.md on a fresh copy', () => {
  let admin: string;
  let rewardPath: string;
  let context: BrowserContext;
  let page: Page;
  const rewardName = '优秀共产党员（流程）';

  const pick = async (field: Locator, typed: string, option: string) => {
    await field.locator('.ant-select').click();
    if (typed) await page.keyboard.type(typed);
    await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).first().click();
  };

  beforeAll(async () => {
    admin = await token('admin', DEMO_ADMIN_PASSWORD);
    const menus = (JSON.parse(fs.readFileSync(path.join(dir, 'schemas/menus.json'), 'utf8')) as { menus: MenuNode[] }).menus;
    rewardPath = menuPaths(menus).find((p) => p.id === 'member-honor')!.path;
    context = await browser.newContext(CONTEXT);
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${base}/web/login`);
    await page.getByPlaceholder('用户名').fill('admin');
    await page.getByPlaceholder('密码').fill(DEMO_ADMIN_PASSWORD);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL((url) => !url.pathname.includes('login'));
  });
  afterAll(() => context?.close());

  it('the new page 党员荣誉 is the module\'s page: a record with a member, a dictionary level and an organisation', async () => {
    const member = (await call('POST', '/api/m/member/list?size=1&sort=name,asc', { partyStatus: '1' }, admin)).body.content[0];
    await page.goto(`${base}/web${rewardPath}`);
    await page.locator('.rt-table').waitFor();
    await page.locator('.ant-breadcrumb').getByText('党员荣誉').waitFor();
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const form = page.locator('.rf-dialog').filter({ has: page.locator('.ant-modal-title', { hasText: '新增党员荣誉' }) });
    await form.locator('#root_name').waitFor();
    await pick(form.locator('[data-field="memberId"]'), member.name, member.name);
    await pick(form.locator('[data-field="kind"]'), '', '奖励');
    await pick(form.locator('[data-field="level"]'), '', '校级');
    await form.locator('#root_name').fill(rewardName);
    await pick(form.locator('[data-field="orgId"]'), member.orgIdName.slice(0, 6), member.orgIdName);
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await page.locator('.ant-message').getByText('新增成功').waitFor();
    const row = page.locator('tr.rt-row', { hasText: rewardName });
    await row.waitFor();
    expect(await row.innerText()).toContain('校级');
    const saved = (await call('POST', '/api/m/member-honor/list', { name: '流程' }, admin)).body.content[0];
    expect(saved).toMatchObject({ name: rewardName, memberId: member.id, kind: '奖励', level: '3', levelLabel: '校级', orgId: member.orgId });
  });

  it('a child table (证明材料) on the detail page, for a role granted only the page and its 编辑 button', async () => {
    // 角色管理: the page and one button; the children come with the parent's permissions.
    const role = await call('POST', '/api/roles', { name: '奖惩管理员', code: 'reward_editor', permissions: ['member-honor:list', 'member-honor:edit'], dataScope: 'all', scopeOrgIds: [] }, admin);
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    expect((await call('POST', '/api/users', { username: 'rewarder', nickName: '奖惩管理员', orgId: null, roles: [role.body.id] }, admin)).status).toBe(201);
    expect((await call('POST', '/api/users/updatePassByAdmin', { username: 'rewarder', newPass: await encrypt('Temp#2026abc') }, admin)).status).toBe(200);
    // A password an administrator sets is one-time: the user replaces it with their own first.
    const first = await token('rewarder', 'Temp#2026abc');
    expect((await call('POST', '/api/users/updatePass', { oldPass: await encrypt('Temp#2026abc'), newPass: await encrypt(PASSWORD) }, first)).status).toBe(200);

    const clerk = await browser.newContext(CONTEXT);
    const p = await clerk.newPage();
    p.setDefaultTimeout(30_000);
    try {
      await p.goto(`${base}/web/login`);
      await p.getByPlaceholder('用户名').fill('rewarder');
      await p.getByPlaceholder('密码').fill(PASSWORD);
      await p.getByRole('button', { name: /登\s*录/ }).click();
      await p.waitForURL((url) => !url.pathname.includes('login'));
      await p.goto(`${base}/web${rewardPath}`);
      const row = p.locator('tr.rt-row', { hasText: rewardName });
      await row.getByText('查看').click();
      const drawer = p.locator('.rf-drawer');
      await drawer.getByRole('tab', { name: '证明材料' }).click();
      const child = drawer.locator('.rf-child');
      await child.getByRole('button', { name: /新\s*增/ }).click();
      const form = p.locator('.rf-dialog').filter({ has: p.locator('.ant-modal-title', { hasText: '新增证明材料' }) });
      await form.locator('#root_title').fill('表彰决定');
      await form.locator('#root_issuedBy').fill('校党委');
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await child.locator('tr', { hasText: '表彰决定' }).waitFor();
      expect(p.url()).toContain(rewardPath);

      // The role loses the page: a panel refused now shows it in place, the app does not leave for /401.
      await call('PUT', '/api/roles', { id: role.body.id, permissions: ['member-honor:edit'] }, admin);
      await drawer.getByRole('tab', { name: '修改记录' }).click();
      await p.locator('.ant-notification').getByText('没有访问权限').waitFor();
      expect(new URL(p.url()).pathname).toBe(`/web${rewardPath}`);
      expect(await drawer.isVisible()).toBe(true);
    } finally {
      await p.screenshot({ path: path.join(import.meta.dirname, '../../.tmp/e2e-implementer-child.png') });
      await clerk.close();
    }
    const proofs = (await call('POST', '/api/m/member-honor-proof/list', {}, admin)).body.content;
    expect(proofs).toEqual([expect.objectContaining({ title: '表彰决定', issuedBy: '校党委' })]);
  });
});
