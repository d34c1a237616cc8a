/**
 * Issue 33.8: a workflow record offers what its state allows. 编辑/删除 of a record in flight or done are
 * greyed with the reason (not refused on save), and 确定办理 is disabled while the dialog's own pre-check
 * says the step would be refused, until the step's values are changed.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/api.js';
import { painted } from '../support/browser.js';
import { admin, browser, useCoreSession } from './core-helpers.js';
import { signedIn, visibleView } from './layout-helpers.js';

interface Row {
  id: number;
  name: string;
  state: number;
  stateLabel?: string;
}
interface OpenStep {
  id: string;
  title: string;
  fields: { name: string }[];
  blocked: string[];
}

describe('[issue 33.8] workflow records offer only what their state allows', () => {
  useCoreSession();
  let page: Page;
  beforeAll(async () => {
    page = await signedIn(browser, admin, '/transfer/internal');
    page.setDefaultTimeout(20_000);
  });
  afterAll(() => page?.close());

  it('greys 编辑/删除 of submitted and completed transfers with the reason, in the list and the detail', async () => {
    const view = await visibleView(page, '/transfer/internal');
    await view.locator('tr.rt-row').first().waitFor();
    const rows = view.locator('tr.rt-row');
    const count = await rows.count();
    let locked = 0;
    let open = 0;
    for (let i = 0; i < count; i++) {
      const row = rows.nth(i);
      const state = (await row.locator('.rt-state').first().innerText()).trim();
      const edit = row.locator('.rt-row-actions button', { hasText: '编辑' });
      if (state === '待提交' || state.startsWith('退回')) {
        expect(await edit.getAttribute('class')).not.toMatch(/rt-link-locked/);
        open++;
      } else {
        expect(await edit.getAttribute('class')).toMatch(/rt-link-locked/);
        expect(await edit.getAttribute('title')).toMatch(/^(已提交|已办结).*不能修改$/);
        expect(await row.locator('.rt-row-actions button', { hasText: '删除' }).getAttribute('title')).toMatch(/不能删除$/);
        locked++;
      }
    }
    expect(locked).toBeGreaterThan(0);
    // A greyed 编辑 opens no form.
    const lockedRow = rows.filter({ has: page.locator('button.rt-link-locked') }).first();
    await lockedRow.locator('button.rt-link-locked', { hasText: '编辑' }).click({ force: true });
    await painted(page);
    expect(await page.locator('.rf-dialog').count()).toBe(0);
    // Selecting it greys the batch delete.
    await lockedRow.locator('input[type="checkbox"]').check();
    await expect.poll(() => view.locator('.rt-delete-selected').isDisabled()).toBe(true);
    await lockedRow.locator('input[type="checkbox"]').uncheck();

    // The detail of a record in flight: 编辑 disabled, its tooltip saying why.
    const all = (await api<{ content: Row[] }>('POST', '/api/m/transfer-internal/list?size=200', {}, admin)).body.content;
    const inFlight = all.find((r) => r.state >= 0)!;
    await page.goto(page.url().replace(/\/web\/.*$/, `/web/transfer/internal?id=${inFlight.id}`));
    const drawer = page.locator('.rf-drawer:visible');
    await drawer.locator('.rf-detail-edit').waitFor();
    expect(await drawer.locator('.rf-detail-edit').isDisabled()).toBe(true);
    await drawer.locator('.rf-detail-edit').hover({ force: true });
    await page.locator('.ant-tooltip:visible').filter({ hasText: /只能通过办理步骤变更|已办结/ }).waitFor();
    expect(open + locked).toBe(count);
  });

  it('disables 确定办理 while the pre-check refuses, and enables it once the step values change', async () => {
    // A development record whose step the guards refuse now (a probation not yet over, a year not yet passed).
    const rows = (await api<{ content: Row[] }>('POST', '/api/m/development/list?size=300', {}, admin)).body.content;
    let found: { row: Row; step: OpenStep } | undefined;
    for (const row of rows.filter((r) => r.state >= 2 && r.state <= 8)) {
      const steps = (await api<OpenStep[]>('GET', `/api/m/development/${row.id}/transitions`, undefined, admin)).body;
      const step = steps.find((s) => s.blocked.length > 0 && s.fields.length > 0);
      if (step) {
        found = { row, step };
        break;
      }
    }
    expect(found, 'a demo application with a step its guards refuse now').toBeTruthy();
    const { row, step } = found!;
    await page.goto(page.url().replace(/\/web\/.*$/, `/web/development/process?id=${row.id}`));
    const drawer = page.locator('.rf-drawer:visible');
    await drawer.locator(`[data-step="${step.id}"]`).click();
    const dialog = page.locator('.wf-dialog');
    await dialog.waitFor();
    await dialog.locator('.wf-blocked').getByText(step.blocked[0]).waitFor();
    expect(await dialog.locator('.wf-submit').isDisabled()).toBe(true);
    await dialog.locator('.wf-submit').hover({ force: true });
    await page.locator('.ant-tooltip:visible').filter({ hasText: '按目前的信息办理将不被允许' }).waitFor();
    // The step's own values may change the outcome: once changed, the server checks again on submit.
    const input = dialog.locator(`[data-field="${step.fields[0].name}"] input`).first();
    await input.click();
    await input.fill('2020-01-01');
    await input.press('Enter');
    await expect.poll(() => dialog.locator('.wf-submit').isEnabled()).toBe(true);
    await dialog.locator('.wf-blocked').getByText('已修改办理信息').waitFor();
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
    const discard = page.locator('.ant-modal-confirm').filter({ hasText: '放弃修改' });
    if (await discard.count()) await discard.getByRole('button', { name: /放\s*弃/ }).click();
  });

  it('[issue 33.11] 待到期 lists the probations not over yet, apart from 待我审批', async () => {
    await page.goto(page.url().replace(/\/web\/.*$/, '/web/development/process'));
    const view = await visibleView(page, '/development/process');
    const later = (await api<{ totalElements: number }>('POST', '/api/m/development/list?size=1', { $waiting: 'later' }, admin)).body.totalElements;
    expect(later).toBeGreaterThan(0);
    await view.locator('[data-tab="later"]').click();
    // The tab's own list has come (its total), and it is done loading.
    await view.locator('.rt-pagination').getByText(`共 ${later} 条`).waitFor();
    await page.waitForLoadState('networkidle');
    const states = await view.locator('tr.rt-row .rt-state').allInnerTexts();
    expect(states.length).toBeGreaterThan(0);
    for (const s of states) expect(['预备党员', '延长预备期']).toContain(s.trim());
  });
});
