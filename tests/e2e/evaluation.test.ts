/**
 * Issue 27 (members' daily management) in Chromium, desktop: a branch secretary (zbsj) runs an appraisal
 * round (评议管理) to its results — adds it, starts it (a result row per member), records the count, meets
 * the 优秀 cap refused before grading within it — and the committee (ejdw) approves it; then 谈心谈话 shows
 * the year's coverage and a talk added through the form takes a member off the list of those nobody talked to.
 */
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { excellentCap } from '../../src/shared/evaluation/rules.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { api, apiLogin } from '../support/api.js';
import { pickOption, webUrl } from '../support/browser.js';
import { admin, browser, useCoreSession } from './core-helpers.js';
import { signedIn, visibleView } from './layout-helpers.js';

const APPRAISAL = '/service/evaluation/appraisal';
const TALK = '/party-member/daily/talk';
const year = new Date().getFullYear();
interface Row {
  id: number;
  version: number;
  [field: string]: unknown;
}

describe('[issue 27] members\' daily management in Chromium', () => {
  useCoreSession();
  const tokens: Record<'zbsj' | 'ejdw', string> = { zbsj: '', ejdw: '' };
  const pages: Partial<Record<'zbsj' | 'ejdw', Page>> = {};
  let branch: number;

  beforeAll(async () => {
    for (const u of ['zbsj', 'ejdw'] as const) tokens[u] = await apiLogin(u, DEMO_USER_PASSWORD);
    branch = (await api<{ orgId: number }>('GET', '/auth/info', undefined, tokens.zbsj)).body.orgId;
  });
  afterAll(async () => {
    for (const p of Object.values(pages)) await p?.context().close();
  });

  const visit = async (who: 'zbsj' | 'ejdw', route: string) => {
    if (!pages[who]) {
      pages[who] = await signedIn(browser, tokens[who], route);
      pages[who]!.setDefaultTimeout(20_000);
    } else await pages[who]!.goto(webUrl(route));
    return pages[who]!;
  };
  const typeDate = async (input: Locator, date: string) => {
    await input.click();
    await input.fill(date);
    await input.press('Enter');
  };
  const record = async (id: number) => (await api<Row>('GET', `/api/m/appraisal/${id}`, undefined, admin)).body;
  const results = async (id: number) => (await api<{ content: Row[] }>('POST', '/api/m/appraisal-result/list?size=1000', { appraisalId: id }, admin)).body.content;
  const putResult = async (r: Row, values: Record<string, unknown>) => {
    const res = await api('PUT', '/api/m/appraisal-result', { id: r.id, version: r.version, ...values }, tokens.zbsj);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** Opens the round's detail afresh and takes a step through its dialog. */
  const step = async (who: 'zbsj' | 'ejdw', id: number, name: string, fill: (dialog: Locator, page: Page) => Promise<void> = async () => {}) => {
    const page = await visit(who, `${APPRAISAL}?id=${id}`);
    const drawer = page.locator('.rf-drawer:visible');
    await drawer.locator(`[data-step="${name}"]`).click();
    const dialog = page.locator('.wf-dialog');
    await dialog.waitFor();
    await fill(dialog, page);
    const before = (await record(id)).version;
    await dialog.locator('.wf-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await record(id)).version, { timeout: 15_000 }).toBeGreaterThan(before);
    return { page, drawer };
  };

  it('[S1.F14c] an appraisal round is run to its results: start, count, grades within the 优秀 cap, approval by the level above', async () => {
    const page = await visit('zbsj', APPRAISAL);
    const view = await visibleView(page, APPRAISAL);
    await view.getByRole('button', { name: /新\s*增/ }).click();
    const form = page.locator('.rf-dialog').filter({ has: page.locator('.ant-modal-title', { hasText: '新增评议管理' }) });
    await form.waitFor();
    const title = `${year}年度民主评议党员（浏览器）`;
    const branchName = (await api<{ name: string }>('GET', `/api/m/org/${branch}`, undefined, tokens.zbsj)).body.name;
    await pickOption(page, form.locator('[data-field="orgId"] .ant-select'), branchName, branchName.slice(0, 6));
    await form.locator('#root_year').fill(String(year));
    await form.locator('#root_title').fill(title);
    await typeDate(form.locator('[data-field="meetingDate"] input'), `${year}-01-15`);
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await page.locator('.ant-message').getByText('新增成功').waitFor();
    const id = (await api<{ content: Row[] }>('POST', '/api/m/appraisal/list?size=1', { year }, tokens.zbsj)).body.content[0].id;
    expect((await record(id)).orgId).toBe(branch);

    await step('zbsj', id, 'start');
    const list = await results(id);
    expect(list.length).toBeGreaterThan(2);
    // The paper ballots counted: every member's votes per grade (entered in 评议结果 of the round).
    const n = list.length;
    const cap = excellentCap(n, 30);
    for (const [i, r] of list.entries()) await putResult(r, { selfGrade: '2', votesExcellent: i <= cap ? n - 1 : 1, votesQualified: i <= cap ? 1 : n - 1 });
    await step('zbsj', id, 'count', async (dialog) => {
      await dialog.locator('#root_ballotsIssued').fill(String(n));
      await dialog.locator('#root_ballotsReturned').fill(String(n));
      await dialog.locator('#root_ballotsVoid').fill('0');
    });
    expect(await record(id)).toMatchObject({ state: 1, ballotsIssued: n, ballotsReturned: n, ballotsVoid: 0 });

    // The branch grades one member more than the cap allows: the step says so before anyone submits it.
    for (const [i, r] of (await results(id)).entries()) await putResult(r, { grade: i <= cap ? '1' : '2' });
    {
      const p = await visit('zbsj', `${APPRAISAL}?id=${id}`);
      await p.locator('.rf-drawer:visible').locator('[data-step="grade"]').click();
      const blocked = p.locator('.wf-dialog .wf-blocked');
      await blocked.getByText(`最多${cap}名`, { exact: false }).waitFor();
      expect(await p.locator('.wf-dialog .wf-submit').isDisabled()).toBe(true);
      await p.locator('.wf-dialog').getByRole('button', { name: /取\s*消/ }).click();
    }
    // [43.12] The branch corrects it in the grid of 评议结果: members × votes and grades with their totals, a
    // row over the valid ballots in red and refused on save, the corrected grid saved at once.
    const over = (await results(id))[cap];
    const first = (await results(id))[0];
    {
      const p = await visit('zbsj', `${APPRAISAL}?id=${id}`);
      const drawer = p.locator('.rf-drawer:visible');
      await drawer.getByRole('tab', { name: '评议结果' }).click();
      const grid = drawer.locator('.rf-grid');
      await grid.locator('.rf-grid-totals').getByText(new RegExp(`优秀 ${cap + 1}( |$)`)).waitFor();
      await grid.getByText(`每行的得票合计不超过有效票${n}`).waitFor();
      const overRow = grid.locator(`tr[data-row-key="${over.id}"]`);
      await pickOption(p, overRow.locator('[data-cell="grade"] .ant-select'), '合格');
      const votes = grid.locator(`tr[data-row-key="${first.id}"] [data-cell="votesQualified"] input`);
      await votes.fill(String(n + 1));
      await grid.getByText(`1行的得票合计超过有效票${n}，请核对`).waitFor();
      await grid.locator(`tr[data-row-key="${first.id}"] [data-over="true"]`).waitFor();
      await grid.getByRole('button', { name: /保\s*存/ }).click();
      await grid.locator('.rf-grid-refusal').getByText('多于有效票', { exact: false }).waitFor();
      expect((await results(id))[cap].grade).toBe('1'); // nothing written
      await votes.fill(String(first.votesQualified));
      await grid.getByText('已修改1行').waitFor();
      await grid.getByRole('button', { name: /保\s*存/ }).click();
      await p.locator('.ant-message').getByText('已保存1条').waitFor();
      await grid.locator('.rf-grid-totals').getByText(new RegExp(`优秀 ${cap}( |$)`)).waitFor();
    }
    expect((await results(id))[cap].grade).toBe('2');
    await step('zbsj', id, 'grade', async (dialog) => typeDate(dialog.locator('[data-field="gradeDate"] input'), `${year}-01-20`));

    // The committee above approves; the round and its results are final.
    const { drawer } = await step('ejdw', id, 'approve', async (dialog) => typeDate(dialog.locator('[data-field="approveDate"] input'), `${year}-01-25`));
    await drawer.locator('.wf-state').getByText('已审核').first().waitFor();
    // The step's result names the cap it was judged under; the user acknowledges it.
    const note = drawer.page().locator('.ant-modal-container', { hasText: '上级党组织审核已办理' });
    await note.getByText(`最多${cap}名`, { exact: false }).waitFor();
    await note.getByRole('button', { name: '知道了' }).click();
    await note.waitFor({ state: 'detached' });
    await drawer.getByRole('tab', { name: '评议结果' }).click();
    await drawer.locator('.rf-child tr', { hasText: '优秀' }).first().waitFor();
    expect((await results(id)).filter((r) => r.grade === '1')).toHaveLength(cap);
    // The branch that entered them sees the approved grid closed: no cells to type in, and why.
    {
      const p = await visit('zbsj', `${APPRAISAL}?id=${id}`);
      const closedDrawer = p.locator('.rf-drawer:visible');
      await closedDrawer.getByRole('tab', { name: '评议结果' }).click();
      await closedDrawer.locator('.rf-grid-closed').getByText('已办结（已审核），不能修改').waitFor();
      await closedDrawer.locator('.rf-grid-totals').waitFor();
      expect(await closedDrawer.locator('.rf-grid input').count()).toBe(0);
      expect(await closedDrawer.locator('.rf-grid').getByRole('button', { name: /保\s*存/ }).count()).toBe(0);
    }
  });

  it('[S1.F14d] 谈心谈话 shows the branch\'s coverage, and a talk added through the form covers a member', async () => {
    const page = await visit('zbsj', TALK);
    const view = await visibleView(page, TALK);
    const coverage = (await api<{ branches: { orgId: number; uncovered: { id: number; name: string }[] }[] }>('GET', `/api/evaluation/talks/coverage?year=${year}`, undefined, tokens.zbsj)).body;
    const mine = coverage.branches.find((b) => b.orgId === branch)!;
    const members = (await api<{ content: { id: number; name: string }[] }>('POST', '/api/m/member/list?size=500', { orgId: branch, partyStatus: '1' }, tokens.zbsj)).body.content;
    const unique = (name: string) => members.filter((m) => m.name === name).length === 1;
    const target = mine.uncovered.find((m) => unique(m.name))!;
    const org = (await api<{ secretary: string }>('GET', `/api/m/org/${branch}`, undefined, tokens.zbsj)).body;
    expect(target).toBeTruthy();
    const row = view.locator('.evaluation-coverage tr', { hasText: target.name });
    await row.waitFor();

    await view.getByRole('button', { name: /新\s*增/ }).click();
    const form = page.locator('.rf-dialog').filter({ has: page.locator('.ant-modal-title', { hasText: '新增谈心谈话' }) });
    await form.waitFor();
    await pickOption(page, form.locator('[data-field="talkerId"] .ant-select'), org.secretary, org.secretary);
    await pickOption(page, form.locator('[data-field="memberId"] .ant-select'), target.name, target.name);
    await typeDate(form.locator('[data-field="date"] input'), `${year}-12-31`);
    await form.locator('#root_topic').fill('年终谈心谈话');
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await page.locator('.ant-message').getByText('新增成功').waitFor();
    await expect.poll(async () => await view.locator('.evaluation-coverage .talk-uncovered', { hasText: target.name }).count(), { timeout: 15_000 }).toBe(0);
  });
});
