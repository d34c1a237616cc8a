import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PIN, startUkeySimulator, type UkeySimulator } from '../../scripts/ukey-simulator';
import { UKEY_PORTS } from '../../src/shared/constants';
import { KEY_REMOVED_ALERT, NO_DEVICE_ALERT } from '../../src/web/core/ukey/controller';
import { browser, createUser, openAs, tokenCookie, type TestUser, useCoreSession } from './core-helpers.js';
import { CONTEXT } from '../support/browser.js';

useCoreSession();

describe('hardware certificate (uKey) against the simulator', () => {
  let sim: UkeySimulator;
  let ukeyUser: TestUser;
  beforeAll(async () => {
    sim = await startUkeySimulator({ ports: UKEY_PORTS });
    ukeyUser = await createUser('ukey', { useUkey: true });
  });
  afterAll(() => sim?.close());

  beforeEach(() => sim.reset());

  const pinDialog = (page: Page) => page.locator('.ukey-pin');
  const unlockDialog = (page: Page) => page.locator('.ukey-unlock');
  const promptFor = (n: number) => `请输入Pin码确认身份，最多还可尝试${n}次`;

  async function enterPin(page: Page, pin: string, dialog = pinDialog(page)) {
    await dialog.locator('input[type=password]').fill(pin);
    await dialog.locator('.ant-modal-footer button').click();
  }

  it('[S4.U0][S6.P5] a user without useUkey opens no connection to the loopback ports and sees no prompt', async () => {
    const plain = await createUser('noukey');
    const before = sim.state().connections;
    const page = await openAs(plain, '/user/center');
    await page.getByText('个人信息').waitFor();
    // The guard decides with the signed-in user: a client it started would load its chunk and connect
    // now, so the page's network going idle (500 ms without a request) is when none can come.
    await page.waitForLoadState('networkidle');
    expect(sim.state().connections).toEqual(before);
    expect(await page.locator('.ukey-dialog').count()).toBe(0);
    await page.context().close();
  });

  it('[S4.U1][S4.U3][S4.U4][S4.U6][S5.V9b][S6.P5] connects to both ports; PIN prompt with 5 tries, a wrong PIN leaves 4, per device; a correct PIN validates and restores 5', async () => {
    const before = sim.state().connections;
    const page = await openAs(ukeyUser, '/dashboard', { context: await browser.newContext(CONTEXT) });
    await page.evaluate(() => {
      const w = window as unknown as { __validated: unknown[] };
      w.__validated = [];
      window.addEventListener('ukey:validated', (e) => w.__validated.push((e as CustomEvent).detail));
    });
    const dialog = pinDialog(page);
    await dialog.getByText(promptFor(5)).waitFor();
    for (const port of UKEY_PORTS) await expect.poll(() => sim.state().connections[port]).toBeGreaterThan(before[port] ?? 0);

    // [S5.V9b] a 7-character PIN is refused on the page and never sent.
    const frames = sim.state().received.length;
    await enterPin(page, 'abc-123');
    await dialog.getByText('Pin码至少8位').waitFor();
    expect(sim.state().received.length).toBe(frames);

    await enterPin(page, 'wrong-pin-1');
    await dialog.getByText(promptFor(4)).waitFor();
    await dialog.getByText('Pin码错误').waitFor();

    // A second key keeps its own count.
    sim.insert('UK-SIM-0002');
    await dialog.getByText(promptFor(5)).waitFor();
    sim.insert('UK-SIM-0001');
    await dialog.getByText(promptFor(4)).waitFor();

    await enterPin(page, DEFAULT_PIN);
    await dialog.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => (window as unknown as { __validated: unknown[] }).__validated)).toEqual([{ deviceId: 'UK-SIM-0001' }]);
    // The next prompt for that key shows 5 again.
    await page.reload();
    await pinDialog(page).getByText(promptFor(5)).waitFor();
    await enterPin(page, DEFAULT_PIN);
    await pinDialog(page).waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('[S4.U5] a locked key asks for a new PIN; the new PIN unlocks it and then confirms the user', async () => {
    const page = await openAs(ukeyUser, '/dashboard');
    await enterPin(page, sim.state().pin);
    await pinDialog(page).waitFor({ state: 'hidden' });
    sim.lock();
    const unlock = unlockDialog(page);
    await unlock.getByText('uKey已锁定，请设置新的Pin码解锁').waitFor();
    await enterPin(page, 'short', unlock);
    await unlock.getByText('Pin码至少8位').waitFor();
    await enterPin(page, 'new-pin-2026', unlock);
    await pinDialog(page).getByText(promptFor(5)).waitFor();
    expect(sim.state()).toMatchObject({ pin: 'new-pin-2026', locked: false });
    await enterPin(page, 'new-pin-2026');
    await pinDialog(page).waitFor({ state: 'hidden' });
    await page.context().close();
  });

  it('[S4.U2][S8.E15] pulling the key out: an alert, then logout to the login page', async () => {
    const page = await openAs(ukeyUser, '/dashboard');
    await enterPin(page, DEFAULT_PIN);
    await pinDialog(page).waitFor({ state: 'hidden' });
    sim.remove();
    const alert = page.locator('.ant-modal-confirm').filter({ hasText: KEY_REMOVED_ALERT });
    await alert.waitFor();
    await alert.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL(/\/web\/login/);
    expect(await tokenCookie(page)).toBeUndefined();
    sim.insert();
    await page.context().close();
  });

  it('[S4.U7][S8.E14] no key found: alert 请插入干部安全数字证书uKey, then logout; also when no service answers', async () => {
    sim.noDevice();
    const page = await openAs(ukeyUser, '/dashboard', { fresh: true });
    const alert = page.locator('.ant-modal-confirm').filter({ hasText: NO_DEVICE_ALERT });
    await alert.waitFor();
    expect(NO_DEVICE_ALERT).toBe('请插入干部安全数字证书uKey');
    await alert.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL(/\/web\/login/);
    expect(await tokenCookie(page)).toBeUndefined();
    await page.context().close();

    await sim.close();
    const offline = await openAs(ukeyUser, '/dashboard', { fresh: true });
    const noService = offline.locator('.ant-modal-confirm').filter({ hasText: NO_DEVICE_ALERT });
    await noService.waitFor({ timeout: 15_000 });
    await noService.getByRole('button', { name: /确\s*定/ }).click();
    await offline.waitForURL(/\/web\/login/);
    await offline.context().close();
    sim = await startUkeySimulator({ ports: UKEY_PORTS });
  });
});
