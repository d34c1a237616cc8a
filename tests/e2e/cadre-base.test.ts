/**
 * 干部信息管理 in Chromium (issue 26): 组织部 (dwzzb) edits the nine kinds of records of one cadre on its
 * detail — the basic information in the form, then 档案, 职务职称, 教育培训, 家庭成员, 学习培训, 基本考核,
 * 年度考核 and 简历 in their tabs — and opens the cadre's 干部信息简表 in the full and the short views.
 */
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { api, apiToken } from '../support/admin-e2e.js';
import { launchBrowser, pickOption, webUrl } from '../support/browser.js';
import { signedIn } from './layout-helpers.js';

const stamp = Date.now().toString(36).slice(-4);

describe('[S1.F3a] the cadre base in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  let id: number;
  const name = `干部${stamp}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    token = await apiToken('dwzzb', DEMO_USER_PASSWORD);
    page = await signedIn(browser, token);
    page.setDefaultTimeout(20_000);
    const unit = (await api<{ content: { id: number }[] }>('POST', '/api/m/unit/list?size=1', {}, token)).body.content[0].id;
    const created = await api<{ id: number }>('POST', '/api/m/cadre', { name, gender: '1', birthDate: '1976-04-12', unitId: unit, category: '3', rank: '06' }, token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    id = created.body.id;
  });
  afterAll(() => browser?.close());

  const drawer = () => page.locator('.rf-drawer');
  const dialogTitled = (title: string) => page.locator('.rf-dialog').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });
  const typeDate = async (input: Locator, date: string) => {
    await input.click();
    await input.fill(date);
    await input.press('Enter');
  };
  const save = async (dialog: Locator) => {
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await dialog.waitFor({ state: 'detached' }).catch(async (error) => {
      throw new Error(`the dialog stayed open: ${await dialog.innerText().catch(() => '')}`, { cause: error });
    });
  };
  /**
   * Opens a tab of the detail. Ten kinds of records overflow the tab bar: a tab out of view is chosen from
   * the bar's 更多 (…) menu, as a user does.
   */
  const openTab = async (tab: string) => {
    const t = drawer().getByRole('tab', { name: tab, exact: true });
    for (let attempt = 1; ; attempt++) {
      const bar = await drawer().locator('.ant-tabs-nav-wrap').first().boundingBox();
      const box = await t.boundingBox();
      const shown = !!bar && !!box && box.x >= bar.x && box.x + box.width <= bar.x + bar.width;
      if (shown) await t.click();
      else {
        await drawer().locator('.ant-tabs-nav-more').first().hover();
        await page.locator('.ant-tabs-dropdown:visible').getByText(tab, { exact: true }).click();
      }
      try {
        await expect.poll(() => t.getAttribute('aria-selected'), { timeout: 3000 }).toBe('true');
        return;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  };
  /** Adds a record in a child tab: `fill` enters its fields; the row then shows `expectText`. */
  const addChild = async (tab: string, dialogTitle: string, fill: (d: Locator) => Promise<void>, expectText: string) => {
    await openTab(tab);
    const child = drawer().locator('.rf-child').filter({ has: page.locator('.rf-child-title', { hasText: tab }) });
    await child.getByRole('button', { name: /新\s*增/ }).click();
    const d = dialogTitled(`新增${dialogTitle}`);
    await d.waitFor();
    await fill(d);
    await save(d);
    await child.locator('tr', { hasText: expectText }).waitFor();
  };
  const children = async (module: string) => (await api<{ content: Record<string, unknown>[] }>('POST', `/api/m/${module}/list?size=100`, { cadreId: id }, token)).body.content;

  it('edits the nine kinds of records of one cadre', async () => {
    await page.goto(webUrl('/cadre/info'));
    await page.getByPlaceholder('请输入姓名').fill(name);
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await page.locator('tr.rt-row', { hasText: name }).getByText('查看').click();
    await drawer().getByText(name).first().waitFor();

    // 1 基本信息: the form.
    await drawer().getByRole('button', { name: /编\s*辑/ }).first().click();
    const form = dialogTitled('编辑干部信息');
    await form.locator('#root_nativePlace').fill('湖南长沙');
    await form.locator('#root_postTitle').fill('某学院副院长');
    await save(form);
    await expect.poll(async () => (await api<Record<string, unknown>>('GET', `/api/m/cadre/${id}`, undefined, token)).body.nativePlace).toBe('湖南长沙');

    // 2 档案信息
    await addChild('档案信息', '档案信息', async (d) => {
      await d.locator('#root_fileNo').fill(`DA${stamp}`);
      await d.locator('#root_keptAt').fill('党委组织部干部档案室');
    }, `DA${stamp}`);
    // 3 职务职称: a title (职称) needs no unit or rank.
    await addChild('职务职称', '职务职称', async (d) => {
      await pickOption(page, d.locator('[data-field="kind"] .ant-select'), '职称');
      await d.locator('#root_postTitle').fill('教授职称');
      await typeDate(d.locator('#root_startDate'), '2015-09-01');
    }, '教授职称');
    // 4 教育培训
    await addChild('教育培训', '教育培训', async (d) => {
      await d.locator('#root_institution').fill('湖南大学');
      await d.locator('#root_major').fill('化学');
    }, '湖南大学');
    // 5 家庭成员及社会关系
    await addChild('家庭成员及社会关系', '家庭成员及社会关系', async (d) => {
      await pickOption(page, d.locator('[data-field="relation"] .ant-select'), '配偶');
      await d.locator('#root_name').fill(`配偶${stamp}`);
    }, `配偶${stamp}`);
    // 6 学习培训经历
    await addChild('学习培训经历', '学习培训经历', async (d) => {
      await d.locator('#root_name').fill('中青年干部培训班');
      await d.locator('#root_organizer').fill('省委党校');
    }, '中青年干部培训班');
    // 7 基本考核
    await addChild('基本考核', '基本考核', async (d) => {
      await pickOption(page, d.locator('[data-field="kind"] .ant-select'), '奖励');
      await d.locator('#root_content').fill('校级优秀教师');
    }, '校级优秀教师');
    // 8 年度考核结果 (称职: 优秀 is capped per unit and year, and the demo's share may be full)
    await addChild('年度考核结果', '年度考核结果', async (d) => {
      await d.locator('#root_year').fill('2025');
      await pickOption(page, d.locator('[data-field="result"] .ant-select'), '称职');
    }, '2025');
    // 9 简历: two entries, the second continuing the first; a gap is refused with the rule's words.
    await addChild('简历', '简历', async (d) => {
      await typeDate(d.locator('#root_startDate'), '1999-07-01');
      await typeDate(d.locator('#root_endDate'), '2015-06-30');
      await d.locator('#root_text').fill('湖南大学化学系教师');
    }, '湖南大学化学系教师');
    await drawer().locator('.rf-child').filter({ has: page.locator('.rf-child-title', { hasText: '简历' }) }).getByRole('button', { name: /新\s*增/ }).click();
    const gap = dialogTitled('新增简历');
    await typeDate(gap.locator('#root_startDate'), '2015-09-01');
    await gap.locator('#root_text').fill('某学院副院长');
    await gap.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText(/断档2个月/).first().waitFor();
    await typeDate(gap.locator('#root_startDate'), '2015-07-01');
    await save(gap);

    for (const [module, n] of [['cadre-archive', 1], ['cadre-post', 1], ['cadre-education', 1], ['cadre-family', 1], ['cadre-training', 1], ['cadre-basic-assessment', 1], ['cadre-assessment', 1], ['cadre-resume', 2]] as const) {
      expect(await children(module), module).toHaveLength(n);
    }
    await page.screenshot({ path: path.join(import.meta.dirname, '../../.tmp/e2e-cadre-detail.png') });
  });

  it('a reminder\'s link (?id=) opens the cadre\'s detail on 干部信息管理', async () => {
    await page.goto(webUrl(`/cadre/info?id=${id}`));
    await drawer().getByText(name).first().waitFor();
  });

  it('shows the 干部信息简表 in full and as the résumé only', async () => {
    await page.goto(webUrl(`/cadre/info/profile/${id}`));
    await page.getByText(`${name}　干部信息简表`).waitFor();
    for (const title of ['档案信息', '职务职称', '家庭成员及社会关系', '简历']) await page.locator('.cadre-section .ant-card-head-title', { hasText: title }).first().waitFor();
    await page.getByText('湖南大学化学系教师').waitFor();
    await page.locator('.ant-segmented').getByText('简历', { exact: true }).click();
    await page.locator('.cadre-section .ant-card-head-title', { hasText: '档案信息' }).waitFor({ state: 'detached' });
    await page.getByText('湖南大学化学系教师').waitFor();
    await page.screenshot({ path: path.join(import.meta.dirname, '../../.tmp/e2e-cadre-profile.png') });
  });

  it('[39.3] 组织部 approves a trip, lends the passport and takes it back through the step dialogs of 因私出国（境）申请', async () => {
    // The server's day (its machine's local date), not Beijing's: from 16:00 UTC on a UTC machine they differ.
    const today = localToday();
    const passport = await api<{ id: number }>('POST', '/api/m/cadre-passport', { cadreId: id, kind: '1', number: `E2E${stamp}`, issued: '2024-01-10', expires: '2034-01-09', custodyDate: '2024-01-15' }, token);
    expect(passport.status, JSON.stringify(passport.body)).toBe(201);
    const trip = await api<{ id: number }>('POST', '/api/m/cadre-abroad', { cadreId: id, passportId: passport.body.id, destination: '新加坡', startDate: today, endDate: today, purpose: '探亲' }, token);
    expect(trip.status, JSON.stringify(trip.body)).toBe(201);
    const tripId = trip.body.id;
    const state = async () => (await api<{ version: number; state: number }>('GET', `/api/m/cadre-abroad/${tripId}`, undefined, token)).body;
    const take = async (step: string, fill: (dialog: Locator) => Promise<void> = async () => undefined) => {
      await page.goto(webUrl(`/cadre/abroad?id=${tripId}`));
      await drawer().getByText(name).first().waitFor();
      const before = (await state()).version;
      await drawer().locator(`[data-step="${step}"]`).click();
      const dialog = page.locator('.wf-dialog');
      await dialog.waitFor();
      await fill(dialog);
      await dialog.locator('.wf-submit').click();
      await dialog.waitFor({ state: 'detached' }).catch(async (error) => {
        throw new Error(`${step}: the dialog stayed open: ${await dialog.innerText().catch(() => '')}`, { cause: error });
      });
      await expect.poll(async () => (await state()).version, { timeout: 15_000 }).toBeGreaterThan(before);
    };
    await take('submit');
    await take('approve');
    await take('lend', (dl) => typeDate(dl.locator('#root_lendDate'), today));
    expect(await state()).toMatchObject({ state: 2 });
    expect((await api<{ state: string }>('GET', `/api/m/cadre-passport/${passport.body.id}`, undefined, token)).body.state).toBe('已领取');
    await take('giveBack', (dl) => typeDate(dl.locator('#root_returnDate'), today));
    expect(await state()).toMatchObject({ state: 3 });
    expect((await api<{ state: string }>('GET', `/api/m/cadre-passport/${passport.body.id}`, undefined, token)).body.state).toBe('集中保管');
  });
});
