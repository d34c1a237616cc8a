/**
 * The mobile terminal (issue 31) on a 390 × 844 touch phone: a phone's login leads to /web/m/, whose
 * page links its manifest; the bottom tab bar holds only screens that exist; my to-dos are listed and one is done
 * from the phone; the session reports terminal MOBILE 2; 移动终端 in the admin links the app with a QR code.
 * The member's screens: paying dues with the simulated provider, checking in to a meeting by its QR link
 * (logging in first), and continuing a video where it stopped.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { TOKEN_KEY } from '../../src/web/core/auth/token';
import { ASSETS_DIR } from '../../src/server/paths.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { api, apiToken, menuPagePath } from '../support/admin-e2e.js';
import { setSysConfig } from '../support/api.js';
import { launchBrowser, newPage, webUrl } from '../support/browser.js';

const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA };
const SLOW = { timeout: 30_000 };

interface Waiting { module: string; records: { id: number; name: string }[] }

describe('the mobile terminal on a 390 × 844 phone', () => {
  let browser: Browser;
  let page: Page;
  let admin: string;
  const todoTitle = `手机端待办${Date.now()}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await apiToken('admin', DEMO_ADMIN_PASSWORD);
    const dy = await apiToken('dy', DEMO_USER_PASSWORD);
    const me = await api<{ id: number }>('GET', '/auth/info', undefined, dy);
    expect((await api('POST', '/api/msgTodo', { userId: me.body.id, title: todoTitle, content: '请在手机上办理' }, admin)).status).toBe(201);
    page = await newPage(browser, PHONE);
  });
  afterAll(async () => {
    await page?.context().close();
    await browser?.close();
  });

  it('a phone logs in and lands on /web/m/: the tab bar (首页, 学习, 会议, 消息, 我的), my to-dos, and a link to the desktop', async () => {
    await page.goto(webUrl('/login'));
    await page.getByPlaceholder('用户名').fill('dy');
    await page.getByPlaceholder('密码').fill(DEMO_USER_PASSWORD);
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL((url) => url.pathname === '/web/m/', SLOW);
    const tabs = page.getByRole('navigation', { name: '底部导航' }).getByRole('button');
    await expect.poll(() => tabs.allTextContents(), SLOW).toEqual(['⌂首页', '✎学习', '☷会议', '✉消息', '☺我的']);
    for (const box of await tabs.evaluateAll((els) => els.map((e) => e.getBoundingClientRect()))) expect(box.height).toBeGreaterThanOrEqual(44);
    expect(await page.locator('.ant-layout, .sidebar-container, .navbar').count()).toBe(0);
    expect(await page.getByRole('link', { name: '电脑版' }).getAttribute('href')).toBe('/web/');
    const todo = page.getByRole('list', { name: '我的待办' }).getByRole('listitem').filter({ hasText: todoTitle });
    await todo.waitFor(SLOW);
    await todo.getByRole('button', { name: '完成' }).tap();
    await expect.poll(() => todo.count(), SLOW).toBe(0);
    // [43.5] 我的提醒 counts the reminders in progress as the desktop's 智能提醒 and workbench do.
    const dy = await apiToken('dy', DEMO_USER_PASSWORD);
    const dated = (await api<{ totalElements: number; content: { title: string; recordName: string }[] }>('GET', '/api/reminders?state=2&page=0&size=10', undefined, dy)).body;
    expect(dated.totalElements).toBeGreaterThan(0);
    await page.getByText(`我的提醒（${dated.totalElements}）`).waitFor(SLOW);
    await page.getByRole('list', { name: '我的提醒' }).getByText(`${dated.content[0].title}：${dated.content[0].recordName}`).waitFor(SLOW);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });

  it('the page links its manifest, and the session it made reports terminal 2 in the online list', async () => {
    expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/web/m/manifest.webmanifest');
    const manifest = await page.request.get(webUrl('/m/manifest.webmanifest'));
    expect(await manifest.json()).toMatchObject({ name: '党建', start_url: '/web/m/', display: 'standalone' });
    const online = await api<{ content: { username: string; terminal: number }[] }>('GET', '/api/online?size=200&blurry=dy', undefined, admin);
    expect(online.body.content.filter((s) => s.username === 'dy').map((s) => s.terminal)).toContain(2);
  });

  it('消息 and 我的 open from the tab bar; 我的党费 shows the member\'s dues', async () => {
    const tab = (name: string) => page.getByRole('navigation', { name: '底部导航' }).getByRole('button', { name });
    await tab('消息').tap();
    await page.getByRole('tablist', { name: '消息类型' }).waitFor(SLOW);
    expect(new URL(page.url()).pathname).toBe('/web/m/messages');
    await tab('我的').tap();
    await page.getByRole('button', { name: '我的党费' }).tap();
    await page.getByText('每月标准').waitFor(SLOW);
    await page.getByRole('button', { name: '返回' }).tap();
    await page.getByRole('button', { name: '我的党费' }).waitFor(SLOW);
  });

  it('[43.13] a member\'s own task opens titled 办理, not 审批, and its note is a 说明', async () => {
    const dy = await apiToken('dy', DEMO_USER_PASSWORD);
    const waiting = (await api<Waiting[]>('GET', '/api/workflow/waiting', undefined, dy)).body;
    const task = waiting.find((m) => m.module === 'work-task')?.records.find((r) => r.name === '撰写学习党章心得体会');
    expect(task, JSON.stringify(waiting)).toBeTruthy();
    await page.goto(webUrl(`/m/approvals/work-task/${task!.id}`));
    await page.getByRole('button', { name: '本人反馈' }).waitFor(SLOW);
    await expect.poll(() => page.locator('.m-bar h1').textContent(), SLOW).toBe('办理');
    await page.getByRole('button', { name: '本人反馈' }).tap();
    const step = page.getByRole('form', { name: '本人反馈' });
    await step.getByText('说明', { exact: true }).waitFor(SLOW);
    expect(await step.getByText('审批意见').count()).toBe(0);
    await step.getByRole('button', { name: '取消' }).tap();
  });

  it('支部党员: the secretary reminds dy, who is behind on dues, and the reminder reaches dy (before dy pays below)', async () => {
    const zbsj = await apiToken('zbsj', DEMO_USER_PASSWORD);
    const dy = await apiToken('dy', DEMO_USER_PASSWORD);
    const name = (await api<{ member: { name: string } }>('GET', '/api/dues/my', undefined, dy)).body.member.name;
    const secretary = await newPage(browser, PHONE);
    await secretary.context().addCookies([{ name: TOKEN_KEY, value: zbsj, url: new URL(webUrl('/')).origin }]);
    await secretary.goto(webUrl('/m/'));
    await secretary.getByRole('navigation', { name: '常用' }).getByRole('button', { name: '支部党员' }).tap();
    await secretary.getByRole('tab', { name: /欠缴/ }).tap();
    const row = secretary.getByRole('list', { name: '支部党员' }).getByRole('listitem').filter({ hasText: name });
    await row.getByText(/欠缴 .* 元/).waitFor(SLOW);
    await row.getByRole('button', { name: '提醒缴费' }).tap();
    await secretary.getByRole('status').filter({ hasText: '已提醒 1 人' }).waitFor(SLOW);
    await row.getByText('已提醒').waitFor(SLOW);
    await secretary.context().close();
    const inbox = await api<{ content: { title: string }[] }>('GET', '/api/msgPushHistory?type=remind&page=0&size=3', undefined, dy);
    expect(inbox.body.content.map((m) => m.title)).toContain('党费缴纳提醒');
  });

  it('a member pays the dues due with the simulated provider: paid, with a receipt', async () => {
    await page.goto(webUrl('/m/dues'));
    const pay = page.getByRole('button', { name: /^在线缴纳/ });
    await pay.waitFor(SLOW);
    await pay.tap();
    await page.getByRole('button', { name: '确认支付' }).tap();
    await page.getByRole('status').filter({ hasText: '支付成功' }).waitFor(SLOW);
    await expect.poll(() => page.getByRole('list', { name: '缴费收据' }).getByRole('listitem').count(), SLOW).toBeGreaterThan(0);
  });

  it('a member scans the check-in code of a meeting: logs in, is marked present; the secretary sees the code on the phone and the desktop', async () => {
    const zbsj = await apiToken('zbsj', DEMO_USER_PASSWORD);
    const meeting = await api<{ id: number }>('POST', '/api/m/meeting', { type: '主题党日', date: localToday(), topic: `扫码签到${Date.now()}` }, zbsj);
    expect(meeting.status, JSON.stringify(meeting.body)).toBe(201);
    const code = await api<{ path: string }>('GET', `/api/meetings/${meeting.body.id}/checkin`, undefined, zbsj);
    // The secretary's phone shows the meeting's code.
    const secretary = await newPage(browser, PHONE);
    await secretary.context().addCookies([{ name: TOKEN_KEY, value: zbsj, url: new URL(webUrl('/')).origin }]);
    await secretary.goto(webUrl(`/m/meetings/${meeting.body.id}`));
    const qr = secretary.getByRole('img', { name: '会议签到二维码' });
    await qr.waitFor(SLOW);
    expect(await qr.getAttribute('data-link')).toContain(code.body.path);
    await secretary.context().close();
    // And on the desktop meeting detail's page of the code.
    const desk = await newPage(browser);
    await desk.context().addCookies([{ name: TOKEN_KEY, value: zbsj, url: new URL(webUrl('/')).origin }]);
    await desk.goto(webUrl(`/meetings/checkin/${meeting.body.id}`));
    const deskQr = desk.getByRole('img', { name: '会议签到二维码', exact: true });
    await deskQr.waitFor(SLOW);
    expect(await deskQr.getAttribute('data-link')).toContain(code.body.path);
    await desk.context().close();
    // A member's phone camera opens the link without a session: the mobile login comes first, then the check-in.
    const phone = await newPage(browser, PHONE);
    await phone.goto(`${new URL(webUrl('/')).origin}${code.body.path}`);
    await phone.waitForURL((url) => url.pathname === '/web/m/login', SLOW);
    await phone.getByPlaceholder('用户名').fill('dy');
    await phone.getByPlaceholder('密码').fill(DEMO_USER_PASSWORD);
    await phone.getByRole('button', { name: /登\s*录/ }).tap();
    await phone.waitForURL((url) => url.pathname === code.body.path, SLOW);
    await phone.getByRole('status').filter({ hasText: '签到成功' }).waitFor(SLOW);
    const stored = await api<{ attendeeIds: number[] }>('GET', `/api/m/meeting/${meeting.body.id}`, undefined, zbsj);
    const me = await api<{ member: { id: number } }>('GET', '/api/member/me', undefined, await apiToken('dy', DEMO_USER_PASSWORD));
    expect(stored.body.attendeeIds).toContain(me.body.member.id);
    await phone.getByRole('button', { name: '查看我的会议' }).tap();
    await phone.getByRole('list', { name: '我的会议' }).getByRole('listitem').filter({ hasText: '扫码签到' }).filter({ hasText: '已签到' }).first().waitFor(SLOW);
    await phone.context().close();
  });

  it('a member continues a video where it stopped: the player starts at the saved position', { timeout: 120_000 }, async () => {
    const dy = await apiToken('dy', DEMO_USER_PASSWORD);
    const dyId = (await api<{ id: number }>('GET', '/auth/info', undefined, dy)).body.id;
    const create = async (module: string, body: Record<string, unknown>) => {
      const res = await api<{ id: number }>('POST', `/api/m/${module}`, body, admin);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    };
    const form = new FormData();
    form.append('moduleName', 'course-node');
    form.append('file', new Blob([fs.readFileSync(path.join(ASSETS_DIR, 'pschool', 'demo-lecture.webm'))]), '讲座.webm');
    const uploaded = await (await fetch(webUrl('/').replace(/\/web\/$/, '/api/file/upload'), { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form })).json();
    const tag = Date.now().toString(36);
    const batch = await create('pschool-batch', { name: `手机学习批次${tag}`, dxPc: '3', year: 2026, requiredHours: 1 });
    const course = await create('course', { title: `手机学习课程${tag}`, evaluation: '2', audience: ['3'], published: true, sort: 0 });
    const chapter = await create('course-node', { courseId: course.id, nodeType: '1', title: '第一章', sort: 1 });
    const node = await create('course-node', { courseId: course.id, nodeType: '2', chapterId: chapter.id, title: `手机视频${tag}`, kind: 'video', file: `/api/file/view?id=${uploaded.id}&name=x.webm`, duration: 20, hours: 1, sort: 1 });
    const cls = await create('pschool-class', { name: `手机学习班${tag}`, batchId: batch.id, courseIds: [course.id], status: '培训中' });
    await create('pschool-student', { classId: cls.id, name: '党员', userId: dyId, status: '2' });
    const previous = await setSysConfig(admin, 'videoRecordTime', '2');
    try {
      await page.goto(webUrl(`/m/study/node/${node.id}`));
      const video = page.getByTestId('m-video');
      await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, SLOW);
      await video.evaluate((v: HTMLVideoElement) => { v.muted = true; return v.play(); });
      const saved = async () => (await api<{ position: number }>('GET', `/api/pschool/nodes/${node.id}`, undefined, dy)).body.position;
      await expect.poll(saved, { timeout: 60_000 }).toBeGreaterThanOrEqual(4);
      // Leaving the screen reports where it stopped; 学习 offers to continue there.
      await page.getByRole('navigation', { name: '底部导航' }).getByRole('button', { name: '学习' }).tap();
      const position = await saved();
      const next = page.getByRole('region', { name: '继续学习' });
      await next.getByText(`手机视频${tag}`).waitFor(SLOW);
      await next.getByRole('button').tap();
      await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, SLOW);
      await expect.poll(() => page.getByTestId('m-video').evaluate((v: HTMLVideoElement) => v.currentTime), SLOW).toBeGreaterThanOrEqual(position - 0.5);
    } finally {
      if (previous !== undefined) await setSysConfig(admin, 'videoRecordTime', previous);
    }
  });

  it('移动终端 in the admin explains the app and shows its QR code', async () => {
    const desk = await newPage(browser);
    await desk.context().addCookies([{ name: TOKEN_KEY, value: admin, url: new URL(webUrl('/')).origin }]);
    await desk.goto(webUrl(menuPagePath('core:service-mobile')));
    await desk.getByRole('img', { name: '手机端二维码' }).waitFor(SLOW);
    expect(await desk.getByText('/web/m/', { exact: false }).first().textContent()).toContain('/web/m/');
    await desk.context().close();
  });
});
