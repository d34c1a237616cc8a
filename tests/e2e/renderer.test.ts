import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { idCardCheckChar } from '../../src/shared/validators.js';
import { api, apiToken, menuPagePath, uiLogin } from '../support/admin-e2e.js';
import { confirmDialog, launchBrowser, newPage, painted, pickOption as pickOptionOf, webUrl } from '../support/browser.js';

/**
 * The pages every module schema gets (list, form, detail, trail), driven in Chromium as the
 * administrator: first on 规章制度 (regulation), then on 党员基本信息 (member). Steps build on each other.
 */

interface Row {
  id: number;
  version: number;
  [field: string]: unknown;
}

const stamp = Date.now().toString(36);

/** A valid 18-character ID number, different on every run. */
function idNumber(seed: number): string {
  const first17 = `430102199${seed % 10}0${1 + (seed % 9)}1${String(seed % 1000).padStart(3, '0')}${seed % 10}`.slice(0, 17);
  return first17 + idCardCheckChar(first17);
}

describe('module pages in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let token: string;

  /** A form dialog by its title (antd's title id is not unique in the test build, so not by accessible name). */
  const dialog = (title: string) => page.locator('.rf-dialog').filter({ has: page.locator('.ant-modal-title', { hasText: new RegExp(`^${title}$`) }) });
  const notice = (text: string) => page.locator('.ant-message').getByText(text);
  const rowOf = (text: string) => page.locator('tr.rt-row', { hasText: text });
  const pickOption = (field: Locator, option: string, search?: string) => pickOptionOf(page, field, option, search);
  const typeDate = async (input: Locator, date: string) => {
    await input.click();
    await input.fill(date);
    await input.press('Enter');
  };
  /** Confirms the open confirm dialog; a click that landed while it zoomed in did nothing, so it is made again. */
  const confirm = (button: RegExp) => confirmDialog(page, button);
  const listOf = async (module: string, filter: Record<string, unknown>) =>
    (await api<{ content: Row[] }>('POST', `/api/m/${module}/list?page=0&size=50`, filter, token)).body.content;

  beforeAll(async () => {
    token = await apiToken('admin', DEMO_ADMIN_PASSWORD);
    browser = await launchBrowser();
    page = await newPage(browser);
    page.setDefaultTimeout(15_000);
    await uiLogin(page, 'admin', DEMO_ADMIN_PASSWORD);
  });

  afterAll(async () => {
    // The shared server keeps no records of these tests.
    for (const [module, filter] of [
      ['regulation', { title: stamp }],
      ['member', { name: stamp }],
    ] as const) {
      const rows = await listOf(module, filter).catch(() => []);
      if (rows.length)
        await api(
          'DELETE',
          `/api/m/${module}`,
          rows.map((r) => r.id),
          token,
        );
    }
    await browser?.close();
  });

  describe('规章制度 (regulation)', () => {
    const title = `端到端规章${stamp}`;

    beforeAll(async () => {
      expect(menuPagePath('module:regulation')).toBe('/service/info/regulation');
      await page.goto(webUrl(menuPagePath('module:regulation')));
      await page
        .locator('.rt-table')
        .waitFor({ timeout: 30_000 })
        .catch(async (error: unknown) => {
          await page.screenshot({ path: '.tmp/renderer/e2e-regulation-start.png' });
          throw error;
        });
    });

    it('[S9.L7a] a data form dialog stays open on Escape and on a mask click, and is 700px wide', async () => {
      await page.getByRole('button', { name: /新\s*增/ }).click();
      const form = dialog('新增规章制度');
      await form.waitFor();
      await page.keyboard.press('Escape');
      await page.mouse.click(12, 790);
      await painted(page);
      expect(await form.isVisible()).toBe(true);
      // Polled: on a loaded machine the zoom-in may still be running (it scales the box).
      await expect
        .poll(() =>
          page
            .locator('.rf-dialog .ant-modal-container, .rf-dialog .ant-modal-content')
            .first()
            .evaluate((e) => e.getBoundingClientRect().width),
        )
        .toBe(700);
      await form.getByRole('button', { name: /取\s*消/ }).click();
      await form.waitFor({ state: 'hidden' });
    });

    it('adds a record through the form (required fields checked first, in Chinese)', async () => {
      await page.getByRole('button', { name: /新\s*增/ }).click();
      const form = dialog('新增规章制度');
      await form.waitFor();
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await form.getByText('标题不能为空').waitFor();
      await form.getByText('发布日期不能为空').waitFor();
      await form.locator('#root_title').fill(title);
      await pickOption(form.locator('[data-field="category"] .ant-select'), '学校制度');
      await form.locator('#root_issuer').fill('党委组织部');
      await form.locator('#root_documentNo').fill(`党组发〔2026〕${stamp}号`);
      await typeDate(form.locator('#root_issuedOn'), '2026-03-01');
      await form.locator('#root_summary').fill('端到端测试录入的规章制度。');
      await expect(form.getByText('标题不能为空').count()).resolves.toBe(0);
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await notice('新增成功').waitFor();
      await form.waitFor({ state: 'hidden' });
      const [saved] = await listOf('regulation', { title });
      expect(saved).toMatchObject({ title, category: '学校制度', issuer: '党委组织部', issuedOn: '2026-03-01' });
    });

    it('finds it with a filter (the like filter of 标题)', async () => {
      const request = page.waitForRequest((r) => r.url().includes('/api/m/regulation/list') && (r.postDataJSON() as { title?: string }).title === stamp);
      await page.getByPlaceholder('请输入标题').fill(stamp);
      await page.getByRole('button', { name: /查\s*询/ }).click();
      await request;
      await rowOf(title).waitFor();
      await expect(page.locator('tr.rt-row').count()).resolves.toBe(1);
      await expect(rowOf(title).textContent()).resolves.toMatch(/学校制度.*党委组织部.*2026-03-01/);
    });

    it('edits it; the dialog starts from the stored values', async () => {
      await rowOf(title)
        .getByRole('button', { name: /编\s*辑/ })
        .click();
      const form = dialog('编辑规章制度');
      await form.waitFor();
      await expect(form.locator('#root_issuer').inputValue()).resolves.toBe('党委组织部');
      await form.locator('#root_issuer').fill('党委办公室');
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await notice('修改成功').waitFor();
      await form.waitFor({ state: 'hidden' });
      // Polled: the list reloads after the dialog closed (read at once, a loaded machine saw the old row).
      await expect.poll(() => rowOf(title).textContent()).toContain('党委办公室');
      const [saved] = await listOf('regulation', { title });
      expect(saved.issuer).toBe('党委办公室');
      expect(saved.version).toBe(2);
    });

    it('reads the change in its trail (type, origin, who, before → after) and restores it', async () => {
      await rowOf(title)
        .getByRole('button', { name: /查\s*看/ })
        .click();
      const drawer = page.locator('.rf-drawer');
      await drawer.getByText('党委办公室').first().waitFor();
      await drawer.getByRole('tab', { name: '修改记录' }).click();
      const update = drawer.locator('.rf-trail-item').first();
      await update.getByText('用户修改').waitFor();
      await expect(update.locator('.rf-trail-head').textContent()).resolves.toMatch(/修改.*用户修改.*admin/);
      const diff = update.locator('tr', { hasText: '发文单位' });
      await expect(diff.locator('.rf-diff-before').textContent()).resolves.toBe('党委组织部');
      await expect(diff.locator('.rf-diff-after').textContent()).resolves.toBe('党委办公室');
      // The record's creation is there too, with every value it started with.
      const added = drawer.locator('.rf-trail-item').last();
      await expect(added.locator('.rf-trail-head').textContent()).resolves.toMatch(/新增.*用户新增/);
      expect(await added.getByRole('button', { name: /恢\s*复/ }).count()).toBe(0);

      await update.getByRole('button', { name: /恢\s*复/ }).click();
      await confirm(/^恢\s*复$/);
      await notice('恢复成功').waitFor();
      await drawer.locator('.rf-trail-item', { hasText: '用户恢复' }).waitFor();
      const [restored] = await listOf('regulation', { title });
      expect(restored.issuer).toBe('党委组织部');
      await drawer.getByRole('tab', { name: '基本信息' }).click();
      await drawer.getByText('党委组织部').first().waitFor();
      await page.locator('.rf-drawer .ant-drawer-close').click();
      await rowOf(title).getByText('党委组织部').waitFor();
    });

    it('[issue 12.9] deletes it; 已删除记录 shows who deleted it and 恢复 brings it back', async () => {
      await rowOf(title).locator('input.rt-checkbox').check();
      await page.locator('.rt-toolbar').getByRole('button', { name: /删\s*除（1）$/ }).click();
      await expect(page.locator('.ant-modal-confirm').textContent()).resolves.toContain('删除后可由管理员在“已删除记录”中恢复');
      await confirm(/^删\s*除$/);
      await rowOf(title).waitFor({ state: 'detached' });

      await page.locator('.rt-deleted-open').click();
      const deleted = page.locator('.deleted-dialog');
      const entry = deleted.locator('tr', { hasText: title });
      await expect(entry.textContent()).resolves.toContain('admin');
      await entry.locator('.deleted-restore').click();
      await confirm(/确\s*定/);
      await notice('已恢复').waitFor();
      await entry.getByText('已由admin恢复').waitFor();
      await deleted.locator('.ant-modal-close').click();
      await rowOf(title).getByText('党委组织部').waitFor();
      expect((await listOf('regulation', { title })).length).toBe(1);
    });
  });

  describe('党员基本信息 (member)', () => {
    const name = `测试${stamp}`;
    const seed = Math.floor(Math.random() * 1e6);
    const goodId = idNumber(seed);
    const badId = goodId.slice(0, 17) + (goodId[17] === '1' ? '2' : '1');
    let orgName: string;

    beforeAll(async () => {
      const tree = await api<{ id: number; name: string; children?: unknown[] }[]>('GET', '/api/dzzxx/buildtree?withCount=false', undefined, token);
      const leaf = (nodes: { name: string; children?: unknown[] }[]): string =>
        nodes[0].children?.length ? leaf(nodes[0].children as typeof nodes) : nodes[0].name;
      orgName = leaf(tree.body);
      await page.goto(webUrl(menuPagePath('module:member')));
      await page.locator('tr.rt-row').first().waitFor();
    });

    it('[S5.V10] on a failed save the first invalid field scrolls smoothly into view, centred', async () => {
      await page.getByRole('button', { name: /新\s*增/ }).click();
      const form = dialog('新增党员基本信息');
      await form.waitFor();
      await form.locator('#root_name').fill(name);
      await form.locator('[data-field="gender"]').getByText('男', { exact: true }).click();
      await form.locator('#root_idCard').fill(goodId);
      // 人员类别 (the first invalid field in form order) is below the fold of the scrolled-up dialog body.
      const body = page.locator('.rf-dialog .ant-modal-body');
      await body.evaluate((b) => (b.scrollTop = 0));
      const field = form.locator('[data-field="category"]');
      const viewport = page.viewportSize()!;
      const visible = (await body.boundingBox())!;
      expect((await field.boundingBox())!.y).toBeGreaterThan(visible.y + visible.height);
      await page.evaluate(() => {
        const calls: unknown[] = [];
        (window as unknown as { scrollCalls: unknown[] }).scrollCalls = calls;
        const original = Element.prototype.scrollIntoView;
        Element.prototype.scrollIntoView = function (this: Element, arg?: boolean | ScrollIntoViewOptions) {
          calls.push({ field: this.getAttribute('data-field'), arg });
          return original.call(this, arg);
        };
      });
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await form.getByText('人员类别不能为空').waitFor();
      const calls = await page.evaluate(() => (window as unknown as { scrollCalls: unknown[] }).scrollCalls);
      expect(calls[0]).toEqual({ field: 'category', arg: { behavior: 'smooth', block: 'center' } });
      // The smooth scroll has ended (the field still over two frames) with the field near the middle.
      const offCentreAtRest = async () => {
        const before = (await field.boundingBox())!;
        await painted(page);
        const box = (await field.boundingBox())!;
        return box.y === before.y ? Math.abs(box.y + box.height / 2 - viewport.height / 2) : Infinity;
      };
      await expect.poll(offCentreAtRest, { timeout: 10_000 }).toBeLessThan(120);
      await form.getByRole('button', { name: /取\s*消/ }).click();
      await confirmDialog(page, /放弃修改/); // the form has changes (issue 33.3)
      await form.waitFor({ state: 'hidden' });
    });

    it('adds a member: a bad ID number (wrong check digit) shows 请输入正确的身份证号, fixed it saves', async () => {
      await page.getByRole('button', { name: /新\s*增/ }).click();
      const form = dialog('新增党员基本信息');
      await form.waitFor();
      await form.locator('#root_name').fill(name);
      await form.locator('[data-field="gender"]').getByText('女', { exact: true }).click();
      await form.locator('#root_idCard').fill(badId);
      await form.locator('#root_nativePlace').click(); // leaving the field validates it
      await form.getByText('请输入正确的身份证号').waitFor();
      await typeDate(form.locator('#root_birthDate'), '1990-05-20');
      await expect(form.locator('#root_age').inputValue()).resolves.toMatch(/^\d+$/);
      await pickOption(form.locator('[data-field="category"] .ant-select'), '在职教职工');
      await form.locator('[data-field="memberType"]').getByText('正式党员', { exact: true }).click();
      await typeDate(form.locator('#root_joinDate'), '2015-07-01');
      // x-show-if: 转正日期 appears for 正式党员.
      await typeDate(form.locator('#root_fullDate'), '2016-07-01');
      await pickOption(form.locator('[data-field="orgId"] .ant-select'), orgName, orgName.slice(0, 6));
      await form.locator('#root_phone').fill('13812345678');
      // Still refused: the ID number.
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await form.getByText('请输入正确的身份证号').waitFor();
      expect(await notice('新增成功').count()).toBe(0);
      await form.locator('#root_idCard').fill(goodId);
      await form.locator('#root_nativePlace').click();
      await form.getByText('请输入正确的身份证号').waitFor({ state: 'detached' });
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await notice('新增成功').waitFor();
      await form.waitFor({ state: 'hidden' });
      const [saved] = await listOf('member', { name });
      // Lists answer the identity-card number masked (issue 33.5).
      expect(saved).toMatchObject({ name, idCard: `${goodId.slice(0, 6)}************`, gender: '2', memberType: '1', fullDate: '2016-07-01', orgIdName: orgName });
    });

    it('finds the member by name, edits the phone number, and reads the change in the trail', async () => {
      await page.getByPlaceholder('请输入姓名').fill(name);
      await page.getByRole('button', { name: /查\s*询/ }).click();
      await rowOf(name).waitFor();
      await expect(page.locator('tr.rt-row').count()).resolves.toBe(1);
      await expect(rowOf(name).textContent()).resolves.toContain(orgName);
      await rowOf(name)
        .getByRole('button', { name: /编\s*辑/ })
        .click();
      const form = dialog('编辑党员基本信息');
      await form.waitFor();
      await expect(form.locator('#root_phone').inputValue()).resolves.toBe('13812345678');
      // The organisation picker shows the stored organisation by name.
      await form.locator('[data-field="orgId"]').getByText(orgName).waitFor();
      await form.locator('#root_phone').fill('13987654321');
      await form.getByRole('button', { name: /保\s*存/ }).click();
      await notice('修改成功').waitFor();
      await form.waitFor({ state: 'hidden' });
      await rowOf(name)
        .getByRole('button', { name: /查\s*看/ })
        .click();
      const drawer = page.locator('.rf-drawer');
      await drawer.getByRole('tab', { name: '修改记录' }).click();
      const diff = drawer.locator('.rf-trail-item').first().locator('tr', { hasText: '手机号码' });
      await expect(diff.locator('.rf-diff-before').textContent()).resolves.toBe('13812345678');
      await expect(diff.locator('.rf-diff-after').textContent()).resolves.toBe('13987654321');
      // The creation lists labels, not codes.
      const added = drawer.locator('.rf-trail-item').last();
      await expect(added.locator('tr', { hasText: '性别' }).locator('.rf-diff-after').textContent()).resolves.toBe('女');
      await expect(added.locator('tr', { hasText: '所在党支部' }).locator('.rf-diff-after').textContent()).resolves.toBe(orgName);
      await page.locator('.rf-drawer .ant-drawer-close').click();
    });
  });
});
