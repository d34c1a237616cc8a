/**
 * Issue 29 (work management) in Chromium, desktop: a task the committee (ejdw) gives the demo branch is
 * reported back by its secretary (zbsj) through the step dialog of 任务管理 (进行中 → 已完成, the report on the
 * record), and 文件下载 lists the documents published to the secretary by category, downloads one and counts it;
 * in 模板管理 the secretary picks the 党员身份证明 template and a member, sees the PDF preview, downloads it, and
 * renders two members as a background job whose progress bar ends with the download; a 组织关系转出 record's
 * detail offers its 组织关系介绍信 as a PDF.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { api, apiLogin } from '../support/api.js';
import { webUrl } from '../support/browser.js';
import { admin, browser, useCoreSession } from './core-helpers.js';
import { signedIn } from './layout-helpers.js';

const TASK = '/service/work/task';
const DOWNLOAD = '/service/info/download';
const TEMPLATE = '/service/work/template';
const today = new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe('[issue 29] work management in Chromium', () => {
  useCoreSession();
  const tokens: Record<'zbsj' | 'ejdw', string> = { zbsj: '', ejdw: '' };
  let page: Page | undefined;
  let branch: number;

  beforeAll(async () => {
    for (const u of ['zbsj', 'ejdw'] as const) tokens[u] = await apiLogin(u, DEMO_USER_PASSWORD);
    branch = (await api<{ orgId: number }>('GET', '/auth/info', undefined, tokens.zbsj)).body.orgId;
  });
  afterAll(async () => {
    await page?.context().close();
  });

  const typeDate = async (input: Locator, date: string) => {
    await input.click();
    await input.fill(date);
    await input.press('Enter');
  };

  it('[S1.F14i] a task given to the branch is reported back in the step dialog and shows 已完成 with the report', async () => {
    const created = await api<{ id: number }>('POST', '/api/m/work-task', { title: '报送支部工作总结（浏览器）', orgId: branch, deadline: inDays(5), content: '请报送本学期支部工作总结。' }, tokens.ejdw);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    page = await signedIn(browser, tokens.zbsj, `${TASK}?id=${id}`);
    page.setDefaultTimeout(20_000);
    const drawer = page.locator('.rf-drawer:visible');
    await drawer.locator('[data-step="report"]').click();
    const dialog = page.locator('.wf-dialog');
    await dialog.waitFor();
    await typeDate(dialog.locator('[data-field="reportDate"] input'), today);
    await dialog.locator('#root_reportContent').fill('总结已经支委会审议，按期报送。');
    await dialog.locator('.wf-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await api<{ state: number }>('GET', `/api/m/work-task/${id}`, undefined, admin)).body.state, { timeout: 15_000 }).toBe(2);
    const rec = (await api<{ reportContent: string; reportDate: string }>('GET', `/api/m/work-task/${id}`, undefined, admin)).body;
    expect(rec).toMatchObject({ reportContent: '总结已经支委会审议，按期报送。', reportDate: today });
    await expect.poll(async () => (await drawer.textContent()) ?? '').toContain('已完成');
  });

  it('[43.12] 下发进度: the committee sees a task given to its branches as one row of counts and opens it into each branch\'s state', async () => {
    const committee = await signedIn(browser, tokens.ejdw, TASK);
    try {
      committee.setDefaultTimeout(20_000);
      const title = '组织党员集中学习党章';
      const listed = (await api<{ content: { state: number; deadline: string }[] }>('POST', '/api/m/work-task/list?size=1000', { title }, tokens.ejdw)).body.content;
      const late = listed.filter((r) => r.state === 1 && r.deadline < today).length;
      expect(late).toBeGreaterThan(0);
      await committee.locator('[data-tab="progress"]').click();
      const row = committee.locator('.wf-progress tr', { hasText: title }).first();
      await row.waitFor();
      expect(await row.textContent()).toContain(String(listed.length));
      await row.locator('.ant-table-row-expand-icon').click();
      const records = committee.locator('.wf-progress-records');
      await expect.poll(async () => records.locator('[data-progress-state="late"]').count(), { timeout: 15_000 }).toBe(Math.min(late, 50));
      await records.locator('[data-progress-state="late"]').first().getByText('已逾期').waitFor();
      // A record opens its detail.
      await records.locator('tr.ant-table-row').first().click();
      await committee.locator('.rf-drawer:visible').getByText(title).first().waitFor();
    } finally {
      await committee.context().close();
    }
  });

  it('[S1.F13b] 文件下载 lists the documents published to the secretary by category and counts a download', async () => {
    await page!.goto(webUrl(DOWNLOAD));
    const list = page!.locator('.work-documents');
    await list.getByText('党支部书记培训课件', { exact: true }).waitFor();
    await list.locator('.ant-segmented-item', { hasText: '表格模板' }).click();
    await list.getByText('党支部工作月报模板', { exact: true }).waitFor();
    await expect.poll(async () => list.getByText('党支部书记培训课件', { exact: true }).count()).toBe(0);
    const row = list.locator('tr', { hasText: '党支部工作月报模板' });
    const before = Number(await row.locator('td').nth(3).textContent());
    const [file] = await Promise.all([page!.waitForEvent('download'), row.getByRole('button', { name: /下\s*载/ }).click()]);
    expect(file.suggestedFilename()).toContain('.xlsx');
    await expect.poll(async () => Number(await row.locator('td').nth(3).textContent())).toBe(before + 1);
  });

  it('[S1.F14j] 模板管理: pick a template and a member, preview the PDF, download it, render two as a job with progress', async () => {
    const members = (await api<{ content: { id: number; name: string }[] }>('POST', '/api/m/member/list?size=2', {}, tokens.zbsj)).body.content;
    const p = page!;
    await p.goto(webUrl(TEMPLATE));
    await p.locator('.template-tabs .rt-row', { hasText: '党员身份证明' }).first().waitFor();
    await p.locator('.template-tabs .ant-tabs-tab', { hasText: '生成文档' }).click();
    const choose = async (select: Locator, text: string, search?: string) => {
      await select.click();
      if (search) await p.keyboard.type(search);
      await p.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
    };
    await choose(p.locator('.template-choose'), '党员身份证明');
    await choose(p.locator('.template-record'), members[0].name, members[0].name);
    await p.locator('.template-one').getByRole('button', { name: /预\s*览/ }).click();
    await p.locator('.template-preview canvas').first().waitFor();
    const [file] = await Promise.all([p.waitForEvent('download'), p.locator('.template-one').getByRole('button', { name: /下载 PDF/ }).click()]);
    expect(file.suggestedFilename()).toBe(`党员身份证明-${members[0].name}.pdf`);
    for (const m of members) await choose(p.locator('.template-records'), m.name, m.name);
    await p.keyboard.press('Escape');
    await p.locator('.template-bulk').getByRole('button', { name: /开始生成/ }).click();
    await p.locator('.job-progress[data-state="2"]').waitFor();
    const [bundle] = await Promise.all([p.waitForEvent('download'), p.locator('.job-progress').getByRole('button', { name: /下载/ }).click()]);
    expect(bundle.suggestedFilename()).toBe('党员身份证明（2份）.pdf');
  });

  it('[S1.F14j] a record\'s detail offers its templates: the transfer letter of a 组织关系转出 record downloads as a PDF', async () => {
    const out = (await api<{ content: { id: number; name: string }[] }>('POST', '/api/m/transfer-out/list?size=1', {}, tokens.zbsj)).body.content[0];
    const p = page!;
    await p.goto(webUrl(`/transfer/out?id=${out.id}`));
    const drawer = p.locator('.rf-drawer:visible');
    await drawer.locator('.rf-templates').click();
    const [file] = await Promise.all([p.waitForEvent('download'), p.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: '组织关系介绍信' }).click()]);
    expect(file.suggestedFilename()).toBe(`组织关系介绍信-${out.name}.pdf`);
  });
});
