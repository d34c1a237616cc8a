/**
 * The development of one new member walked through its 25 steps in Chromium by the demo accounts that
 * own them: 支部书记 (zbsj), 二级党委 (ejdw) and 组织部 (dwzzb); each step taken in the record's
 * detail through its dialog. To-dos reach the next actor and lead to the record; the printed record
 * (发展纪实) shows the steps; 待我审批 and batch approval on the list.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/development/rules.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { idCardCheckChar } from '../../src/shared/validators.js';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { api, apiToken } from '../support/admin-e2e.js';
import { launchBrowser, pickOption, webUrl } from '../support/browser.js';
import { signedIn } from './layout-helpers.js';

const TODAY = localToday();
const stamp = Date.now().toString(36).slice(-4);

function idCard(birth: string, n: number): string {
  const first17 = `430102${birth.replace(/-/g, '')}${String(n % 1000).padStart(3, '0')}`;
  return first17 + idCardCheckChar(first17);
}

/** A history ending a few weeks ago: applied three and a half years ago. */
const apply = addMonths(TODAY, -42);
const d = {
  apply,
  talk: addDays(apply, 20),
  activist: addMonths(apply, 3),
  activistFiled: addDays(addMonths(apply, 3), 10),
  assess: addMonths(apply, 9),
  target: addMonths(apply, 16),
  targetFiled: addDays(addMonths(apply, 16), 7),
  review: addMonths(apply, 17),
  train: addMonths(apply, 18),
  branchReview: addDays(addMonths(apply, 18), 5),
  preReview: addDays(addMonths(apply, 18), 8),
  publicityStart: addDays(addMonths(apply, 18), 9),
  publicityEnd: addDays(addMonths(apply, 18), 22),
  book: addDays(addMonths(apply, 18), 24),
  meeting: addMonths(apply, 19),
  committeeTalk: addDays(addMonths(apply, 19), 10),
  approve: addMonths(apply, 20),
  orgFiled: addDays(addMonths(apply, 20), 10),
  oath: addDays(addMonths(apply, 20), 15),
  probationAssess: addMonths(apply, 25),
  fullApply: addDays(addMonths(apply, 31), -15),
  full: addMonths(apply, 31),
  fullMeeting: addDays(addMonths(apply, 31), 3),
  archive: addDays(addMonths(apply, 31), 20),
};

