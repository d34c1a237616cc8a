/**
 * A branch election (两委换届选举) walked in Chromium from the request to the new term by the demo accounts
 * that own its steps: 支部书记 (zbsj) for the branch's steps, 二级党委组织员 (ejdw) for the level above;
 * each step through its dialog on the record's detail, the ballots entered and counted in the 投票计票 step,
 * and the new term read back from the organisation.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byStrokes } from '../../src/shared/strokes.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { api, apiToken } from '../support/admin-e2e.js';
import { launchBrowser, pickOption, webUrl } from '../support/browser.js';
import { signedIn } from './layout-helpers.js';

const TODAY = localToday();
const ROUTE = '/party-org/election/two-committee';

describe('[S1.F4c] a branch election in Chromium', () => {
  let browser: Browser;
  const pages: Record<string, Page> = {};
  const tokens: Record<string, string> = {};
  let id: number;
  let name: string;
  let orgId: number;
  let people: { id: number; name: string }[];

  beforeAll(async () => {
    browser = await launchBrowser();
    for (const user of ['zbsj', 'ejdw', 'dwzzb']) {
      tokens[user] = await apiToken(user, DEMO_USER_PASSWORD);
      pages[user] = await signedIn(browser, tokens[user]);
      pages[user].setDefaultTimeout(20_000);
    }
    orgId = (await api<{ orgId: number }>('GET', '/auth/info', undefined, tokens.zbsj)).body.orgId;
    const members = (await api<{ content: { id: number; name: string }[] }>('POST', '/api/m/member/list?size=100', { orgId, memberType: '1', partyStatus: '1' }, tokens.zbsj)).body.content;
    // Members in their 留党察看 period have no right to vote or stand (条例第五条): the branch leaves them off the roll.
    const disciplined = (await api<{ content: { id: number; probationEnd?: string }[] }>('POST', '/api/m/member-discipline/list?size=100', { orgId, kind: '4' }, tokens.dwzzb)).body.content;
    const onProbation = new Set<number>();
    for (const d of disciplined.filter((x) => !x.probationEnd || x.probationEnd >= TODAY)) {
      onProbation.add((await api<{ memberId: number }>('GET', `/api/m/member-discipline/${d.id}`, undefined, tokens.dwzzb)).body.memberId);
    }
    // Names unique in the branch, to pick the secretary by name.
    const counts = new Map<string, number>();
    for (const m of members) counts.set(m.name, (counts.get(m.name) ?? 0) + 1);
    // In the ballot's order (按姓氏笔画为序): candidate i is serial i + 1 on the ballot and in the count.
    people = byStrokes(members.filter((m) => counts.get(m.name) === 1 && !onProbation.has(m.id)), (m) => m.name);
    expect(people.length, 'five full members with unique names in the demo branch').toBeGreaterThanOrEqual(5);
    name = `换届选举${Date.now().toString(36).slice(-5)}`;
    // The roll and the candidate list as the branch prepared them (the dialogs show and keep them).
    const created = await api<{ id: number }>('POST', '/api/m/election', { name, orgId, voterIds: people.map((p) => p.id), candidateIds: people.slice(0, 4).map((p) => p.id) }, tokens.zbsj);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    id = created.body.id;
  });
  afterAll(() => browser?.close());

  const drawerOf = (page: Page) => page.locator('.rf-drawer');
  const versionOf = async () => (await api<{ version: number }>('GET', `/api/m/election/${id}`, undefined, tokens.zbsj)).body.version;
  const take = async (user: string, step: string, fill: (dialog: Locator, page: Page) => Promise<void> = async () => {}) => {
    const page = pages[user];
    await page.goto(webUrl(`${ROUTE}?id=${id}`));
    await drawerOf(page).getByText(name).first().waitFor();
    const before = await versionOf();
    await drawerOf(page).locator(`[data-step="${step}"]`).click();
    const dialog = page.locator('.wf-dialog');
    await dialog.waitFor();
    await fill(dialog, page);
    await dialog.locator('.wf-submit').click();
    await dialog.waitFor({ state: 'detached' }).catch(async (error) => {
      throw new Error(`${step}: the dialog stayed open: ${await dialog.innerText().catch(() => '')}`, { cause: error });
    });
    await expect.poll(versionOf, { timeout: 15_000 }).toBeGreaterThan(before);
  };
  const f = (dialog: Locator, field: string) => dialog.locator(`#root_${field}`);

  it('walks 请示 → 批复 → 方案 → 酝酿 → 候选人审批 → 大会 → 计票 → 书记 → 报告 → 上级批准, and the new term is on the organisation', async () => {
    const n = people.length;
    await take('zbsj', 'request');
    // The level above sees it waiting and approves.
    await take('ejdw', 'approveRequest');
    await take('zbsj', 'plan', async (dl) => {
      await f(dl, 'seats').fill('3');
    });
    await take('zbsj', 'nominate', async (dl, page) => pickOption(page, dl.locator('[data-field="nominationRound"] .ant-select'), '三下三上'));
    await take('zbsj', 'submitCandidates');
    await take('ejdw', 'approveCandidates');
    await take('zbsj', 'assembly', async (dl) => {
      await f(dl, 'present').fill(String(n));
    });
    // Every voter marks candidates 1, 2 and 3; one ballot marks all four (void).
    const ballots = [...Array.from({ length: n - 1 }, () => '1 2 3'), '1 2 3 4'].join('\n');
    await take('zbsj', 'count', async (dl) => {
      // [issue 40.1] The dialog says the round and whom each serial number names.
      const notes = dl.locator('.wf-notes');
      await notes.getByText('第1轮').waitFor();
      expect(await notes.innerText()).toContain(`1 ${people[0]!.name}；2 ${people[1]!.name}`);
      await f(dl, 'ballotsIssued').fill(String(n));
      await f(dl, 'ballots').fill(ballots);
    });
    // The count's result shows as a result, not as a warning.
    await pages.zbsj.locator('.wf-result').getByText(/应选名额已全部选出/).waitFor();
    expect(await pages.zbsj.getByText('以下情况已记入办理记录').count()).toBe(0);
    const counted = (await api<{ electedIds: number[]; ballotsVoid: number; voteSummary: string }>('GET', `/api/m/election/${id}`, undefined, tokens.zbsj)).body;
    expect(counted.electedIds).toEqual(people.slice(0, 3).map((p) => p.id));
    expect(counted.ballotsVoid).toBe(1);
    // The detail shows the count.
    const page = pages.zbsj;
    await page.goto(webUrl(`${ROUTE}?id=${id}`));
    await drawerOf(page).getByText(/无效1张/).first().waitFor();

    await take('zbsj', 'confirm');
    await take('zbsj', 'firstMeeting', async (dl, pg) => {
      await dl.locator('[data-field="secretaryId"] .ant-select').click();
      await pg.keyboard.type(people[0]!.name);
      await pg.locator('.ant-select-dropdown:visible').getByTitle(people[0]!.name, { exact: true }).click();
    });
    await take('zbsj', 'report');
    // The level above approves the result; the new term counts from its approval and only then is on the organisation.
    expect((await api<{ state: number }>('GET', `/api/m/election/${id}`, undefined, tokens.zbsj)).body.state).toBe(9);
    await take('ejdw', 'approveResult');
    const done = (await api<{ state: number; termStart: string; termEnd: string }>('GET', `/api/m/election/${id}`, undefined, tokens.zbsj)).body;
    expect(done.state).toBe(8);
    expect(done.termStart).toBe(TODAY);
    const org = (await api<{ termStart: string; termEnd: string; secretary: string }>('GET', `/api/m/org/${orgId}`, undefined, tokens.zbsj)).body;
    expect(org).toMatchObject({ termStart: TODAY, termEnd: done.termEnd, secretary: people[0]!.name });
    // The approval timeline of the detail holds every step.
    await page.goto(webUrl(`${ROUTE}?id=${id}`));
    await drawerOf(page).getByText('已完成').first().waitFor();
    if (process.env.ELECTION_SHOTS) await page.screenshot({ path: `${process.env.ELECTION_SHOTS}/detail.png`, fullPage: true });
    await drawerOf(page).getByRole('tab', { name: '办理记录' }).click();
    await drawerOf(page).locator('.wf-entry[data-transition="report"]').waitFor();
    // The count's entry holds the ballots as entered and the result.
    await drawerOf(page).locator('.wf-entry[data-transition="count"]').getByText(/无效1张/).first().waitFor();
    if (process.env.ELECTION_SHOTS) await page.screenshot({ path: `${process.env.ELECTION_SHOTS}/timeline.png`, fullPage: true });
    // The tally sheet prints the count: every candidate with the votes, the void ballot, who was elected.
    await page.goto(webUrl(`/elections/print/${id}?doc=tally`));
    const sheet = page.locator('.election-print[data-doc="tally"]');
    await sheet.getByText(`无效1张`, { exact: false }).waitFor();
    expect(await sheet.locator('tbody tr').count()).toBe(4);
    expect(await sheet.locator('tbody tr', { hasText: '当选' }).count()).toBe(3);
    if (process.env.ELECTION_SHOTS) await page.screenshot({ path: `${process.env.ELECTION_SHOTS}/tally.png`, fullPage: true });
    await page.locator('.election-print-actions').getByText('选举结果报告').click();
    await page.locator('.election-print[data-doc="report"]').getByText(`${people[0]!.name}`).first().waitFor();
  }, 300_000);

  it('[S1.F4a][S1.F4b] 党代会 lists the congress in preparation with its sessions; 党代表选举 lists the delegates by unit', async () => {
    const page = pages.dwzzb;
    await page.goto(webUrl('/party-org/election/congress'));
    const row = page.locator('tr.rt-row').filter({ hasText: '代表大会' }).first();
    await row.waitFor();
    await row.getByText('代表选举').first().waitFor(); // its state
    const congress = (await api<{ content: { id: number; name: string }[] }>('POST', '/api/m/congress/list', {}, tokens.dwzzb)).body.content[0]!;
    await page.goto(webUrl(`/party-org/election/congress?id=${congress.id}`));
    await drawerOf(page).getByRole('tab', { name: '会议议程' }).click();
    await drawerOf(page).getByText('选举大会：选举新一届党委委员、纪委委员').waitFor();
    await page.goto(webUrl('/party-org/election/delegate'));
    await page.locator('tr.rt-row').filter({ hasText: '当选代表' }).first().waitFor();
    await page.locator('tr.rt-row').filter({ hasText: '候选人' }).first().waitFor();
  });
});
