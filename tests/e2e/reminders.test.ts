/**
 * 智能提醒 in Chromium (issue 24 §1): an administrator switches a reminder type off in 提醒设置 and its
 * reminders leave their receiver's remind counter; switched on, they count again.
 */
import { describe, expect, it } from 'vitest';
import { addDays, addYears } from '../../src/shared/development/rules.js';
import { localToday } from '../../src/shared/module-schema/computed.js';
import { api } from '../support/api.js';
import { pickOption } from '../support/browser.js';
import { idCardFor } from '../support/development.js';
import { admin, createUser, openAs, run, useCoreSession } from './core-helpers.js';

useCoreSession();

const count = async (token: string) => (await api<{ totalElements: number }>('GET', '/api/msgPushHistory/count', undefined, token)).body.totalElements;
const talkStarted = async (token: string) =>
  (await api<{ totalElements: number }>('GET', '/api/reminders?module=development&type=talk&state=2&size=1', undefined, token)).body.totalElements;

describe('智能提醒', () => {
  it('an administrator switches 入党谈话期限 off on the page: its reminders leave the branch secretary\'s counter', async () => {
    const branch = (await api<{ content: { orgId: number }[] }>('POST', '/api/m/member/list?size=1', {}, admin)).body.content[0].orgId;
    // A branch secretary who takes talks in that branch: the talk reminders of its applicants go to them.
    const role = await api<{ id: number }>('POST', '/api/roles', { name: `提醒测试-${run}`, code: `remind_${run}`, permissions: ['development:talk', 'msg-remind:list'], dataScope: 'own' }, admin);
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const secretary = await createUser('remind', { orgId: branch });
    expect((await api('PUT', '/api/users', { id: secretary.id, roles: [role.body.id] }, admin)).status).toBe(200);
    // An application received 28 days ago: its talk is due within days.
    const applicant = await api<{ id: number; version: number }>(
      'POST',
      '/api/m/development',
      { name: `提醒申请人${run}`, idCard: idCardFor(addYears(localToday(), -24), Math.floor(Math.random() * 900) + 50), category: '4', orgId: branch },
      admin,
    );
    expect(applicant.status, JSON.stringify(applicant.body)).toBe(201);
    const applied = await api('POST', `/api/m/development/${applicant.body.id}/transitions/apply`, { version: applicant.body.version, comment: '', values: { applyDate: addDays(localToday(), -28) } }, admin);
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const mine = await talkStarted(secretary.token);
    expect(mine).toBeGreaterThanOrEqual(1);
    const before = await count(secretary.token);
    expect(before).toBeGreaterThanOrEqual(mine);

    const page = await openAs('admin', '/message-center/remind');
    try {
      await page.locator('.reminders-table tbody tr.ant-table-row').first().waitFor();
      await page.getByRole('button', { name: /提醒设置/ }).click();
      const toggle = page.getByRole('switch', { name: '发展党员：入党谈话期限' });
      await toggle.waitFor();
      expect(await toggle.getAttribute('aria-checked')).toBe('true');
      await toggle.click();
      await page.getByText('已关闭“入党谈话期限”').waitFor();
      await expect.poll(() => count(secretary.token)).toBe(before - mine);
      // The list of that type says it is off.
      await page.keyboard.press('Escape');
      await pickOption(page, page.locator('.reminders-toolbar .ant-select').first(), '入党谈话期限', '入党谈话');
      const rows = page.locator('.reminders-table tbody tr.ant-table-row');
      await expect.poll(async () => (await rows.count()) > 0 && (await rows.filter({ hasText: '停用' }).count()) === (await rows.count())).toBe(true);

      await page.getByRole('button', { name: /提醒设置/ }).click();
      await page.getByRole('switch', { name: '发展党员：入党谈话期限' }).click();
      await page.getByText('已开启“入党谈话期限”').waitFor();
      await expect.poll(() => count(secretary.token)).toBe(before);
    } finally {
      await api('PUT', '/api/reminders/types', { module: 'development', type: 'talk', enabled: 1 }, admin);
      await page.context().close();
    }
  });
});
