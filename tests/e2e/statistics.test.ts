/**
 * Statistics in Chromium (issue 30): a query is built, saved, run and exported on 综合查询, and run over a
 * snapshot; a report's cell drills down to its records on 统计报表, and a report is designed, saved, run and
 * drilled down; 大数据展示 fits 1920 × 1080 without scrolling.
 */
import { describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { newPage, pickOption, webUrl } from '../support/browser.js';
import { TOKEN_KEY } from '../../src/web/core/auth/token';
import { admin, baseUrl, browser, openAs, run, useCoreSession } from './core-helpers.js';

useCoreSession();

const shot = async (page: import('playwright-core').Page, name: string) => {
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/${name}.png` });
};

describe('统计', () => {
  it('综合查询: a condition built, the query run, saved and exported', async () => {
    const expected = (await api<{ totalElements: number }>('POST', '/api/query/run', { module: 'member', where: { and: [{ field: 'gender', op: 'eq', value: '2' }] }, size: 1 }, admin)).body.totalElements;
    const page = await openAs('admin', '/service/info/query');
    try {
      await page.getByRole('combobox', { name: '查询对象' }).waitFor();
      await page.locator('.ant-select', { has: page.getByRole('combobox', { name: '查询对象' }) }).locator('.ant-select-content, .ant-select-selection-item', { hasText: '党员基本信息' }).first().waitFor();
      const condition = page.getByTestId('query-condition').first();
      await pickOption(page, condition.locator('.ant-select').first(), '性别', '性别');
      await pickOption(page, condition.locator('.ant-select').nth(2), '女');
      await page.getByRole('button', { name: /查\s*询/ }).first().click();
      await page.getByText(`查询结果（共 ${expected} 条）`).waitFor();
      expect(await page.locator('.statistics-query .ant-table-tbody tr.ant-table-row').count()).toBeGreaterThan(0);
      await shot(page, 'query');

      await page.getByRole('button', { name: /保存查询/ }).click();
      const title = `女党员-${run}`;
      await page.getByRole('textbox', { name: '查询名称' }).fill(title);
      await page.locator('.ant-modal').getByRole('button', { name: /保\s*存/ }).click();
      await page.locator('.saved-queries').getByText(title).waitFor();
      const saved = (await api<{ title: string; definition: { where: unknown } }[]>('GET', '/api/query/saved', undefined, admin)).body.find((q) => q.title === title);
      expect(saved?.definition.where).toEqual({ and: [{ field: 'gender', op: 'eq', value: '2' }] });

      // Over the e2e server's exportInlineMax (1,000 rows) the export is a job: its progress, then its file.
      expect(expected).toBeGreaterThan(1000);
      await page.getByRole('button', { name: /导出结果/ }).click();
      const job = page.locator('.job-progress');
      await job.waitFor();
      expect(new URL(page.url()).searchParams.get('job')).toMatch(/^\d+$/);
      await page.locator('.job-progress[data-state="2"]').waitFor();
      await shot(page, 'query-export-job');
      const [file] = await Promise.all([page.waitForEvent('download'), job.getByRole('button', { name: /下载/ }).click()]);
      expect(file.suggestedFilename()).toMatch(/\.xlsx$/);

      // The owner's message leads back here, where the file is downloadable.
      const jobId = new URL(page.url()).searchParams.get('job');
      await page.goto(webUrl('/message/msginfo?tab=system'));
      await page.locator('.msginfo-title', { hasText: /导出“.*”已完成/ }).first().click();
      await page.getByRole('button', { name: /前往处理/ }).click();
      await page.waitForURL((u) => u.pathname === '/web/service/info/query' && u.searchParams.get('job') === jobId);
      const [again] = await Promise.all([page.waitForEvent('download'), page.locator('.job-progress').getByRole('button', { name: /下载/ }).click()]);
      expect(again.suggestedFilename()).toMatch(/\.xlsx$/);
    } finally {
      await page.close();
    }
  });

  it('统计报表: a figure of a report drills down to exactly its records', async () => {
    const page = await openAs('admin', '/statistics/reports/report');
    try {
      const cell = page.locator('.report-table .ant-table-tbody .drill-cell').first();
      await cell.waitFor();
      const figure = Number(await cell.textContent());
      expect(figure).toBeGreaterThan(0);
      await page.locator('.ant-card').filter({ hasText: '图表' }).locator('svg').first().waitFor();
      await shot(page, 'report');
      await cell.click();
      const drawer = page.locator('.ant-drawer');
      await drawer.locator('.ant-table-tbody tr.ant-table-row').first().waitFor({ timeout: 5000 }).catch(() => undefined);
      await shot(page, 'drill');
      await drawer.getByText(`共 ${figure} 条`).waitFor();
      expect(await drawer.locator('.ant-table-tbody tr.ant-table-row').count()).toBe(Math.min(10, figure));
    } finally {
      await page.close();
    }
  });

  it('统计报表: a report designed with a row dimension and a conditional measure is saved, run and drilled down', async () => {
    const title = `设计-${run}`;
    const page = await openAs('admin', '/statistics/reports/report');
    try {
      await page.locator('.report-table .drill-cell').first().waitFor();
      await page.getByRole('button', { name: /设计报表/ }).click();
      const designer = page.locator('.report-designer');
      await designer.getByRole('textbox', { name: '报表名称' }).fill(title);
      // Rows: committees (the default organisation level); the measure counts women only.
      await designer.locator('.ant-select', { has: page.getByRole('combobox', { name: '行字段' }) }).locator('.ant-select-content, .ant-select-selection-item').first().waitFor();
      const measure = designer.getByTestId('report-measure').first();
      await measure.getByRole('textbox', { name: '指标名称' }).fill('女党员');
      const condition = measure.getByTestId('query-condition').first();
      await pickOption(page, condition.locator('.ant-select').first(), '性别', '性别');
      await pickOption(page, condition.locator('.ant-select').nth(2), '女');
      await designer.getByRole('button', { name: /预\s*览/ }).click();
      await designer.locator('.report-preview .ant-table-row').first().waitFor();
      await shot(page, 'designer');
      await designer.getByRole('button', { name: /保存报表/ }).click();
      await page.locator('.report-menu').getByText(title).waitFor();
      const saved = (await api<{ id: string; title: string }[]>('GET', '/api/reports', undefined, admin)).body.find((r) => r.title === title)!;
      const result = (await api<{ totals: Record<string, number> }>('POST', `/api/reports/${saved.id}/run`, { params: { filter: { partyStatus: '1' } } }, admin)).body;
      const women = (await api<{ totalElements: number }>('POST', '/api/m/member/list?size=1', { gender: '2', partyStatus: '1' }, admin)).body.totalElements;
      expect(result.totals['|m1']).toBe(women);
      await page.locator('.report-table .ant-table-summary').getByText(String(women), { exact: true }).waitFor();
      await shot(page, 'designed-report');
      const cell = page.locator('.report-table .ant-table-tbody .drill-cell').first();
      const figure = Number(await cell.textContent());
      await cell.click();
      await page.locator('.ant-drawer').getByText(`共 ${figure} 条`).waitFor();
      await api('DELETE', `/api/reports/${saved.id}`, undefined, admin);
    } finally {
      await page.close();
    }
  });

  it('综合查询 over the year-end snapshot: the same condition counts the snapshot\'s records', async () => {
    const snapshots = (await api<{ id: number; title: string; takenAt: string }[]>('GET', '/api/snapshots', undefined, admin)).body;
    const yearEnd = snapshots.find((x) => x.title.endsWith('年末党员名册'))!;
    const where = { and: [{ field: 'gender', op: 'eq', value: '2' }] };
    const expected = (await api<{ totalElements: number }>('POST', '/api/query/run', { module: 'member', snapshot: yearEnd.id, where, size: 1 }, admin)).body.totalElements;
    const page = await openAs('admin', '/service/info/query');
    try {
      await page.locator('.ant-select', { has: page.getByRole('combobox', { name: '查询对象' }) }).locator('.ant-select-content, .ant-select-selection-item', { hasText: '党员基本信息' }).first().waitFor();
      await pickOption(page, page.locator('.ant-select', { has: page.getByRole('combobox', { name: '数据来源' }) }), `快照：${yearEnd.title}（${yearEnd.takenAt.slice(0, 10)}）`);
      const condition = page.getByTestId('query-condition').first();
      await pickOption(page, condition.locator('.ant-select').first(), '性别', '性别');
      await pickOption(page, condition.locator('.ant-select').nth(2), '女');
      await page.getByRole('button', { name: /查\s*询/ }).first().click();
      await page.getByText(`查询结果（共 ${expected} 条）`).waitFor();
      await page.getByText(`数据来源：快照“${yearEnd.title}”`).waitFor();
      await shot(page, 'query-snapshot');
    } finally {
      await page.close();
    }
  });

  it('[43.14] 大数据展示 fits 1920 × 1080 and 1440 × 900 without scrolling; figures thousands-separated on one line, shares as counted', async () => {
    for (const viewport of [{ width: 1920, height: 1080 }, { width: 1440, height: 900 }]) await bigScreen(viewport);
  });

  async function bigScreen(viewport: { width: number; height: number }) {
    const page = await newPage(browser, { viewport });
    try {
      await page.context().addCookies([{ name: TOKEN_KEY, value: admin, url: baseUrl() }]);
      await page.goto(webUrl('/statistics/bigdata'));
      for (const id of ['bigdata-members', 'bigdata-orgs', 'bigdata-funnel']) await page.getByTestId(id).locator('svg').first().waitFor();
      await shot(page, 'bigdata');
      const fits = await page.evaluate(() => {
        const screen = document.querySelector('[data-testid="bigdata-screen"]')!;
        const panels = [...document.querySelectorAll('.bigdata-panel')].map((p) => p.getBoundingClientRect());
        return {
          screen: screen.scrollHeight <= screen.clientHeight && screen.scrollWidth <= screen.clientWidth,
          panels: panels.length > 0 && panels.every((r) => r.bottom <= window.innerHeight && r.right <= window.innerWidth && r.height > 150),
        };
      });
      expect(fits).toEqual({ screen: true, panels: true });
      // Each figure on one line within its card, thousands separated (an amount with its two decimals).
      const kpis = await page.locator('.bigdata-kpi-value').evaluateAll((els) => els.map((e) => ({ text: e.firstChild?.textContent ?? '', fits: e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().height < 80 })));
      expect(kpis.length).toBeGreaterThan(3);
      for (const k of kpis) {
        expect(k.fits, k.text).toBe(true);
        expect(k.text, k.text).not.toMatch(/\d{4}/);
      }
      // The gender shares are each member count over the total (two decimals), not rounded to add up to 100.
      const overview = (await api<{ gender: { label: string; value: number }[] }>('GET', '/api/bigdata/overview', undefined, admin)).body;
      const total = overview.gender.reduce((t, g) => t + g.value, 0);
      const first = overview.gender[0];
      await page.getByTestId('bigdata-gender').getByText(`${((first.value / total) * 100).toFixed(2)}%`).first().waitFor();
    } finally {
      await page.close();
    }
  }

  it("数据快照: the demo snapshots of last year's end and this month compare record by record", async () => {
    const snapshots = (await api<{ id: number; title: string }[]>('GET', '/api/snapshots', undefined, admin)).body;
    const yearEnd = snapshots.find((x) => x.title.endsWith('年末党员名册'))!;
    const month = snapshots.find((x) => x.title.endsWith('月党员名册'))!;
    const diff = (await api<{ added: number }>('GET', `/api/snapshots/${yearEnd.id}/diff/${month.id}?module=member&kind=added`, undefined, admin)).body;
    const page = await openAs('admin', '/statistics/data/snapshot');
    try {
      await page.getByText(yearEnd.title).first().waitFor();
      await pickOption(page, page.locator('.ant-select', { has: page.getByRole('combobox', { name: '较早的快照' }) }), await optionText(yearEnd.id));
      await pickOption(page, page.locator('.ant-select', { has: page.getByRole('combobox', { name: '较晚的快照' }) }), await optionText(month.id));
      await page.getByRole('button', { name: /比\s*较/ }).click();
      await page.locator('.ant-statistic', { hasText: '新增记录' }).getByText(String(diff.added), { exact: true }).waitFor();
      await shot(page, 'snapshot');
    } finally {
      await page.close();
    }
  });
});

/** The option text of a snapshot on the compare selects: its title and day. */
async function optionText(id: number): Promise<string> {
  const s = (await api<{ id: number; title: string; takenAt: string }[]>('GET', '/api/snapshots', undefined, admin)).body.find((x) => x.id === id)!;
  return `${s.title}（${s.takenAt.slice(0, 10)}）`;
}
