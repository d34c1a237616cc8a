import { describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { run, admin, createUser, openAs, useCoreSession } from './core-helpers.js';

useCoreSession();

describe('private messages and to-dos', () => {
  it('[S2.R7][S3.E8a][S3.E8b] /message/msginfo lists only the current user\'s messages and to-dos; read/unread, mark read, done', async () => {
    const a = await createUser('msga');
    const b = await createUser('msgb');
    const send = (kind: 'msg' | 'todo', body: unknown) => api('POST', kind === 'todo' ? '/api/msgTodo' : '/api/msgPushHistory', body, admin);
    for (const [user, tag] of [[a, 'A'], [b, 'B']] as const) {
      expect((await send('msg', { userId: user.id, title: `致${tag}的私信${run}`, content: `正文${tag}` })).status).toBe(201);
      expect((await send('msg', { userId: user.id, type: 'remind', title: `${tag}的提醒${run}` })).status).toBe(201);
      expect((await send('todo', { userId: user.id, title: `${tag}的待办${run}`, link: '/user/center' })).status).toBe(201);
    }
    const page = await openAs(a, '/message/msginfo');
    const messages = page.locator('.msginfo-tab-private .msginfo-messages');
    await messages.getByText(`致A的私信${run}`).waitFor();
    expect(await page.getByText(`致B的私信${run}`).count()).toBe(0);
    // [43.13] 私信 holds people's messages only; reminders are 系统消息, each tab with its own unread badge.
    expect(await messages.locator('tbody tr.ant-table-row').count()).toBe(1);
    expect(await page.getByText(`A的提醒${run}`).count()).toBe(0);
    await expect.poll(() => page.getByRole('tab', { name: /私信/ }).locator('.ant-badge-count').getAttribute('title')).toBe('1');
    await page.getByRole('tab', { name: /系统消息/ }).click();
    await page.locator('.msginfo-tab-system .msginfo-messages').getByText(`A的提醒${run}`).waitFor();
    expect(await page.getByText(`B的提醒${run}`).count()).toBe(0);
    expect(await page.locator('.msginfo-tab-system .msginfo-messages').getByText('提醒', { exact: true }).count()).toBe(1);
    expect(await page.locator('.msginfo-tab-system .msginfo-toolbar').getByRole('button', { name: '发私信' }).count()).toBe(0);
    await page.getByRole('tab', { name: /私信/ }).click();

    // Unread filter, open (marks read), read filter.
    await page.locator('.msginfo-tab-private .msginfo-toolbar').getByText('未读', { exact: true }).first().click();
    await expect.poll(() => messages.locator('tbody tr.ant-table-row').count()).toBe(1);
    await messages.getByText(`致A的私信${run}`).click();
    await page.locator('.ant-modal').getByText('正文A').waitFor();
    await page.locator('.ant-modal-footer').getByRole('button', { name: /关\s*闭/ }).click();
    await expect.poll(() => messages.locator('tbody tr.ant-table-row').count()).toBe(0);
    await page.locator('.msginfo-tab-private .msginfo-toolbar').getByText('已读', { exact: true }).click();
    await messages.getByText(`致A的私信${run}`).waitFor();
    const unreadLeft = await api<{ totalElements: number; private: number; system: number }>('GET', '/api/msgPushHistory/count', undefined, a.token);
    expect(unreadLeft.body).toMatchObject({ totalElements: 1, private: 0, system: 1 });

    // To-dos: only A's; marking done takes it off the open list.
    await page.getByRole('tab', { name: /待办/ }).click();
    const todos = page.locator('.msginfo-todos');
    await todos.getByText(`A的待办${run}`).waitFor();
    expect(await page.getByText(`B的待办${run}`).count()).toBe(0);
    await todos.getByRole('button', { name: '标记完成' }).click();
    await expect.poll(() => todos.getByText(`A的待办${run}`).count()).toBe(0);
    const open = await api<{ totalElements: number }>('GET', '/api/msgTodo/count', undefined, a.token);
    expect(open.body.totalElements).toBe(0);

    // [43.4] A record's to-do (a step waiting on it) is not simply ticked off: the page asks, and offers the step.
    expect((await send('todo', { userId: a.id, title: `A的审批${run}`, link: '/user/center', module: 'development', refId: '1:talk' })).status).toBe(201);
    await page.reload();
    await todos.getByText(`A的审批${run}`).waitFor();
    await todos.locator('tr', { hasText: `A的审批${run}` }).getByRole('button', { name: '标记完成' }).click();
    const ask = page.locator('.ant-modal-confirm', { hasText: '业务尚未办理' });
    await ask.getByText('标记完成只会把它移出待办列表，不会办理该业务').waitFor();
    await ask.getByRole('button', { name: '去办理' }).click();
    await page.waitForURL(/\/user\/center/);
    expect((await api<{ totalElements: number }>('GET', '/api/msgTodo/count', undefined, a.token)).body.totalElements).toBe(1);
    await page.context().close();

    // B still has their own, unread and open.
    const bToken = b.token;
    expect((await api<{ totalElements: number }>('GET', '/api/msgPushHistory/count', undefined, bToken)).body.totalElements).toBe(2);
    expect((await api<{ totalElements: number }>('GET', '/api/msgTodo/count', undefined, bToken)).body.totalElements).toBe(1);
  });

  it('sending a private message to a user picked by search, by a user without any role; the recipient sees it', async () => {
    // Two people of one branch: without any role the lookup offers the people of one's own organisation.
    const branch = (await api<{ content: { orgId: number }[] }>('POST', '/api/m/member/list?size=1', {}, admin)).body.content[0].orgId;
    const to = await createUser('rcpt', { orgId: branch });
    const from = await createUser('sndr', { orgId: branch });
    const page = await openAs(from, '/message/msginfo?tab=private');
    await page.getByRole('button', { name: '发私信' }).click();
    const dialog = page.locator('.ant-modal').filter({ hasText: '发私信' });
    await dialog.locator('.ant-select').first().click();
    await page.keyboard.type(to.username);
    await page.locator('.ant-select-item-option', { hasText: to.username }).click();
    await dialog.getByPlaceholder('请输入标题').fill(`你好${run}`);
    await dialog.getByPlaceholder('请输入内容').fill('请查收');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/msgPushHistory') && r.method() === 'POST');
    await dialog.getByRole('button', { name: /发\s*送/ }).click();
    expect((await sent).postDataJSON()).toMatchObject({ userIds: [to.id], title: `你好${run}`, type: 'private' });
    await page.getByText('已发送给1人').waitFor();
    await page.context().close();
    const inbox = await api<{ content: { title: string; senderName: string }[] }>('GET', '/api/msgPushHistory', undefined, to.token);
    expect(inbox.body.content.find((m) => m.title === `你好${run}`)?.senderName).toBe('sndr用户');
  });
});
