import { describe, expect, it } from 'vitest';
import { api, apiLogin, encryptForServer } from '../support/api.js';
import { run, admin, createUser, openAs, tokenCookie, useCoreSession } from './core-helpers.js';

useCoreSession();

describe('personal centre', () => {
  it('[S2.R6a] /user/center is the personal centre inside the layout, titled 个人中心', async () => {
    const page = await openAs('admin', '/user/center');
    await page.getByText('个人信息').waitFor();
    expect(await page.locator('.app-sidebar, .sidebar-drawer').first().isVisible()).toBe(true);
    expect(await page.locator('.navbar').isVisible()).toBe(true);
    expect(await page.title()).toMatch(/^个人中心/);
    expect(new URL(page.url()).pathname).toBe('/web/user/center');
    for (const tab of ['基本资料', '修改邮箱', '修改密码', '登录记录', '我的文件']) await page.getByRole('tab', { name: tab }).waitFor();
    await page.context().close();
  });

  it('profile: name, phone and gender (dictionary DJ_COMM_XB) are saved with PUT api/users/center', async () => {
    const user = await createUser('profile');
    const page = await openAs(user, '/user/center');
    const form = page.locator('.user-center-form');
    await form.getByPlaceholder('请输入姓名').fill('张三丰');
    await form.getByPlaceholder('请输入手机号码').fill('1380013800'); // 10 digits: refused on blur
    await form.getByPlaceholder('请输入姓名').click();
    await page.getByText('请输入正确的手机号码').waitFor();
    await form.getByPlaceholder('请输入手机号码').fill(`139${String(Date.now()).slice(-8)}`);
    await form.getByText('女', { exact: true }).click();
    // A production build sends PUT as POST with X-HTTP-Method-Override (spec S7.C2a).
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/users/center') && (r.method() === 'PUT' || r.headers()['x-http-method-override'] === 'PUT'));
    await form.getByRole('button', { name: /保\s*存/ }).click();
    const body = (await sent).postDataJSON() as { nickName: string; gender: string };
    expect(body).toMatchObject({ nickName: '张三丰', gender: '2' });
    await page.getByText('保存成功').waitFor();
    const info = await api<{ nickName: string; gender: string }>('GET', '/auth/info', undefined, user.token);
    expect(info.body).toMatchObject({ nickName: '张三丰', gender: '2' });
    // The card shows the label, not the code.
    await page.locator('.user-center-info').getByText('女').waitFor();
    await page.context().close();
  });

  it('avatar: a picked picture is previewed, uploaded to /api/users/updateAvatar and shown (fetched with the token)', async () => {
    const user = await createUser('avatar');
    const page = await openAs(user, '/user/center');
    await page.getByText('个人信息').waitFor();
    // A 1×1 PNG.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
    await page.locator('.user-avatar input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    const dialog = page.locator('.ant-modal').filter({ hasText: '更换头像' });
    await dialog.locator('img[alt="头像预览"]').waitFor();
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/users/updateAvatar'));
    await dialog.getByRole('button', { name: '确定上传' }).click();
    expect((await sent).status()).toBe(200);
    await page.getByText('头像修改成功').waitFor();
    const info = await api<{ avatar: string }>('GET', '/auth/info', undefined, user.token);
    expect(info.body.avatar).toMatch(/^\/api\/file\/view\?id=[0-9a-f]{32}$/);
    await expect.poll(() => page.locator('.user-avatar img').getAttribute('src')).toMatch(/^blob:/);
    // A forbidden type is refused before anything is sent.
    await page.locator('.user-avatar input[type=file]').setInputFiles({ name: 'vector.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg/>') });
    await page.getByText('不支持的文件类型：.svg').waitFor();
    await page.context().close();
  });

  it('[S5.V2c] changing the e-mail sends the password encrypted, with the code sent to the new address', async () => {
    const user = await createUser('mail');
    const email = `mail_${run}@example.edu.cn`;
    const page = await openAs(user, '/user/center?tab=email');
    const form = page.locator('.user-center-form');
    await form.getByPlaceholder('请输入新邮箱').fill(email);
    const codeSent = page.waitForResponse((r) => r.url().endsWith('/api/users/emailCode'));
    await form.getByRole('button', { name: '获取验证码' }).click();
    expect((await codeSent).status()).toBe(200);
    await form.getByRole('button', { name: /秒后重发/ }).waitFor();
    const outbox = await api<{ content: { target: string; content: string }[] }>('GET', `/api/outbox?target=${encodeURIComponent(email)}`, undefined, admin);
    const code = /(\d{6})/.exec(outbox.body.content[0]?.content ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await form.getByPlaceholder('请输入邮箱验证码').fill(code!);
    await form.getByPlaceholder('请输入当前密码').fill(user.password);
    const sent = page.waitForRequest((r) => r.url().includes('/api/users/updateEmail/') && r.method() === 'POST');
    await form.getByRole('button', { name: '修改邮箱' }).click();
    const request = await sent;
    expect(request.url()).toContain(`/api/users/updateEmail/${code}`);
    const body = request.postDataJSON() as { password: string; email: string };
    expect(body.email).toBe(email);
    expect(body.password).not.toBe(user.password);
    expect(request.postData()).not.toContain(user.password);
    await page.getByText('邮箱修改成功').waitFor();
    const info = await api<{ email: string }>('GET', '/auth/info', undefined, user.token);
    expect(info.body.email).toBe(email);
    await page.context().close();
  });

  it('[S5.V2a] changing the own password sends oldPass (and newPass) encrypted, then the notice and logout', async () => {
    const user = await createUser('pass');
    const page = await openAs(user, '/user/center?tab=password');
    const form = page.locator('.user-center-form');
    // Wrong old password: the server's field message, still signed in.
    await form.getByPlaceholder('请输入旧密码').fill('Wrong#Old2026');
    await form.getByPlaceholder('请输入新密码').fill('short');
    await form.getByPlaceholder('请再次输入密码').fill('other');
    await form.getByRole('button', { name: '修改密码' }).click();
    await page.getByText('密码须为8-20位，且同时包含字母、数字和特殊字符').waitFor();
    await page.getByText('两次输入的密码不一致').waitFor();
    const next = 'Next#Pass2026';
    await form.getByPlaceholder('请输入新密码').fill(next);
    await form.getByPlaceholder('请再次输入密码').fill(next);
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/users/updatePass'));
    await form.getByRole('button', { name: '修改密码' }).click();
    expect((await refused).status()).toBe(400);
    await form.getByText('旧密码错误').waitFor();

    await form.getByPlaceholder('请输入旧密码').fill(user.password);
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/users/updatePass'));
    await form.getByRole('button', { name: '修改密码' }).click();
    const request = await sent;
    const body = request.postDataJSON() as { oldPass: string; newPass: string };
    expect(body.oldPass).toBeTruthy();
    expect(body.oldPass).not.toBe(user.password);
    expect(body.newPass).not.toBe(next);
    expect(request.postData()).not.toContain(user.password);
    expect(request.postData()).not.toContain(next);
    await page.getByText('密码修改成功，请重新登录').waitFor();
    const shown = Date.now();
    await page.waitForURL(/\/web\/login/, { timeout: 5000 });
    expect(Date.now() - shown).toBeGreaterThan(1000);
    expect(await tokenCookie(page)).toBeUndefined();
    await expect(apiLogin(user.username, next)).resolves.toBeTruthy();
    await page.context().close();
  });

  it('login history lists the own sign-ins, failed ones included', async () => {
    const user = await createUser('hist');
    const failed = await api('POST', '/auth/login', { username: user.username, password: await encryptForServer('Wrong#Pass1') });
    expect(failed.status).toBe(400);
    const page = await openAs(user, '/user/center?tab=history');
    const table = page.locator('.ant-table');
    await table.getByText('失败').first().waitFor();
    await table.getByText('成功').first().waitFor();
    expect(await table.locator("tbody tr.ant-table-row").count()).toBeGreaterThanOrEqual(2);
    await page.context().close();
  });
});
