/**
 * The branch secretary on a 390 × 844 touch phone (issue 31): a desktop to-do link opened on the phone leads to the
 * mobile login form and then to the record's approval screen; from a to-do on 首页 the secretary approves a
 * development step (党组织派人谈话, with its fields); records a meeting with a photo taken by the camera input (the
 * server's message shows under the field first). Reminding a member behind on dues is in mobile.test.ts, before
 * that member pays (the two files share the demo's dues).
 */
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { api, apiToken } from '../support/admin-e2e.js';
import { launchBrowser, newPage, webUrl } from '../support/browser.js';

const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA };
const SLOW = { timeout: 30_000 };
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

interface Waiting { module: string; records: { id: number; name: string; stateTitle: string }[] }

describe('the branch secretary on a 390 × 844 phone', () => {
  let browser: Browser;
  let page: Page;
  let admin: string;
  let zbsj: string;
  /** Two applications of the secretary's branch waiting for the talk (state 0). */
  let shown: { id: number; name: string };
  let approved: { id: number; name: string };
  const todoTitle = `手机审批：入党谈话${Date.now()}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await apiToken('admin', DEMO_ADMIN_PASSWORD);
    zbsj = await apiToken('zbsj', DEMO_USER_PASSWORD);
    const waiting = (await api<Waiting[]>('GET', '/api/workflow/waiting', undefined, zbsj)).body;
    const applied = waiting.find((m) => m.module === 'development')!.records.filter((r) => r.stateTitle === '已递交入党申请书');
    expect(applied.length).toBeGreaterThanOrEqual(2);
    [shown, approved] = applied.slice(-2);
    const me = await api<{ id: number }>('GET', '/auth/info', undefined, zbsj);
    expect((await api('POST', '/api/msgTodo', { userId: me.body.id, title: todoTitle, content: '请与申请人谈话', link: `/development/process?id=${approved.id}` }, admin)).status).toBe(201);
    page = await newPage(browser, PHONE);
  });
  afterAll(async () => {
    await page?.context().close();
    await browser?.close();
  });

  it('a desktop to-do link opened on the phone asks for the mobile login, then opens the record\'s approval screen', async () => {
    await page.goto(webUrl(`/development/process?id=${shown.id}`));
    await page.waitForURL((url) => url.pathname === '/web/m/login', SLOW);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(`/web/m/approvals/development/${shown.id}`);
    await page.getByRole('button', { name: /登\s*录/ }).tap();
    await page.getByText('请输入用户名').waitFor(SLOW);
    await page.getByPlaceholder('用户名').fill('zbsj');
    await page.getByPlaceholder('密码').fill(DEMO_USER_PASSWORD);
    await page.getByRole('button', { name: /登\s*录/ }).tap();
    await page.waitForURL((url) => url.pathname === `/web/m/approvals/development/${shown.id}`, SLOW);
    await page.getByLabel('记录信息').getByText(shown.name).waitFor(SLOW);
    await page.getByRole('button', { name: '党组织派人谈话' }).waitFor(SLOW);
    await expect.poll(() => page.locator('.m-bar h1').textContent(), SLOW).toBe('审批');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('a to-do on 首页 opens its record; the talk step is taken with its fields on the phone', async () => {
    await page.getByRole('navigation', { name: '底部导航' }).getByRole('button', { name: '首页' }).tap();
    await page.getByRole('list', { name: '我的待办' }).getByRole('button', { name: todoTitle }).tap();
    await page.waitForURL((url) => url.pathname === `/web/m/approvals/development/${approved.id}`, SLOW);
    await page.getByRole('button', { name: '党组织派人谈话' }).tap();
    const step = page.getByRole('form', { name: '党组织派人谈话' });
    await step.getByRole('button', { name: '确认党组织派人谈话' }).tap();
    // The engine's own refusal, in Chinese, under the field it names.
    await step.locator('.m-field-bad').first().getByRole('alert').waitFor(SLOW);
    await step.locator('#step-talk-talkDate').fill(today());
    await step.locator('#step-talk-talker').fill('王书记');
    await step.getByRole('button', { name: '确认党组织派人谈话' }).tap();
    await page.getByRole('status').filter({ hasText: '已办理：党组织派人谈话' }).waitFor(SLOW);
    const record = await api<{ state: number; talker: string }>('GET', `/api/m/development/${approved.id}`, undefined, zbsj);
    expect(record.body).toMatchObject({ state: 1, talker: '王书记' });
  });

  it('记录会议: the server\'s message under the field, then a meeting with attendance and a camera photo is saved', async () => {
    await page.getByRole('navigation', { name: '底部导航' }).getByRole('button', { name: '首页' }).tap();
    await page.getByRole('navigation', { name: '常用' }).getByRole('button', { name: '记录会议' }).tap();
    await page.getByRole('list', { name: '出席情况', exact: true }).waitFor(SLOW);
    await page.locator('#mf-type').selectOption('党小组会');
    // [43.7] Nobody counts as present before being marked: a save names the unmarked; 全部出席 marks them all.
    await page.getByRole('button', { name: '保存会议' }).tap();
    await page.locator('.m-field-error').filter({ hasText: '未标记出席情况' }).waitFor(SLOW);
    await page.getByRole('button', { name: '全部出席' }).tap();
    await page.getByRole('button', { name: '保存会议' }).tap();
    await page.locator('.m-field-bad').filter({ hasText: '会议主题' }).getByRole('alert').waitFor(SLOW);

    const topic = `手机登记党小组会${Date.now()}`;
    await page.locator('#mf-topic').fill(topic);
    await page.locator('#mf-place').fill('党员活动室');
    const first = page.getByRole('list', { name: '出席情况', exact: true }).getByRole('listitem').first();
    const absentee = (await first.locator('.m-item-title').textContent())!;
    await first.getByRole('radio', { name: '请假' }).tap();
    await page.getByLabel(`${absentee}请假原因`).fill('出差');
    await page.locator('#mf2-minutes').fill('学习党章，交流心得。');
    const camera = page.locator('input[type=file][capture=environment]');
    await camera.setInputFiles({ name: 'meeting.png', mimeType: 'image/png', buffer: fs.readFileSync('src/web/public/icons/icon-192.png') });
    await page.getByText('已上传：meeting.png').waitFor(SLOW);
    await page.getByRole('img', { name: '会议照片' }).waitFor(SLOW);
    await page.getByRole('button', { name: '保存会议' }).tap();
    await page.getByRole('status').filter({ hasText: `会议已保存：${topic}` }).waitFor(SLOW);

    const list = await api<{ content: { id: number }[] }>('POST', '/api/m/meeting/list?page=0&size=5', { topic }, zbsj);
    const saved = await api<{ type: string; photo: string; attendeeIds: number[]; absentIds: number[]; absentReason: string }>('GET', `/api/m/meeting/${list.body.content[0].id}`, undefined, zbsj);
    expect(saved.body).toMatchObject({ type: '党小组会', absentReason: `${absentee}请假：出差` });
    expect(saved.body.absentIds).toHaveLength(1);
    expect(saved.body.attendeeIds.length).toBeGreaterThan(0);
    expect(saved.body.photo).toMatch(/^\/api\/file\/view\?id=[0-9a-f]{32}&name=meeting\.png$/);
  });
});