describe('[S1.F5a][S1.F5b] the development of a new member in Chromium', () => {
  let browser: Browser;
  const pages: Record<string, Page> = {};
  const tokens: Record<string, string> = {};
  let id: number;
  let name: string;
  let introducers: string[];

  beforeAll(async () => {
    browser = await launchBrowser();
    for (const user of ['zbsj', 'ejdw', 'dwzzb']) {
      tokens[user] = await apiToken(user, DEMO_USER_PASSWORD);
      pages[user] = await signedIn(browser, tokens[user]);
      pages[user].setDefaultTimeout(20_000);
    }
    const me = (await api<{ orgId: number }>('GET', '/auth/info', undefined, tokens.zbsj)).body;
    name = `纪实${stamp}`;
    const created = await api<{ id: number }>('POST', '/api/m/development', { name, idCard: idCard(addMonths(TODAY, -300), Date.now() % 997), category: '4', orgId: me.orgId }, tokens.zbsj);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    id = created.body.id;
    const members = await api<{ content: { name: string }[] }>('POST', '/api/m/member/list?size=50', { orgId: me.orgId, memberType: '1', partyStatus: '1' }, tokens.zbsj);
    // Two full members with names unique in the branch, to pick in the dialogs.
    const counts = new Map<string, number>();
    for (const m of members.body.content) counts.set(m.name, (counts.get(m.name) ?? 0) + 1);
    introducers = [...counts].filter(([, n]) => n === 1).map(([n]) => n).slice(0, 2);
    expect(introducers).toHaveLength(2);
    // The 志愿书 number range of the year of the book (the demo has the years of its own data).
    await api('POST', '/api/m/development-book-range', { year: Number(d.book.slice(0, 4)), prefix: `E${stamp}`, startNo: 1, endNo: 99, width: 3 }, tokens.dwzzb);
  });
  afterAll(() => browser?.close());

  const drawerOf = (page: Page) => page.locator('.rf-drawer');
  const typeDate = async (input: Locator, date: string) => {
    await input.click();
    await input.fill(date);
    await input.press('Enter');
  };
  const pickPeople = async (page: Page, field: Locator, names: string[]) => {
    for (const person of names) {
      await field.locator('.ant-select').click();
      await page.keyboard.type(person);
      await page.locator('.ant-select-dropdown:visible').getByTitle(person, { exact: true }).click();
    }
    await page.keyboard.press('Escape');
  };

  /** Opens the record's detail from a to-do style link (`?id=`). */
  const open = async (user: string) => {
    const page = pages[user];
    await page.goto(webUrl(`/development/process?id=${id}`));
    await drawerOf(page).getByText(`发展党员详情 · ${name}`).waitFor();
    return page;
  };

  /** Takes a step through its dialog; `fill` enters its fields. */
  const versionOf = async () => (await api<{ version: number }>('GET', `/api/m/development/${id}`, undefined, tokens.dwzzb)).body.version;
  const take = async (user: string, step: string, fill: (dialog: Locator, page: Page) => Promise<void> = async () => {}, comment?: string) => {
    const page = await open(user);
    const before = await versionOf();
    const button = drawerOf(page).locator(`[data-step="${step}"]`);
    await button.click();
    const dialog = page.locator('.wf-dialog');
    await dialog.waitFor();
    await fill(dialog, page);
    if (comment) await dialog.locator('#wf-comment').fill(comment);
    await dialog.locator('.wf-submit').click();
    // A refusal stays in the dialog: its words make the failure readable.
    await dialog.waitFor({ state: 'detached' }).catch(async (error) => {
      throw new Error(`${step}: the dialog stayed open: ${await dialog.innerText().catch(() => '')}`, { cause: error });
    });
    // The step is taken: the record moved on.
    await expect.poll(versionOf, { timeout: 15_000 }).toBeGreaterThan(before);
  };
  /**
   * A step whose dialog is of a kind the walk has already taken in the browser (a date, a text, numbers),
   * through the API the dialog posts to: the walk still takes all 25 by their levels, in less time.
   */
  const takeByApi = async (user: string, step: string, values: Record<string, unknown>) => {
    const res = await api('POST', `/api/m/development/${id}/transitions/${step}`, { version: await versionOf(), values }, tokens[user]);
    expect(res.status, `${step}: ${JSON.stringify(res.body)}`).toBe(200);
  };
  const stateOf = async () => (await api<{ state: number; step: string }>('GET', `/api/m/development/${id}`, undefined, tokens.dwzzb)).body;

  it('walks the 25 steps by the levels that own them (each kind of step dialog in the browser); to-dos reach the next actor and lead to the record', async () => {
    const f = (dialog: Locator, field: string) => dialog.locator(`#root_${field}`);
    // 一、申请入党
    await take('zbsj', 'apply', async (dl) => typeDate(f(dl, 'applyDate'), d.apply));
    await take('zbsj', 'talk', async (dl) => {
      await typeDate(f(dl, 'talkDate'), d.talk);
      await f(dl, 'talker').fill('支部书记');
    });
    // 二、入党积极分子的确定和教育培养
    await take('zbsj', 'activist', async (dl, page) => {
      await typeDate(f(dl, 'activistDate'), d.activist);
      await pickOption(page, dl.locator('[data-field="recommendMethod"] .ant-select'), '党员推荐');
    });
    // The committee finds its to-do and follows it to the record.
    const ejdw = pages.ejdw;
    await ejdw.goto(webUrl('/message/msginfo?tab=todo'));
    const todo = ejdw.locator('.msginfo-title', { hasText: `入党积极分子备案：${name}` });
    await todo.first().waitFor();
    await todo.first().click();
    await drawerOf(ejdw).getByText(`发展党员详情 · ${name}`).waitFor();
    expect(new URL(ejdw.url()).pathname + new URL(ejdw.url()).search).toBe(`/web/development/process?id=${id}`);
    await take('ejdw', 'activistFile', async (dl) => typeDate(f(dl, 'activistFiledDate'), d.activistFiled));
    await take('zbsj', 'contacts', async (dl, page) => pickPeople(page, dl.locator('[data-field="contactIds"]'), [introducers[0]]));
    await take('zbsj', 'assess', async (dl, page) => {
      await typeDate(f(dl, 'lastAssessDate'), d.assess);
      await pickOption(page, dl.locator('[data-field="assessResult"] .ant-select'), '合格');
    });
    // 三、发展对象的确定和考察 (确定发展对象 and its two introducers together)
    await take('zbsj', 'target', async (dl, page) => {
      await typeDate(f(dl, 'targetDate'), d.target);
      await pickPeople(page, dl.locator('[data-field="introducerIds"]'), introducers);
    });
    await takeByApi('ejdw', 'targetFile', { targetFiledDate: d.targetFiled });
    await takeByApi('zbsj', 'review', { reviewDate: d.review, reviewResult: '合格' });
    await take('zbsj', 'train', async (dl) => {
      await f(dl, 'trainingDays').fill('3');
      await typeDate(f(dl, 'trainingEndDate'), d.train);
    });
    // 四、预备党员的接收
    await takeByApi('zbsj', 'branchReview', { branchReviewDate: d.branchReview });
    await take('ejdw', 'preReview', async (dl) => {
      await typeDate(f(dl, 'preReviewDate'), d.preReview);
      await typeDate(f(dl, 'publicityStart'), d.publicityStart);
      await typeDate(f(dl, 'publicityEnd'), d.publicityEnd);
    });
    await takeByApi('zbsj', 'book', { bookDate: d.book });
    // A vote of half refused with the rule's words in the dialog, one more accepted.
    const zbsj = await open('zbsj');
    await drawerOf(zbsj).locator('[data-step="admit"]').click();
    const admit = zbsj.locator('.wf-dialog');
    await typeDate(f(admit, 'meetingDate'), d.meeting);
    for (const [field, value] of [['entitled', '10'], ['present', '8'], ['votesFor', '5'], ['votesAgainst', '3'], ['abstentions', '0']]) await f(admit, field).fill(value);
    await admit.locator('.wf-submit').click();
    await admit.locator('.wf-refused').getByText(/赞成5票，未超过应到会有表决权的10人的半数/).waitFor();
    await f(admit, 'votesFor').fill('6');
    await f(admit, 'votesAgainst').fill('2');
    await admit.locator('.wf-submit').click();
    await admit.waitFor({ state: 'detached' });
    await takeByApi('ejdw', 'committeeTalk', { committeeTalkDate: d.committeeTalk, committeeTalker: '院党委组织员' });
    await takeByApi('ejdw', 'approve', { approveDate: d.approve });
    await take('dwzzb', 'orgFile', async (dl) => typeDate(f(dl, 'orgFiledDate'), d.orgFiled));
    // 五、预备党员的教育考察和转正
    await take('zbsj', 'assign', async (dl) => f(dl, 'partyGroup').fill('第一党小组'));
    await takeByApi('zbsj', 'oath', { oathDate: d.oath });
    await takeByApi('zbsj', 'assess', { lastAssessDate: d.probationAssess, assessResult: '优秀' });
    await takeByApi('zbsj', 'applyFull', { fullApplyDate: d.fullApply });
    await take('zbsj', 'fullMeeting', async (dl) => {
      await typeDate(f(dl, 'fullMeetingDate'), d.fullMeeting);
      for (const [field, value] of [['fullEntitled', '10'], ['fullPresent', '9'], ['fullVotesFor', '9'], ['fullVotesAgainst', '0'], ['fullAbstentions', '0']]) await f(dl, field).fill(value);
    });
    await takeByApi('ejdw', 'full', { fullDate: d.full });
    await take('dwzzb', 'archive', async (dl) => {
      await typeDate(f(dl, 'archiveDate'), d.archive);
      await f(dl, 'archiveNo').fill(`DA${stamp}`);
    });

    expect(await stateOf()).toMatchObject({ state: 10, step: '25' });
    const log = (await api<{ transition: string; level: string }[]>('GET', `/api/m/development/${id}/approvals`, undefined, tokens.dwzzb)).body;
    expect(log.map((e) => e.transition)).toEqual(['apply', 'talk', 'activist', 'activistFile', 'contacts', 'assess', 'target', 'targetFile', 'review', 'train', 'branchReview',
      'preReview', 'book', 'admit', 'committeeTalk', 'approve', 'orgFile', 'assign', 'oath', 'assess', 'applyFull', 'fullMeeting', 'full', 'archive']);
    expect(new Set(log.map((e) => e.level))).toEqual(new Set(['branch', 'committee', 'orgdept']));

    // The timeline in the detail, and the member record made full.
    const page = await open('dwzzb');
    await drawerOf(page).getByRole('tab', { name: '办理记录' }).click();
    await expect.poll(() => drawerOf(page).locator('.wf-entry').count()).toBe(24);
    await drawerOf(page).locator('.wf-entry[data-transition="admit"]').getByText('赞成票').waitFor();
    const record = (await api<{ memberId: number }>('GET', `/api/m/development/${id}`, undefined, tokens.dwzzb)).body;
    const admin = await apiToken('admin', DEMO_ADMIN_PASSWORD);
    expect((await api<{ memberType: string; fullDate: string }>('GET', `/api/m/member/${record.memberId}`, undefined, admin)).body).toMatchObject({ memberType: '1', fullDate: d.full });
  }, 600_000);

  it('发展纪实 shows the whole record on one printable page', async () => {
    const page = pages.zbsj;
    await page.goto(webUrl(`/development/record?id=${id}`));
    const sheet = page.locator('.dev-sheet');
    await sheet.getByText('发展党员纪实表').waitFor();
    await expect(sheet.locator('.dev-basic').innerText()).resolves.toContain(name);
    for (const step of [1, 6, 15, 21, 25]) await expect(sheet.locator(`tr[data-step="${step}"]`).getAttribute('class')).resolves.toBe('dev-step-done');
    await expect(sheet.locator('tr[data-step="15"]').innerText()).resolves.toContain(d.meeting);
    await expect(sheet.locator('tr[data-step="9"]').innerText()).resolves.toContain(introducers[0]);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.dev-picker').evaluate((e) => getComputedStyle(e).visibility)).toBe('hidden');
    expect(await sheet.evaluate((e) => getComputedStyle(e).visibility)).toBe('visible');
    await page.emulateMedia({ media: 'screen' });
  });

  it('待我审批 lists what waits for the branch; batch approval answers per record', async () => {
    const me = (await api<{ orgId: number }>('GET', '/auth/info', undefined, tokens.zbsj)).body;
    const ids: number[] = [];
    for (const n of [1, 2]) {
      const created = await api<{ id: number; version: number }>('POST', '/api/m/development', { name: `批量${stamp}${n}`, idCard: idCard(addMonths(TODAY, -290), (Date.now() + n * 7) % 997), category: '4', orgId: me.orgId }, tokens.zbsj);
      const applied = await api('POST', `/api/m/development/${created.body.id}/transitions/apply`, { version: created.body.version, values: { applyDate: addDays(TODAY, -3) } }, tokens.zbsj);
      expect(applied.status, JSON.stringify(applied.body)).toBe(200);
      ids.push(created.body.id);
    }
    const page = pages.zbsj;
    await page.goto(webUrl('/development/process'));
    await page.locator('[data-tab="waiting"]').click();
    await page.locator('.rt-row', { hasText: `批量${stamp}1` }).waitFor();
    for (const n of [1, 2]) await page.locator('.rt-row', { hasText: `批量${stamp}${n}` }).locator('.rt-checkbox').check();
    await page.locator('.wf-batch-open').click();
    const dialog = page.locator('.wf-batch');
    await pickOption(page, dialog.locator('.wf-batch-step'), '党组织派人谈话');
    await typeDate(dialog.locator('#root_talkDate'), addDays(TODAY, -1));
    await dialog.locator('#root_talker').fill('支部书记');
    await dialog.locator('.wf-batch-submit').click();
    await dialog.getByText('办理完成：成功 2 条，未办理 0 条').waitFor();
    for (const recordId of ids) expect((await api<{ state: number }>('GET', `/api/m/development/${recordId}`, undefined, tokens.zbsj)).body.state).toBe(1);
  });
});
