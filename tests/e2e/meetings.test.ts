/**
 * Organisation life in Chromium (issue 27): the branch secretary (zbsj) records a 支委会 with its attendance
 * (the roster: one tap per person) and a photo, on a 390 × 844 phone and on a desktop, in a counted number
 * of steps (the two-minute job is measured in steps, not by the clock); the form shows the quorum as
 * attendance is picked; the branch's compliance calendar above the list counts the new meeting.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_KEY } from '../../src/web/core/auth/token';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { api, apiToken, menuPagePath } from '../support/admin-e2e.js';
import { launchBrowser, newPage, webUrl } from '../support/browser.js';

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const SLOW = { timeout: 30_000 };
const YEAR = localToday().slice(0, 4);
// A 1 × 1 PNG: the photo of the meeting.
const PHOTO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('a branch secretary records a 支委会', () => {
  let browser: Browser;
  const pages: Page[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const p of pages) await p.context().close();
    await browser?.close();
  });

  async function open(options = {}): Promise<Page> {
    const page = await newPage(browser, options);
    pages.push(page);
    await page.context().addCookies([{ name: TOKEN_KEY, value: await apiToken('zbsj', DEMO_USER_PASSWORD), url: new URL(webUrl('/')).origin }]);
    await page.goto(webUrl(menuPagePath('core:meetings-three-one')));
    return page;
  }

  /** February's 支委会 cell of the branch's calendar: held/required. */
  const februaryCell = (page: Page) => page.locator(`.mt-cell[data-rule="branchCommittee"][data-period="${YEAR}-02"] .mt-cell-count`);

  async function record(page: Page, day: string): Promise<number> {
    let steps = 0;
    const step = async (action: Promise<unknown>) => {
      await action;
      steps += 1;
    };
    const dialog = page.locator('.rf-dialog');
    await step(page.getByRole('button', { name: /新\s*增/ }).click());
    await dialog.getByText('出席人员').waitFor(SLOW);
    // 会议类型 starts as 支委会 of the secretary's branch: [43.7] its committee comes from the current term — the
    // size and the attendance filled in (all present, the quorum met); the date and the topic are typed.
    const token = await apiToken('zbsj', DEMO_USER_PASSWORD);
    const me = (await api<{ orgId: number }>('GET', '/auth/info', undefined, token)).body;
    const terms = (await api<{ content: { committee: string }[] }>('POST', '/api/m/org-term/list?size=1', { orgId: me.orgId, current: true }, token)).body.content;
    const members = terms[0]!.committee.split('、').length;
    const size = dialog.locator('.rf-field', { hasText: '支委会成员数' }).locator('input');
    await expect.poll(() => size.inputValue(), SLOW).toBe(String(members));
    const quorum = () => dialog.locator('.rf-field', { hasText: '到会情况' }).locator('input').inputValue();
    await expect.poll(quorum, SLOW).toContain('超过半数，符合');
    const date = dialog.locator('.rf-field', { hasText: '会议日期' }).locator('input');
    await step(date.fill(`${YEAR}-02-${day}`).then(() => date.press('Enter')));
    await step(dialog.locator('.rf-field', { hasText: '会议主题' }).locator('input').fill('研究二月支部工作'));
    // Attendance: half of the committee present is short of the quorum; one more back, and it holds.
    const roster = dialog.locator('.rf-roster');
    const checked = roster.locator('.ant-checkbox-wrapper-checked');
    await expect.poll(() => checked.count(), SLOW).toBe(members);
    for (let i = Math.floor(members / 2); i < members; i++) await checked.nth(0).click();
    await expect.poll(quorum).toContain('未超过半数');
    await step(roster.locator('.ant-checkbox-wrapper:not(.ant-checkbox-wrapper-checked)').first().click());
    await expect.poll(quorum).toContain('超过半数，符合');
    await step(dialog.locator('.rf-field', { hasText: '会议照片' }).locator('input[type=file]').setInputFiles({ name: '支委会.png', mimeType: 'image/png', buffer: PHOTO }));
    await dialog.locator('.rf-field', { hasText: '会议照片' }).locator('.rf-image').waitFor(SLOW);
    await step(dialog.getByRole('button', { name: /保\s*存/ }).click());
    await dialog.waitFor({ state: 'hidden', ...SLOW });
    return steps;
  }

  /** Drill-down: February's 支委会 cell filters the list to those meetings, the one just recorded among them. */
  async function drillDown(page: Page, count: number): Promise<void> {
    await page.locator(`.mt-cell[data-rule="branchCommittee"][data-period="${YEAR}-02"]`).click();
    await page.getByText(`${YEAR}-02 支委会 的会议`).waitFor(SLOW);
    await expect.poll(() => page.locator('tr.rt-row').count(), SLOW).toBe(count);
    await page.locator('tr.rt-row', { hasText: '研究二月支部工作' }).first().waitFor(SLOW);
  }

  it('[S1.F12c] on a 390 × 844 phone: eight steps, the page does not scroll sideways, the calendar counts it and lists it', async () => {
    const page = await open(PHONE);
    await februaryCell(page).waitFor(SLOW);
    const before = Number((await februaryCell(page).textContent())!.split('/')[0]);
    expect(await record(page, '20')).toBeLessThanOrEqual(8);
    await expect.poll(async () => Number((await februaryCell(page).textContent())!.split('/')[0]), SLOW).toBe(before + 1);
    await expect.poll(() => page.locator(`.mt-cell[data-rule="branchCommittee"][data-period="${YEAR}-02"]`).getAttribute('class')).toContain('mt-ok');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await drillDown(page, before + 1);
  });

  it('[43.7] 民主生活会 as a branch secretary says no branch of theirs holds one, not "0个党组织 … 100%"', async () => {
    const page = await newPage(browser, { viewport: { width: 1440, height: 900 } });
    pages.push(page);
    await page.context().addCookies([{ name: TOKEN_KEY, value: await apiToken('zbsj', DEMO_USER_PASSWORD), url: new URL(webUrl('/')).origin }]);
    await page.goto(webUrl(menuPagePath('core:meetings-democratic')));
    await page.locator('.mt-none').getByText('没有需要按要求召开民主生活会的党组织').waitFor(SLOW);
    expect(await page.getByText('总体完成率').count()).toBe(0);
  });

  it('[S1.F12c] on a desktop: the same steps, the calendar counts it and lists it', async () => {
    const page = await open({ viewport: { width: 1440, height: 900 } });
    await februaryCell(page).waitFor(SLOW);
    const before = Number((await februaryCell(page).textContent())!.split('/')[0]);
    expect(await record(page, '21')).toBeLessThanOrEqual(8);
    await expect.poll(async () => Number((await februaryCell(page).textContent())!.split('/')[0]), SLOW).toBe(before + 1);
    await drillDown(page, before + 1);
  });
});
