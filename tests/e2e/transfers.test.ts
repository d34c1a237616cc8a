/**
 * The four transfer flows of issue 17 walked in Chromium by the demo roles that own their steps:
 * 支部书记 (zbsj), 二级党委组织员 (ejdw), 党委组织部 (dwzzb), and for the receiving side of a transfer within
 * the school a committee and a branch of another college (accounts of their own holding the demo roles).
 * Each record is added through the list's form and moved on through the steps of its detail; the next
 * actor finds it among the to-dos or under 待我审批. At the end the member's branch or status has changed
 * exactly once, with the transfer as the trail entry's source (docs/transfers.md).
 */
import type { Locator, Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { addDays, addMonths } from '../../src/shared/calendar.js';
import { ChangeRecordType } from '../../src/shared/constants.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { idCardCheckChar } from '../../src/shared/validators.js';
import { DEMO_USER_PASSWORD } from '../../src/server/seed/demo.js';
import { api, apiLogin } from '../support/api.js';
import { pickOption, webUrl } from '../support/browser.js';
import { admin, browser, createUser, run, useCoreSession } from './core-helpers.js';
import { go, signedIn, visibleView } from './layout-helpers.js';

const TODAY = localToday();
const SHOTS = process.env.TRANSFER_SHOTS === '1';
type Actor = 'zbsj' | 'ejdw' | 'dwzzb' | 'recvCommittee' | 'recvBranch';
interface Row {
  id: number;
  version: number;
  state: number;
  [field: string]: unknown;
}
interface TrailEntry {
  type: number;
  changes: { field: string; before: unknown; after: unknown }[];
  source: { module: string; recordId: number } | null;
}

const PATHS = {
  'transfer-internal': '/transfer/internal',
  'transfer-out': '/transfer/out',
  'transfer-in': '/transfer/in',
  floating: '/transfer/floating',
} as const;
type Module = keyof typeof PATHS;

describe('[issue 17] the transfer flows in Chromium, by the roles that own them', () => {
  useCoreSession();
  const pages = {} as Record<Actor, Page>;
  const tokens = {} as Record<Actor, string>;
  /** The demo branch (zbsj's), its committee (ejdw's), and a branch of another college. */
  let branch: number;
  let committee: number;
  let otherBranch: { id: number; name: string };
  /** Members of the demo branch free for a transfer: none under way, dues paid up. */
  let free: { id: number; name: string }[] = [];
  let shots = 0;

  beforeAll(async () => {
    for (const user of ['zbsj', 'ejdw', 'dwzzb'] as const) tokens[user] = await apiLogin(user, DEMO_USER_PASSWORD);
    branch = (await api<{ orgId: number }>('GET', '/auth/info', undefined, tokens.zbsj)).body.orgId;
    committee = (await api<{ orgId: number }>('GET', '/auth/info', undefined, tokens.ejdw)).body.orgId;
    // The receiving side: a committee of another college and one of its branches, each with an account holding the demo role.
    type Node = { id: number; name: string; type: string; children?: Node[] };
    const tree = (await api<Node[]>('GET', '/api/dzzxx/buildtree?withCount=false', undefined, admin)).body;
    const committees = tree[0].children!.filter((c) => c.type === '1' && c.id !== committee && c.children?.length);
    const otherCommittee = committees[0];
    otherBranch = { id: otherCommittee.children![0].id, name: otherCommittee.children![0].name };
    const roles = (await api<{ content: { id: number; code: string }[] }>('GET', '/api/roles?size=100', undefined, admin)).body.content;
    const roleId = (code: string) => roles.find((r) => r.code === code)!.id;
    for (const [actor, orgId, role] of [
      ['recvCommittee', otherCommittee.id, 'ejdw'],
      ['recvBranch', otherBranch.id, 'zbsj'],
    ] as const) {
      const user = await createUser(`tr${actor === 'recvCommittee' ? 'rc' : 'rb'}`, { orgId });
      const granted = await api('PUT', '/api/users', { id: user.id, roles: [roleId(role)] }, admin);
      expect(granted.status, JSON.stringify(granted.body)).toBe(200);
      tokens[actor] = user.token;
    }

    // Members of the branch with no transfer or floating record under way and no unpaid dues.
    const members = (
      await api<{ content: { id: number; name: string }[] }>('POST', '/api/m/member/list?size=200', { orgId: branch, partyStatus: '1' }, tokens.zbsj)
    ).body.content;
    const busy = new Set<number>();
    // The states of records under way (not yet done or refused).
    const underWay = { 'transfer-internal': [-1, 0, 1, 2], 'transfer-out': [-1, 0, 1, 2], floating: [-1, 0, 1] };
    for (const [module, states] of Object.entries(underWay)) {
      const rows = (await api<{ content: Row[] }>('POST', `/api/m/${module}/list?size=500&fields=all`, {}, tokens.zbsj)).body.content;
      for (const r of rows) if (states.includes(r.state)) busy.add(r.memberId as number);
    }
    const arrears = (await api<{ content: { memberId: number }[] }>('GET', '/api/dues/reports/arrears?period=all&size=500', undefined, tokens.zbsj)).body
      .content;
    for (const a of arrears) busy.add(a.memberId);
    // Names unique in the branch, so the picker's option is the member's.
    free = members.filter((m) => !busy.has(m.id) && members.filter((x) => x.name === m.name).length === 1);
    expect(free.length).toBeGreaterThanOrEqual(3);
  });

  // ---------------------------------------------------------------- steps in the browser

  /** With TRANSFER_SHOTS=1 each page visited is kept as a screenshot to look at (/tmp/transfer-NN-*.png). */
  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: `/tmp/transfer-${String(++shots).padStart(2, '0')}-${name}.png` });
  };
  // A failed flow leaves a picture of every actor's page.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    for (const [actor, page] of Object.entries(pages)) await page.screenshot({ path: `/tmp/transfer-failed-${actor}.png` }).catch(() => undefined);
  });
  const typeDate = async (input: Locator, date: string) => {
    await input.click();
    await input.fill(date);
    await input.press('Enter');
  };
  /** Picks an option of the select or tree select in `field` by its exact text, typing part of it first to search. */
  const pick = (page: Page, field: Locator, option: string, search = option) => pickOption(page, field.locator('.ant-select'), option, search);

  const record = async (module: Module, id: number) => (await api<Row>('GET', `/api/m/${module}/${id}`, undefined, admin)).body;
  const trailOf = async (memberId: number) =>
    (await api<{ content: TrailEntry[] }>('GET', `/api/m/member/${memberId}/trail?size=100`, undefined, admin)).body.content;

  /**
   * The actor's page at `route`, loaded afresh: the app keeps data for 30 s and open tags alive, and the
   * record has moved on by others' steps since this actor last saw it.
   */
  const visit = async (actor: Actor, route: string) => {
    if (!pages[actor]) {
      pages[actor] = await signedIn(browser, tokens[actor], route);
      pages[actor].setDefaultTimeout(20_000);
    } else await pages[actor].goto(webUrl(route));
    return pages[actor];
  };
  /** The detail drawer of a record, once it shows. */
  const detail = async (page: Page, title: string, name: string) => {
    const drawer = page.locator('.rf-drawer:visible').filter({ hasText: `${title}详情 · ${name}` });
    await drawer.waitFor();
    return drawer;
  };

  /** Adds a record through the list's 新增 form as `actor`; answers its id. */
  const add = async (actor: Actor, module: Module, title: string, name: string, fill: (form: Locator, page: Page) => Promise<void>) => {
    const page = await visit(actor, PATHS[module]);
    const view = await visibleView(page, PATHS[module]);
    await view.locator('tr.rt-row').first().waitFor();
    await view.getByRole('button', { name: /新\s*增/ }).click();
    const form = page.locator('.rf-dialog').filter({ has: page.locator('.ant-modal-title', { hasText: `新增${title}` }) });
    await form.waitFor();
    await fill(form, page);
    await shot(page, `${module}-form`);
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await page.locator('.ant-message').getByText('新增成功').waitFor();
    const rows = (await api<{ content: Row[] }>('POST', `/api/m/${module}/list?size=5&sort=id,desc`, { name }, admin)).body.content;
    expect(rows[0]?.state).toBe(-1);
    return rows[0].id;
  };

  /**
   * The record's detail, opened by its link (as a to-do's link does): loaded afresh, or `inApp` (a record
   * this page has not shown yet, right after adding it, so nothing of it is kept).
   */
  const open = async (actor: Actor, module: Module, id: number, title: string, name: string, inApp = false) => {
    const route = `${PATHS[module]}?id=${id}`;
    const page = inApp ? pages[actor] : await visit(actor, route);
    if (inApp) await go(page, route);
    const drawer = await detail(page, title, name);
    return { page, drawer };
  };

  /** Takes a step in the record's detail through its dialog; answers the record after it. */
  const take = async (
    at: { page: Page; drawer: Locator },
    module: Module,
    id: number,
    step: string,
    fill: (dialog: Locator, page: Page) => Promise<void> = async () => {},
    comment?: string,
  ) => {
    const { page, drawer } = at;
    const before = (await record(module, id)).version;
    await drawer.locator(`[data-step="${step}"]`).click();
    const dialog = page.locator('.wf-dialog');
    await dialog.waitFor();
    await fill(dialog, page);
    if (comment) await dialog.locator('#wf-comment').fill(comment);
    await shot(page, `${module}-${step}`);
    await dialog.locator('.wf-submit').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(async () => (await record(module, id)).version, { timeout: 15_000 }).toBeGreaterThan(before);
    const after = await record(module, id);
    // The detail shows the record as the step left it (its next steps are offered from there).
    await drawer.locator('.rf-meta').getByText(`版本 ${after.version}`).waitFor();
    return after;
  };

  /** The actor's to-do about the record (待办 of 私信与待办) leads to its detail. */
  const followTodo = async (actor: Actor, todo: string, title: string, name: string) => {
    const page = await visit(actor, '/message/msginfo?tab=todo');
    const link = (await visibleView(page, '/message/msginfo')).locator('.msginfo-title', { hasText: todo });
    await link.first().waitFor();
    await shot(page, `todo-${actor}`);
    await link.first().click();
    const drawer = await detail(page, title, name);
    return { page, drawer };
  };

  /** The record under 待我审批 of the actor's list, opened from its row. */
  const fromWaiting = async (actor: Actor, module: Module, title: string, name: string) => {
    const page = await visit(actor, PATHS[module]);
    const view = await visibleView(page, PATHS[module]);
    await view.locator('[data-tab="waiting"]').click();
    const row = view.locator('tr.rt-row', { hasText: name });
    await row.waitFor();
    await shot(page, `${module}-waiting`);
    await row.getByRole('button', { name: /查\s*看/ }).click();
    return { page, drawer: await detail(page, title, name) };
  };

  /** The member's trail: changes (not the record's creation) of `field`, each with its source. */
  const changesOf = async (memberId: number, field: string) =>
    (await trailOf(memberId)).filter((e) => e.type === ChangeRecordType.UPDATE && e.changes.some((c) => c.field === field));

  // ---------------------------------------------------------------- the flows

  it('[S1.F8c] 校内转接: sending branch → sending committee → receiving committee → receiving branch; the branch changes at the end', async () => {
    const title = '校内组织关系转接';
    const member = free[0];
    const id = await add('zbsj', 'transfer-internal', title, member.name, async (form, page) => {
      await pick(page, form.locator('[data-field="memberId"]'), member.name);
      await pick(page, form.locator('[data-field="toOrgId"]'), otherBranch.name);
      await form.locator('#root_reason').fill('随导师调入该学院工作');
    });
    expect((await record('transfer-internal', id)).fromOrgId).toBe(branch);
    let at = await open('zbsj', 'transfer-internal', id, title, member.name, true);
    expect((await take(at, 'transfer-internal', id, 'submit')).state).toBe(0);
    at = await followTodo('ejdw', `转出党委审批：${member.name}`, title, member.name);
    expect((await take(at, 'transfer-internal', id, 'approve', undefined, '同意转出')).state).toBe(1);
    at = await fromWaiting('recvCommittee', 'transfer-internal', title, member.name);
    expect((await take(at, 'transfer-internal', id, 'approve', undefined, '同意接收')).state).toBe(2);
    // Until the receiving branch takes the member in, the member stays where they were.
    expect((await api<{ orgId: number }>('GET', `/api/m/member/${member.id}`, undefined, admin)).body.orgId).toBe(branch);
    at = await followTodo('recvBranch', `接收转入：${member.name}`, title, member.name);
    const done = await take(at, 'transfer-internal', id, 'complete', async (dialog) => typeDate(dialog.locator('#root_completeDate'), TODAY));
    expect(done).toMatchObject({ state: 3, completeDate: TODAY });

    expect((await api<{ orgId: number }>('GET', `/api/m/member/${member.id}`, undefined, admin)).body.orgId).toBe(otherBranch.id);
    const moves = await changesOf(member.id, 'orgId');
    expect(moves).toHaveLength(1);
    expect(moves[0].source).toMatchObject({ module: 'transfer-internal', recordId: id });
    expect(moves[0].changes.find((c) => c.field === 'orgId')).toMatchObject({ before: branch, after: otherBranch.id });
    // The timeline in the detail: the four steps by their levels.
    await at.drawer.getByRole('tab', { name: '办理记录' }).click();
    await expect.poll(() => at.drawer.locator('.wf-entry').count()).toBe(4);
    await shot(at.page, 'transfer-internal-timeline');
  });

  it('[S1.F8b] 转出: branch → committee → the organisation department issues the numbered letter (print page) → completed, receipt; the member leaves the roster at the end', async () => {
    const title = '组织关系转出';
    const member = free[1];
    const toOrgName = `中共长沙市岳麓区委员会组织部${run}`;
    const id = await add('zbsj', 'transfer-out', title, member.name, async (form, page) => {
      await pick(page, form.locator('[data-field="memberId"]'), member.name);
      await form.locator('#root_toOrgName').fill(toOrgName);
      await form.locator('#root_destination').fill('长沙市岳麓区某某中学');
      await pick(page, form.locator('[data-field="reason"]'), '工作调动', '工作');
    });
    let at = await open('zbsj', 'transfer-out', id, title, member.name, true);
    expect((await take(at, 'transfer-out', id, 'submit')).state).toBe(0);
    at = await followTodo('ejdw', `二级党委审批：${member.name}`, title, member.name);
    expect((await take(at, 'transfer-out', id, 'approve', undefined, '同意')).state).toBe(1);
    at = await followTodo('dwzzb', `开具介绍信：${member.name}`, title, member.name);
    const issued = await take(at, 'transfer-out', id, 'approve', async (dialog) => {
      await dialog.locator('#root_validDays').fill('45');
    });
    expect(issued).toMatchObject({ state: 2, issueDate: TODAY, validDays: 45, expiryDate: addDays(TODAY, 45) });
    const letterNo = issued.letterNo as string;
    expect(letterNo).toMatch(new RegExp(`^${TODAY.slice(0, 4)}-\\d{4,}$`));
    expect((await api<{ partyStatus: string }>('GET', `/api/m/member/${member.id}`, undefined, admin)).body.partyStatus).toBe('1');

    // The letter: from the detail's link to the print page (stub, letter, receipt in the national layout).
    await at.drawer.getByRole('button', { name: /打印介绍信/ }).click();
    const letter = at.page.locator('.letter-print');
    await letter.waitFor();
    expect(await letter.getAttribute('data-letter-no')).toBe(letterNo);
    const [year, serial] = letterNo.split('-');
    const text = await letter.innerText();
    expect(text).toContain(`〔${year}〕第${serial}号`);
    expect(text).toContain(`${member.name}同志`);
    expect(text).toContain(`${toOrgName}：`);
    expect(text).toContain('有效期45天');
    expect(await letter.locator('.letter-part').count()).toBe(3);
    await shot(at.page, 'transfer-out-letter');

    at = await open('zbsj', 'transfer-out', id, title, member.name);
    const done = await take(at, 'transfer-out', id, 'complete', async (dialog) => typeDate(dialog.locator('#root_leaveDate'), TODAY));
    expect(done).toMatchObject({ state: 3, leaveDate: TODAY });
    // The receipt comes back to the branch (the organisation department may record it as well).
    const receipt = await take(at, 'transfer-out', id, 'receipt', async (dialog) => {
      await typeDate(dialog.locator('#root_receiptDate'), TODAY);
      await dialog.locator('#root_receiptNote').fill('回执已收到');
    });
    expect(receipt).toMatchObject({ state: 3, receiptDate: TODAY });

    expect((await api<{ partyStatus: string; orgId: number }>('GET', `/api/m/member/${member.id}`, undefined, admin)).body).toMatchObject({
      partyStatus: '6',
      orgId: branch,
    });
    const leaves = await changesOf(member.id, 'partyStatus');
    expect(leaves).toHaveLength(1);
    expect(leaves[0].source).toMatchObject({ module: 'transfer-out', recordId: id });
    expect(leaves[0].changes.find((c) => c.field === 'partyStatus')).toMatchObject({ before: '1', after: '6' });
  });

  it('[S1.F8a] 转入: the organisation department registers the letter → the committee assigns the branch → the branch receives; the member record is made at the end', async () => {
    const title = '组织关系转入';
    const name = `转入${run.slice(-4)}`;
    const first17 = `430104${addMonths(TODAY, -12 * 24).replace(/-/g, '')}${String(Date.now() % 1000).padStart(3, '0')}`;
    const idCard = first17 + idCardCheckChar(first17);
    const committeeName = (await api<{ name: string }>('GET', `/api/m/org/${committee}`, undefined, admin)).body.name;
    const branchName = (await api<{ name: string }>('GET', `/api/m/org/${branch}`, undefined, admin)).body.name;
    const id = await add('dwzzb', 'transfer-in', title, name, async (form, page) => {
      await form.locator('#root_name').fill(name);
      await form.locator('[data-field="gender"]').getByText('女', { exact: true }).click();
      await form.locator('#root_idCard').fill(idCard);
      await pick(page, form.locator('[data-field="category"]'), '在职教职工', '在职');
      await form.locator('[data-field="memberType"]').getByText('正式党员', { exact: true }).click();
      await typeDate(form.locator('#root_joinDate'), addMonths(TODAY, -36));
      await typeDate(form.locator('#root_fullDate'), addMonths(TODAY, -24));
      await form.locator('#root_fromOrgName').fill('中共湘潭大学委员会');
      await form.locator('#root_letterNo').fill(`XT${run}`);
      await typeDate(form.locator('#root_issueDate'), addDays(TODAY, -5));
      await pick(page, form.locator('[data-field="toOrgId"]'), committeeName);
    });
    let at = await open('dwzzb', 'transfer-in', id, title, name, true);
    expect((await take(at, 'transfer-in', id, 'submit')).state).toBe(0);
    at = await followTodo('ejdw', `二级党委审核：${name}`, title, name);
    expect((await take(at, 'transfer-in', id, 'approve', async (dialog, p) => pick(p, dialog.locator('[data-field="toOrgId"]'), branchName))).state).toBe(1);
    expect((await api<{ totalElements: number }>('POST', '/api/m/member/list', { idCard }, admin)).body.totalElements).toBe(0);
    at = await followTodo('zbsj', `接收入册：${name}`, title, name);
    const done = await take(at, 'transfer-in', id, 'complete', async (dialog) => typeDate(dialog.locator('#root_arriveDate'), TODAY));
    expect(done).toMatchObject({ state: 2, arriveDate: TODAY, toOrgId: branch });

    const members = (await api<{ content: { id: number; orgId: number; partyStatus: string }[] }>('POST', '/api/m/member/list?fields=all', { idCard }, admin))
      .body.content;
    expect(members).toHaveLength(1);
    expect(members[0]).toMatchObject({ id: done.memberId, orgId: branch, partyStatus: '1' });
    const trail = await trailOf(members[0].id);
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ type: ChangeRecordType.ADD, source: { module: 'transfer-in', recordId: id } });
    await shot(at.page, 'transfer-in-done');
  });

  it('[S1.F8d] 流动党员: the branch registers the outflow → the committee issues the 活动证 → the branch ends it on return; the member record stays as it was', async () => {
    const title = '流动党员';
    const member = free[2];
    const trailBefore = (await trailOf(member.id)).length;
    const id = await add('zbsj', 'floating', title, member.name, async (form, page) => {
      // 外出流动 (the default): name and branch come from the member record.
      await pick(page, form.locator('[data-field="memberId"]'), member.name);
      await typeDate(form.locator('#root_leaveDate'), addMonths(TODAY, -7));
      await typeDate(form.locator('#root_expectedReturnDate'), addDays(TODAY, 30));
      await form.locator('#root_destination').fill('广东省深圳市南山区');
      await form.locator('#root_floatingOrgName').fill('中共深圳市南山区流动党员党委');
    });
    expect(await record('floating', id)).toMatchObject({ type: 'out', name: member.name, orgId: branch });
    let at = await open('zbsj', 'floating', id, title, member.name, true);
    expect((await take(at, 'floating', id, 'submit')).state).toBe(0);
    at = await followTodo('ejdw', `二级党委审核：${member.name}`, title, member.name);
    const approved = await take(at, 'floating', id, 'approve', async (dialog) => dialog.locator('#root_certificateNo').fill(`LD${run}`));
    expect(approved).toMatchObject({ state: 1, certificateNo: `LD${run}` });
    at = await followTodo('zbsj', `结束流动：${member.name}`, title, member.name);
    const done = await take(at, 'floating', id, 'complete', async (dialog) => typeDate(dialog.locator('#root_returnDate'), TODAY));
    expect(done).toMatchObject({ state: 2, returnDate: TODAY });
    // Floating changes nothing on the member record: still in the branch, on the roster, no trail entry.
    expect((await api<{ orgId: number; partyStatus: string }>('GET', `/api/m/member/${member.id}`, undefined, admin)).body).toMatchObject({
      orgId: branch,
      partyStatus: '1',
    });
    expect((await trailOf(member.id)).length).toBe(trailBefore);
  });
});
