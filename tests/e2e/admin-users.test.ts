import ExcelJS from 'exceljs';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_PASSWORD } from '../../src/server/config.js';
import { api, apiLogin, apiToken, configValue, encrypted, menuPagePath, randomPhone, setConfigValue, uiLogin } from '../support/admin-e2e.js';
import { chooseMenuItem, confirmDialog, launchBrowser, newPage, painted, webUrl } from '../support/browser.js';

/** The computed CSS width (the opening animation scales the box, so its client rectangle is not it). */
const computedWidth = (el: Element) => parseFloat(getComputedStyle(el).width);

/**
 * The user administration page as the administrator, step by step on one user; each step relies on the
 * ones before it. The password rule is changed for the dialog checks and restored afterwards.
 */
describe('user administration in Chromium', () => {
  const name = `e2eu${Date.now().toString(36)}`;
  const phone = randomPhone();
  const newPassword = '20262026';
  const usersPath = menuPagePath('core:users');
  let browser: Browser;
  let page: Page;
  let adminToken: string;
  let initPassword: string;
  /** The user's password as the steps change it: one-time at creation, by SMS at opening, reset, set. */
  let password: string;
  const original: Record<string, string> = {};

  const row = () => page.getByRole('row', { name: new RegExp(name) });
  /** The users table has answered (newest users first, so a fixed demo account may be on a later page). */
  const tableLoaded = () => page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
  // By title text: the e2e build runs with NODE_ENV=test, where antd labels every dialog with the same id.
  const dialog = (title: string) => page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });
  const notice = (text: string) => page.locator('.ant-message').getByText(text);
  /** Reads the one-time password the page shows once (new account, reset) and closes the dialog. */
  const issuedPassword = async (title: string) => {
    const box = page.locator('.ant-modal-confirm').filter({ has: page.locator('.one-time-passwords-table') });
    await box.locator('.ant-modal-confirm-title', { hasText: title }).waitFor();
    const shown = (await box.locator('.one-time-passwords-table tr', { hasText: name }).locator('code').innerText()).trim();
    await box.getByRole('button', { name: '我已记下' }).click();
    await box.waitFor({ state: 'detached' });
    return shown;
  };
  /** Confirms the open confirm dialog (antd spaces two-character labels: 确 定). */
  const confirm = (ok = /^确\s*定$/) => confirmDialog(page, ok);
  const userRow = async () => {
    const list = await api<{ content: { username: string; email: string | null; enabled: boolean; locked: boolean }[] }>(
      'POST',
      '/api/users/list?page=0&size=10',
      { blurry: name },
      adminToken,
    );
    return list.body.content.find((u) => u.username === name);
  };
  const search = async (text: string) => {
    await page.getByPlaceholder('用户名/姓名/手机号码/邮箱').fill(text);
    await page.getByRole('button', { name: /搜\s*索/ }).click();
  };
  const pickOption = async (field: Locator, option: string) => {
    await field.click();
    await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
    // A multiple select stays open over the dialog's buttons; Escape closes it (the dialog ignores Escape).
    await page.keyboard.press('Escape');
  };

  beforeAll(async () => {
    adminToken = await apiToken('admin', DEMO_ADMIN_PASSWORD);
    // initPassword is a secret the server never serves: the test sets the one it uses.
    initPassword = 'Init#E2e2026a';
    await setConfigValue(adminToken, 'initPassword', initPassword);
    for (const key of ['passwordReg', 'passwordRegTip']) original[key] = await configValue(adminToken, key);
    browser = await launchBrowser();
    page = await newPage(browser);
    page.setDefaultTimeout(15_000);
    await uiLogin(page, 'admin', DEMO_ADMIN_PASSWORD);
    await page.goto(webUrl(usersPath));
    await tableLoaded();
  });

  afterAll(async () => {
    // Other test files share this server: the password rule goes back to what it was.
    for (const [key, value] of Object.entries(original)) await setConfigValue(adminToken, key, value);
    await setConfigValue(adminToken, 'initPassword', 'Dj@123456');
    // The user of the steps and the imported ones, when a step failed before deleting them.
    const list = await api('POST', '/api/users/list?page=0&size=10', { blurry: name }, adminToken).catch(() => undefined);
    const leftovers = (list?.body?.content ?? []).map((u: { id: number }) => u.id);
    if (leftovers.length) await api('DELETE', '/api/users', leftovers, adminToken);
    await browser?.close();
  });

  it('lists users on the page of the core:users menu entry, with the template download', async () => {
    expect(usersPath).toBe('/system/users');
    await expect(page.getByRole('tab', { name: '全部用户' }).getAttribute('aria-selected')).resolves.toBe('true');
    for (const tab of ['弱密码用户', '未登录用户', '已离校用户']) await page.getByRole('tab', { name: tab }).waitFor();
    await tableLoaded();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '下载导入模板' }).click()]);
    expect(download.suggestedFilename()).toBe('用户导入模板.xlsx');
  });

  it('S9.L7a: the data form dialog stays open on Escape and on a mask click', async () => {
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const form = dialog('新增用户');
    await form.waitFor();
    await page.keyboard.press('Escape');
    await page.mouse.click(15, 785);
    await painted(page);
    expect(await form.isVisible()).toBe(true);
    await form.getByRole('button', { name: /取\s*消/ }).click();
    await form.waitFor({ state: 'hidden' });
  });

  it('creates a user in the 700px dialog; the list shows it', async () => {
    await page.getByRole('button', { name: /新\s*增/ }).click();
    const form = dialog('新增用户');
    await form.waitFor();
    expect(await form.evaluate(computedWidth)).toBe(700);
    // Required fields are checked before anything is sent.
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await form.getByText('请输入用户名').waitFor();
    await form.getByLabel('用户名').fill(name);
    await form.getByLabel('姓名').fill('端到端用户');
    await form.getByLabel('手机号码').fill(phone);
    await form.getByLabel('邮箱').fill(`${name}@example.edu.cn`);
    await pickOption(form.getByLabel('性别'), '男');
    await pickOption(form.getByLabel('角色'), '党员');
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await notice('新增成功').waitFor();
    await form.waitFor({ state: 'hidden' });
    password = await issuedPassword('用户已新增');
    expect((await apiLogin(name, initPassword)).status).toBe(400);
    await row().waitFor();
    // The list is reloaded after the save: poll until the row carries the role.
    await expect.poll(() => row().textContent(), { timeout: 15_000 }).toMatch(/端到端用户.*党员/);
  });

  it('shows the new user under 未登录用户 and 弱密码用户, and opens its account there', async () => {
    await page.getByRole('tab', { name: '弱密码用户' }).click();
    await row().waitFor();
    await page.getByRole('tab', { name: '未登录用户' }).click();
    await row().waitFor();
    await row().getByRole('checkbox').check();
    await page.getByRole('button', { name: '开通账号' }).click();
    await confirm();
    await notice('已为1名未登录用户开通账号').waitFor();
    await page.getByRole('tab', { name: '全部用户' }).click();
    await tableLoaded();
  });

  it('the SMS outbox page shows the account notice sent to the new user', async () => {
    await page.goto(webUrl(menuPagePath('core:sms-outbox')));
    await page.getByPlaceholder('手机号码或邮箱').fill(phone);
    await page.getByRole('button', { name: /搜\s*索/ }).click();
    const sms = page.getByRole('row', { name: new RegExp(phone) });
    await sms.waitFor();
    await expect(sms.textContent()).resolves.toMatch(/短信.*账号开通通知.*已开通/);
    // Opening gave the account a new one-time password, sent in that SMS.
    const sent = /一次性密码(\S{12})，/.exec((await sms.textContent()) ?? '');
    expect(sent).not.toBeNull();
    expect((await apiLogin(name, sent![1])).status).toBe(200);
    password = sent![1];
    await page.goto(webUrl(usersPath));
    await tableLoaded();
  });

  it('finds the user by the search bar', async () => {
    await search(name);
    await row().waitFor();
    await expect(page.locator('.ant-table-tbody tr.ant-table-row').count()).resolves.toBe(1);
    await search(`${name}-nobody`);
    await page.locator('.ant-table-tbody .ant-empty-description').getByText('暂无数据').waitFor();
    await search(name);
    await row().waitFor();
  });

  it('edits the e-mail', async () => {
    await row().getByRole('button', { name: '编辑' }).click();
    const form = dialog('编辑用户');
    await form.waitFor();
    await expect(form.getByLabel('用户名').inputValue()).resolves.toBe(name);
    await form.getByLabel('邮箱').fill('not-an-address');
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await form.getByText('请输入正确的邮箱地址').waitFor();
    await form.getByLabel('邮箱').fill(`changed-${name}@example.edu.cn`);
    await form.getByRole('button', { name: /确\s*定/ }).click();
    await notice('修改成功').waitFor();
    await row().getByText(`changed-${name}@example.edu.cn`).waitFor();
    expect((await userRow())?.email).toBe(`changed-${name}@example.edu.cn`);
  });

  it('resets the password to a one-time password shown once', async () => {
    const set = await api('POST', '/api/users/updatePassByAdmin', { username: name, newPass: await encrypted('Other@2026pw') }, adminToken);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect((await apiLogin(name, password)).status).toBe(400);
    await chooseMenuItem(page, row().getByRole('button', { name: /更多/ }), '重置密码', 'click');
    const ask = page.locator('.ant-modal-confirm').filter({ hasText: '确定重置用户' });
    await expect(ask.textContent()).resolves.toContain('一次性密码');
    await ask.getByRole('button', { name: /^确\s*定$/ }).click();
    await notice('已为1个用户生成一次性密码').waitFor();
    password = await issuedPassword('密码已重置');
    expect((await apiLogin(name, password)).status).toBe(200);
    expect((await apiLogin(name, 'Other@2026pw')).status).toBe(400);
    expect((await apiLogin(name, initPassword)).status).toBe(400);
  });

  it('unlocks a user locked by five wrong passwords', async () => {
    for (let i = 0; i < 5; i++) expect((await apiLogin(name, `wrong-${i}`)).status).toBe(400);
    const locked = await apiLogin(name, password);
    expect(locked.status).toBe(400);
    expect(locked.body.message).toContain('锁定');
    await page.getByRole('button', { name: '刷新' }).click();
    await row().getByText('已锁定').waitFor();
    await row().getByRole('button', { name: '解锁' }).click();
    await confirm();
    await notice('解锁成功').waitFor();
    await row().getByText('正常').waitFor();
    expect((await userRow())?.locked).toBe(false);
    expect((await apiLogin(name, password)).status).toBe(200);
  });

  describe('the change-password dialog for another user', () => {
    let box: Locator;
    beforeAll(async () => {
      await setConfigValue(adminToken, 'passwordReg', '^\\d{8,}$');
      await setConfigValue(adminToken, 'passwordRegTip', '至少8位数字');
      // The web app reads system configuration at start.
      await page.reload();
      await search(name);
      await chooseMenuItem(page, row().getByRole('button', { name: /更多/ }), '修改密码', 'click');
      box = dialog(`修改用户“${name}”的密码`);
      await box.waitFor();
    });

    it('[S9.L7b] is 700px wide; [S9.L7c] inputs are 370px; [S9.L7d] labels are 88px', async () => {
      expect(await box.evaluate(computedWidth)).toBe(700);
      expect(await box.locator('.ant-input-affix-wrapper').evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).width)))).toEqual([370, 370]);
      expect(await box.locator('.ant-form-item-label').evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).width)))).toEqual([88, 88]);
    });

    it('[S5.V4c] shows exactly two password inputs: new and confirm', async () => {
      await expect(box.locator('input').count()).resolves.toBe(2);
      await expect(box.locator('input[type="password"]').count()).resolves.toBe(2);
      await box.getByLabel('新密码').waitFor();
      await box.getByLabel('确认密码').waitFor();
    });

    it('[S5.V3e][S5.V3a] an empty new password says 请输入新密码 on blur; [S5.V3c] an empty confirm says 请再次输入密码', async () => {
      await box.getByLabel('新密码').focus();
      await box.getByLabel('确认密码').focus();
      await box.getByText('请输入新密码').waitFor();
      await box.getByLabel('新密码').focus();
      await box.getByText('请再次输入密码').waitFor();
    });

    it('[S5.V3b] the configured passwordReg applies with its passwordRegTip', async () => {
      await box.getByLabel('新密码').fill('abc');
      await box.getByLabel('新密码').blur();
      await box.getByText('至少8位数字').waitFor();
      await box.getByLabel('新密码').fill('12345678');
      await box.getByLabel('新密码').blur();
      await box.getByText('至少8位数字').waitFor({ state: 'detached' });
      await expect(box.locator('.ant-form-item-explain-error').count()).resolves.toBe(1); // only the empty confirm
    });

    it('[S5.V3d] a different confirmation says 两次输入的密码不一致', async () => {
      await box.getByLabel('确认密码').fill('12345679');
      await box.getByLabel('确认密码').blur();
      await box.getByText('两次输入的密码不一致').waitFor();
    });

    it('[S9.L7a] stays open on Escape and on a mask click', async () => {
      await box.getByLabel('确认密码').focus();
      await page.keyboard.press('Escape');
      await page.mouse.click(15, 785);
      await painted(page);
      expect(await box.isVisible()).toBe(true);
    });

    it('[S5.V4b][S8.E11] changes the password: 密码修改成功, the admin stays signed in, the user signs in with it', async () => {
      await box.getByLabel('新密码').fill(newPassword);
      await box.getByLabel('确认密码').fill(newPassword);
      await box.getByRole('button', { name: /确\s*认/ }).click();
      await notice('密码修改成功').waitFor();
      await box.waitFor({ state: 'hidden' });
      // The own-password mode signs out PASSWORD_NOTICE_DURATION (1.5 s) after its notice; this one must not:
      // the notice closing (3 s) is later than that.
      await notice('密码修改成功').waitFor({ state: 'hidden' });
      expect(new URL(page.url()).pathname).toBe(`/web${usersPath}`);
      await row().waitFor();
      await expect(page.getByText('密码修改成功，请重新登录').count()).resolves.toBe(0);
      // Still signed in: a reload stays on the page instead of going to the login page.
      await page.reload();
      await tableLoaded();
      expect(new URL(page.url()).pathname).toBe(`/web${usersPath}`);
      await search(name);
      const signIn = await apiLogin(name, newPassword);
      expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
      expect((await apiLogin(name, password)).status).toBe(400);
    });
  });

  it('disables the user with the status switch; the user can no longer sign in', async () => {
    await row().getByRole('switch').click();
    await expect(page.locator('.ant-modal-confirm').textContent()).resolves.toContain(`禁用用户“${name}”`);
    await confirm();
    await notice('已禁用').waitFor();
    await expect(row().getByRole('switch').getAttribute('aria-checked')).resolves.toBe('false');
    expect((await userRow())?.enabled).toBe(false);
    const refused = await apiLogin(name, newPassword);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('禁用');
  });

  it('deletes the user after confirmation', async () => {
    await row().getByRole('checkbox').check();
    await page
      .locator('.crud-toolbar')
      .getByRole('button', { name: /删\s*除/ })
      .click();
    await expect(page.locator('.ant-modal-confirm').textContent()).resolves.toContain('删除后不能恢复');
    await confirm(/^删\s*除$/);
    await notice('删除成功').waitFor();
    await row().waitFor({ state: 'detached' });
    expect(await userRow()).toBeUndefined();
  });

  it('imports users from a workbook in partial mode: the good row is imported, the bad one reported', async () => {
    const imported = `${name}imp`;
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('用户');
    sheet.addRow(['说明：带 * 的列必填']);
    sheet.addRow(['用户名*', '姓名*', '手机号码', '邮箱', '性别', '所属组织编号']);
    sheet.addRow([imported, '导入用户', null, `${imported}@example.edu.cn`, '女', null]);
    sheet.addRow([`${name}bad`, '坏行', '12345', null, null, null]);
    const buffer = Buffer.from(await book.xlsx.writeBuffer());

    // Not 下载导入模板 (the icon's label comes first in the accessible name).
    await page.getByRole('button', { name: /(^|\s)导\s*入$/ }).click();
    const box = dialog('导入用户');
    await box.waitFor();
    expect(await box.evaluate(computedWidth)).toBe(700);
    await box.getByText('部分导入', { exact: false }).click();
    await box.locator('input[type=file]').setInputFiles({ name: '用户.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
    await box.getByText('用户.xlsx').waitFor();
    await box.getByRole('button', { name: '开始导入' }).click();
    await box.getByText('成功导入 1 条').waitFor();
    const bad = box.getByRole('row', { name: /请输入正确的手机号码/ });
    await expect(bad.textContent()).resolves.toMatch(/^4手机号码请输入正确的手机号码$/);
    await box.getByRole('button', { name: /完\s*成/ }).click();
    await box.waitFor({ state: 'hidden' });

    await search(imported);
    const added = page.getByRole('row', { name: new RegExp(imported) });
    await added.waitFor();
    await expect(added.textContent()).resolves.toContain('导入用户');
    const list = await api<{ content: { id: number; username: string; passwordWeak: boolean }[] }>('POST', '/api/users/list?page=0&size=10', { blurry: name }, adminToken);
    expect(list.body.content.map((u) => u.username)).toEqual([imported]);
    expect(list.body.content[0].passwordWeak).toBe(true);
    await api('DELETE', '/api/users', [list.body.content[0].id], adminToken);
  });
});
