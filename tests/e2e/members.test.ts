import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiLogin, api } from '../support/api.js';
import { launchBrowser, newPage, webUrl } from '../support/browser.js';

let browser: Browser;
let admin: string;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiLogin();
});
afterAll(() => browser?.close());

/** Signs in as admin through the API and opens a path inside the layout. */
async function openAsAdmin(path: string): Promise<Page> {
  const page = await newPage(browser);
  await page.context().addCookies([{ name: 'DJ-TOKEN', value: admin, url: new URL(webUrl('/')).origin }]);
  await page.goto(webUrl(path));
  return page;
}

async function menuPath(component: string): Promise<string> {
  const tree = (await api<{ path: string; component?: string; children?: unknown[] }[]>('GET', '/api/menus/myTree', undefined, admin)).body;
  const walk = (nodes: { path: string; component?: string; children?: unknown[] }[], base: string): string | undefined => {
    for (const n of nodes) {
      const full = n.path.startsWith('/') ? n.path : `${base}/${n.path}`;
      if (n.component === component) return full;
      const found = walk((n.children ?? []) as typeof nodes, full);
      if (found) return found;
    }
    return undefined;
  };
  const path = walk(tree, '');
  if (!path) throw new Error(`no menu page for ${component}`);
  return path;
}

describe('members: analysis and roster in Chromium', () => {
  it('[S1.F1c] the analysis charts load; a click on a slice lists exactly those members', async () => {
    const page = await openAsAdmin(await menuPath('core:member-analysis'));
    const gender = page.locator('.analysis-card[data-dimension="gender"]');
    await gender.locator('.category-chart svg').waitFor();
    const female = gender.locator('.analysis-slice').filter({ hasText: '女' });
    const count = Number(/(\d+)人/.exec(await female.innerText())![1]);
    expect(count).toBeGreaterThan(0);
    await female.click();
    const drawer = page.locator('.ant-drawer').filter({ hasText: `性别：女（${count}人）` });
    await drawer.waitFor();
    await drawer.getByText(`共 ${count} 人`).waitFor();
    const genders = await drawer.locator('tbody tr td:nth-child(2)').allInnerTexts();
    expect(genders.length).toBeGreaterThan(0);
    expect(new Set(genders)).toEqual(new Set(['女']));
    await page.context().close();
  });

  it('[issue 13.8] few categories make a pie, many a sorted bar chart; every label shows its whole number', async () => {
    const page = await openAsAdmin(await menuPath('core:member-analysis'));
    try {
      const chartOf = (dimension: string) => page.locator(`.analysis-card[data-dimension="${dimension}"] .category-chart`);
      await chartOf('org').locator('svg').waitFor();
      await chartOf('gender').locator('svg text').first().waitFor();
      expect(await chartOf('gender').getAttribute('data-chart')).toBe('pie');
      expect(await chartOf('org').getAttribute('data-chart')).toBe('bar');
      const analysis = (await api<{ dimensions: { key: string; slices: { label: string; count: number }[] }[] }>('GET', '/api/member/analysis', undefined, admin)).body;
      for (const key of ['gender', 'org']) {
        const slices = analysis.dimensions.find((d) => d.key === key)!.slices;
        expect(slices.length > 6).toBe(key === 'org');
        const texts = (await chartOf(key).locator('svg text').allTextContents()).join('\n');
        // Each category's number is drawn whole (never "男 …").
        for (const s of slices) expect(texts, `${key}: ${s.label}`).toContain(`${s.count}人`);
        expect(texts).not.toMatch(/\d…|…\s*$/m);
        // ... and inside the chart: no label runs off its edges.
        const outside = await chartOf(key).locator('svg').evaluate((svg) => {
          const frame = svg.getBoundingClientRect();
          return [...svg.querySelectorAll('text')].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() })).filter(({ box }) => box.width > 0 && (box.left < frame.left - 1 || box.right > frame.right + 1)).map((t) => t.text);
        });
        expect(outside, key).toEqual([]);
      }
      // The bars run largest first, top to bottom.
      const bars = await chartOf('org').locator('svg text').allTextContents();
      const numbers = bars.filter((t) => /^\d+人$/.test(t)).map((t) => Number(t.slice(0, -1)));
      expect(numbers.length).toBe(analysis.dimensions.find((d) => d.key === 'org')!.slices.length);
    } finally {
      await page.screenshot({ path: '.tmp/e2e-analysis-charts.png', fullPage: true });
      await page.context().close();
    }
  });

  it('[S1.F1b] the roster lists an organisation subtree and exports it as .xlsx', async () => {
    const page = await openAsAdmin(await menuPath('core:member-roster'));
    await page.getByText(/共 \d+ 人/).waitFor();
    // The demo's roster is over the e2e server's exportInlineMax (1,000): a job, then its file.
    await page.getByRole('button', { name: /导出花名册/ }).click();
    const job = page.locator('.job-progress[data-state="2"]');
    await job.waitFor({ timeout: 60_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), job.getByRole('button', { name: /下载/ }).click()]);
    expect(download.suggestedFilename()).toBe('党员花名册.xlsx');
    await page.context().close();
  });
});

describe('moving a member to another branch', () => {
  it('[S1.F1a] finds a member by name in the roster; after a change of branch the analysis counts change', async () => {
    type Member = { id: number; version: number; name: string; orgId: number; orgIdName: string };
    const list = (await api<{ content: Member[] }>('POST', '/api/m/member/list?size=200&fields=all', { partyStatus: '1' }, admin)).body.content;
    const counts = new Map<number, number>();
    for (const m of list) counts.set(m.orgId, (counts.get(m.orgId) ?? 0) + 1);
    const member = list.find((m) => list.filter((x) => x.name === m.name).length === 1)!;
    const target = list.find((m) => m.orgId !== member.orgId)!;

    const page = await openAsAdmin(await menuPath('core:member-roster'));
    await page.getByPlaceholder('按姓名查找').fill(member.name);
    await page.getByPlaceholder('按姓名查找').press('Enter');
    await page.getByText('共 1 人').waitFor();
    expect(await page.locator('.ant-table-tbody').innerText()).toContain(member.orgIdName);

    const orgCount = async (orgName: string) => {
      await page.goto(webUrl(await menuPath('core:member-analysis')));
      const card = page.locator('.analysis-card[data-dimension="org"]');
      await card.locator('.category-chart svg').waitFor();
      const button = card.locator('.analysis-slice').filter({ hasText: orgName });
      return (await button.count()) ? Number(/(\d+)人$/.exec((await button.first().innerText()).trim())![1]) : 0;
    };
    const before = await orgCount(member.orgIdName);
    const full = (await api<Member & Record<string, unknown>>('GET', `/api/m/member/${member.id}`, undefined, admin)).body;
    const moved = await api('PUT', '/api/m/member', { ...full, orgId: target.orgId }, admin);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(await orgCount(member.orgIdName)).toBe(before - 1);
    await page.context().close();
  });
});
