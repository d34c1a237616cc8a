/**
 * Cadres in Chromium (issue 26, part 2): an appointment walked 动议 → 任职 by 党委组织部 (dwzzb), who owns
 * its steps, through the step dialogs of 选拔任用, while a college's 组织员 (ejdw) has no step to take; the
 * team structure analysis with a slice's drill-down and the 干部考核 page with its caps.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/calendar.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { api, apiToken } from '../support/admin-e2e.js';
import { launchBrowser, pickOption, webUrl } from '../support/browser.js';
import { signedIn } from './layout-helpers.js';

const TODAY = localToday();
const stamp = Date.now().toString(36).slice(-4);
const mondayOf = (d: string) => addDays(d, -((new Date(`${d}T00:00:00Z`).getUTCDay() + 6) % 7));

describe('[S1.F14g][S1.F3d][S1.F3b] cadre selection, analysis and assessment in Chromium', () => {
  let browser: Browser;
  let dwzzb: Page;
  let token: string;
  let id: number;
  let name: string;
  let monday: string;

  beforeAll(async () => {
    browser = await launchBrowser();
    token = await apiToken('dwzzb', DEMO_USER_PASSWORD);
    dwzzb = await signedIn(browser, token);
    dwzzb.setDefaultTimeout(20_000);
    const unit = await api<{ id: number }>('POST', '/api/m/unit', { name: `选任测试学院${stamp}`, type: '1', code: `E2E${stamp}` }, token);
    expect(unit.status, JSON.stringify(unit.body)).toBe(201);
    name = `选任${stamp}`;
    const cadre = await api<{ id: number }>('POST', '/api/m/cadre', { name, gender: '1', birthDate: '1980-04-05', unitId: unit.body.id, category: '3', rank: '06', workStartDate: '2003-07-01', grassrootsYears: 3, education: '21' }, token);
    expect(cadre.status, JSON.stringify(cadre.body)).toBe(201);
    // 副处 for four years: qualified for 正处 (《条例》第八条).
    const post = await api('POST', '/api/m/cadre-post', { cadreId: cadre.body.id, kind: '职务', unitId: unit.body.id, post: '11', rank: '06', fullTime: true, startDate: addMonths(TODAY, -48) }, token);
    expect(post.status, JSON.stringify(post.body)).toBe(201);
    const created = await api<{ id: number }>('POST', '/api/m/appointment', { cadreId: cadre.body.id, unitId: unit.body.id, post: '10', rank: '05', kind: '提拔任职' }, token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    id = created.body.id;
    // A week about four months ago with no holiday or make-up day around it.
    const admin = await apiToken('admin', DEMO_ADMIN_PASSWORD);
    const periods = (await api<{ content: { startDate: string; endDate: string }[] }>('POST', '/api/m/holiday-calendar/list?size=200', {}, admin)).body.content;
    monday = mondayOf(addMonths(TODAY, -4));
    while (periods.some((p) => p.startDate <= addDays(monday, 20) && p.endDate >= addDays(monday, -21))) monday = addDays(monday, -7);
  });
  afterAll(() => browser?.close());

  const drawer = (page: Page) => page.locator('.rf-drawer');
  const f = (dialog: Locator, field: string) => dialog.locator(`#root_${field}`);
  const typeDate = async (input: Locator, date: string) => {
    await input.click();
    await input.fill(date);
    await input.press('Enter');
  };
  const versionOf = async () => (await api<{ version: number; state: number }>('GET', `/api/m/appointment/${id}`, undefined, token)).body;
  const take = async (step: string, fill: (dialog: Locator) => Promise<void>) => {
    await dwzzb.goto(webUrl(`/cadre/selection?id=${id}`));
    await drawer(dwzzb).getByText(name).first().waitFor();
    const before = (await versionOf()).version;
    await drawer(dwzzb).locator(`[data-step="${step}"]`).click();
    const dialog = dwzzb.locator('.wf-dialog');
    await dialog.waitFor();
    await fill(dialog);
    await dialog.locator('.wf-submit').click();
    await dialog.waitFor({ state: 'detached' }).catch(async (error) => {
      throw new Error(`${step}: the dialog stayed open: ${await dialog.innerText().catch(() => '')}`, { cause: error });
    });
    await expect.poll(async () => (await versionOf()).version, { timeout: 15_000 }).toBeGreaterThan(before);
  };

  it('[39.1] walks 动议 → 任职 by 党委组织部 through the step dialogs: 讨论决定 refused before the 四查, then the publicity after it (four working days refused)', async () => {
    await take('propose', async (dl) => {
      await typeDate(f(dl, 'proposeDate'), addDays(monday, -21));
      await f(dl, 'proposeReason').fill('学院院长岗位空缺，拟从副院长中选拔');
    });
    await take('recommend', async (dl) => {
      await typeDate(f(dl, 'recommendDate'), addDays(monday, -14));
      await pickOption(dwzzb, dl.locator('[data-field="recommendMethod"] .ant-select'), '会议推荐');
      await f(dl, 'recommendParticipants').fill('45');
      await f(dl, 'recommendVotes').fill('38');
    });
    await take('inspect', async (dl) => {
      await typeDate(f(dl, 'inspectDate'), addDays(monday, -7));
      await f(dl, 'inspectOpinion').fill('政治素质好，工作实绩突出，群众公认');
    });
    // 讨论决定 before the 凡提四查: the dialog names the missing check and stays.
    await dwzzb.goto(webUrl(`/cadre/selection?id=${id}`));
    await drawer(dwzzb).locator('[data-step="decide"]').click();
    const decide = dwzzb.locator('.wf-dialog');
    await typeDate(f(decide, 'decisionDate'), addDays(monday, -3));
    await f(decide, 'decisionMeeting').fill('党委常委会第8次会议');
    await f(decide, 'decisionDocNo').fill(`校党干〔2026〕${stamp}号`);
    await decide.locator('.wf-submit').click();
    await decide.locator('.wf-refused').getByText(/尚未记录“干部人事档案”的核查/).first().waitFor();
    // The four checks recorded by their step (who, when, conclusion), then the decision passes.
    const checks: Record<string, unknown> = {};
    for (const p of ['checkArchive', 'checkReport', 'checkDiscipline', 'checkPetition']) Object.assign(checks, { [`${p}By`]: '组织部干部科', [`${p}Date`]: addDays(monday, -5), [`${p}Result`]: '未发现影响提拔的问题' });
    expect((await api('POST', `/api/m/appointment/${id}/transitions/fourChecks`, { version: (await versionOf()).version, comment: '', values: checks }, token)).status).toBe(200);
    await take('decide', async (dl) => {
      await typeDate(f(dl, 'decisionDate'), addDays(monday, -3));
      await f(dl, 'decisionMeeting').fill('党委常委会第8次会议');
      await f(dl, 'decisionDocNo').fill(`校党干〔2026〕${stamp}号`);
    });
    // 任前公示 after the decision: four working days are refused in the dialog, five pass.
    await dwzzb.goto(webUrl(`/cadre/selection?id=${id}`));
    await drawer(dwzzb).locator('[data-step="publicize"]').click();
    const dialog = dwzzb.locator('.wf-dialog');
    await typeDate(f(dialog, 'publicityStart'), monday);
    await typeDate(f(dialog, 'publicityEnd'), addDays(monday, 3));
    await dialog.locator('.wf-submit').click();
    await dialog.locator('.wf-refused').getByText(/共4个工作日，不足5个工作日/).waitFor();
    await typeDate(f(dialog, 'publicityEnd'), addDays(monday, 4));
    await dialog.locator('.wf-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await take('appoint', async (dl) => typeDate(f(dl, 'appointDate'), addDays(monday, 10)));
    expect(await versionOf()).toMatchObject({ state: 5 });
    const a = (await api<{ postId: number; probationEnd: string }>('GET', `/api/m/appointment/${id}`, undefined, token)).body;
    expect(a.probationEnd).toBe(addMonths(addDays(monday, 10), 12));
    const post = (await api<{ startDate: string; rank: string }>('GET', `/api/m/cadre-post/${a.postId}`, undefined, token)).body;
    expect(post).toMatchObject({ startDate: addDays(monday, 10), rank: '05' });
    // [39.1] The 任职 wrote its line in the dispatch of the decision's number: the 任免通知 prints it.
    const docNo = `校党干〔2026〕${stamp}号`;
    const dispatch = (await api<{ content: { id: number; docNo: string }[] }>('POST', '/api/m/cadre-dispatch/list?size=5', { docNo }, token)).body.content.find((d) => d.docNo === docNo)!;
    await dwzzb.goto(webUrl(`/cadre/dispatch/print/${dispatch.id}`));
    const sheet = dwzzb.getByTestId('dispatch-print');
    await sheet.getByText(`任命${name}同志为`).waitFor();
    await expect.poll(() => sheet.innerText()).toContain(docNo);
    // The timeline of the detail shows the steps taken.
    await dwzzb.goto(webUrl(`/cadre/selection?id=${id}`));
    await drawer(dwzzb).getByRole('tab', { name: '办理记录' }).click();
    await drawer(dwzzb).locator('.wf-entry[data-transition="appoint"]').waitFor();
    await dwzzb.screenshot({ path: '/tmp/c-shot-selection.png' });
    for (const step of ['propose', 'recommend', 'inspect', 'decide', 'publicize']) expect(await drawer(dwzzb).locator(`.wf-entry[data-transition="${step}"]`).count()).toBe(1);
  });

  it('a college 组织员 has no step of the procedure', async () => {
    const ejdwToken = await apiToken('ejdw', DEMO_USER_PASSWORD);
    const open = (await api<unknown[]>('GET', `/api/m/appointment/${id}/transitions`, undefined, ejdwToken));
    expect([403, 404]).toContain(open.status);
  });

  it('干部队伍结构分析: charts by dimension, a slice lists its cadres; 干部考核 shows the year and each unit against its cap', async () => {
    await dwzzb.goto(webUrl('/cadre/analysis/structure'));
    const rank = dwzzb.locator('.analysis-card[data-dimension="rank"]');
    await rank.locator('.analysis-slice').first().waitFor();
    const slice = rank.locator('.analysis-slice').first();
    const label = (await slice.innerText()).trim();
    const count = Number(/(\d+)人$/.exec(label)![1]);
    await slice.click();
    const list = dwzzb.locator('.cadre-slice-list');
    await list.getByText(`共 ${count} 人`).waitFor();
    await dwzzb.screenshot({ path: '/tmp/c-shot-structure.png' });
    await dwzzb.goto(webUrl('/cadre/analysis/performance'));
    await dwzzb.locator('.analysis-card[data-dimension="unit"] .ant-table-row').first().waitFor();
    await dwzzb.screenshot({ path: '/tmp/c-shot-performance.png' });
    await dwzzb.goto(webUrl('/cadre/assess'));
    await dwzzb.locator('.ant-table-row').first().waitFor();
    await dwzzb.getByText(/优秀等次限额：参加考核人数的20%/).waitFor();
    await dwzzb.screenshot({ path: '/tmp/c-shot-assess.png' });
  });
});
