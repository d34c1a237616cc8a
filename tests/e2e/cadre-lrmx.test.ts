/**
 * 干部任免审批表 in Chromium (issue 26): a cadre's form opened from its page, the .xlsx downloaded and read
 * (it holds the résumé), and an .lrmx file imported with its field-by-field preview before it is applied.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { api, apiToken } from '../support/admin-e2e.js';
import { launchBrowser, webUrl } from '../support/browser.js';
import { signedIn } from './layout-helpers.js';

const stamp = Date.now().toString(36).slice(-4);
const FIXTURE = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/cadre-lrmx-sample.lrmx'), 'utf8');

describe('[S1.F3a] 干部任免审批表 in Chromium', () => {
  let browser: Browser;
  let page: Page;
  let token: string;
  let cadreId: number;
  let unitName: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    token = await apiToken('dwzzb', DEMO_USER_PASSWORD);
    page = await signedIn(browser, token);
    page.setDefaultTimeout(20_000);
    unitName = `审批表测试学院${stamp}`;
    const unit = await api<{ id: number }>('POST', '/api/m/unit', { name: unitName, type: '1', code: `LRMXE${stamp}` }, token);
    const cadre = await api<{ id: number }>('POST', '/api/m/cadre', { name: `审批${stamp}`, gender: '2', birthDate: '1981-09-20', unitId: unit.body.id, category: '3', postTitle: '审批表测试学院副院长' }, token);
    expect(cadre.status, JSON.stringify(cadre.body)).toBe(201);
    cadreId = cadre.body.id;
    for (const r of [
      { startDate: '1999-09-01', endDate: '2006-06-30', text: '北京师范大学教育学专业学习' },
      { startDate: '2006-07-01', endDate: null, text: '本校教育学院教师、副院长' },
    ]) expect((await api('POST', '/api/m/cadre-resume', { cadreId, ...r, fullTime: true }, token)).status).toBe(201);
  });
  afterAll(() => browser?.close());

  it('opens the form with its résumé; the downloaded .xlsx holds the résumé', async () => {
    await page.goto(webUrl(`/cadre/lrmx/${cadreId}`));
    const resume = page.getByTestId('lrmx-resume');
    await resume.getByText(/1999\.09--2006\.06\s+北京师范大学教育学专业学习/).waitFor();
    await page.screenshot({ path: '/tmp/c-shot-lrmx.png', fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '下载Excel' }).click()]);
    expect(download.suggestedFilename()).toBe(`干部任免审批表-审批${stamp}.xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await download.path());
    const sheet = book.worksheets[0];
    expect(sheet.getCell('B2').value).toBe(`审批${stamp}`);
    expect(String(sheet.getCell('B11').value)).toContain('2006.07--');
    expect(String(sheet.getCell('B11').value)).toContain('本校教育学院教师、副院长');
  });

  it('imports an .lrmx file: the preview lists each change, the cadre is created only on 确认导入', async () => {
    const name = `欧阳${stamp}`;
    const file = Buffer.from(FIXTURE.replace('<XingMing>欧阳明远</XingMing>', `<XingMing>${name}</XingMing>`));
    await page.goto(webUrl(`/cadre/lrmx/${cadreId}`));
    await page.getByRole('button', { name: '导入任免审批表（.lrmx）' }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '导入任免审批表' });
    await dialog.locator('input[type=file]').setInputFiles({ name: `${name}.lrmx`, mimeType: 'application/xml', buffer: file });
    const changes = dialog.locator('.lrmx-changes');
    await changes.getByText('籍贯').waitFor();
    await changes.getByText('湖南长沙').waitFor();
    await changes.getByText('博士研究生毕业').waitFor();
    await dialog.getByText(`系统中没有“${name}”，将新建干部`).waitFor();
    await dialog.locator('.lrmx-preview-resume').getByText(/2011\.01--2017\.08\s+本校材料学院教授、系主任/).waitFor();
    await page.screenshot({ path: '/tmp/c-shot-lrmx-import.png' });
    // Nothing written yet; the unit of a new cadre is asked for before 确认导入 can be pressed.
    expect((await api<{ totalElements: number }>('POST', '/api/m/cadre/list', { name }, token)).body.totalElements).toBe(0);
    const confirm = dialog.getByRole('button', { name: '确认导入' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.locator('.ant-select').click();
    await page.keyboard.type(unitName);
    await page.locator('.ant-select-dropdown:visible').getByTitle(unitName, { exact: true }).click();
    await confirm.click();
    await page.waitForURL((url) => /\/cadre\/lrmx\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${cadreId}`));
    await page.getByTestId('lrmx-resume').getByText(/1996\.09--2003\.06/).waitFor();
    const found = (await api<{ content: { name: string; nativePlace: string }[] }>('POST', '/api/m/cadre/list', { name }, token)).body.content;
    expect(found.map((c) => c.name)).toEqual([name]);
  });
});
