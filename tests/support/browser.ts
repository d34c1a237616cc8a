import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { chromiumPath } from './prerequisites.js';

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** The URL of a web route on the server the e2e project started (`/login` → `<base>/web/login`). */
export function webUrl(route: string): string {
  return `${inject('baseUrl')}/web${route.startsWith('/') ? route : `/${route}`}`;
}

/**
 * A browser context as the tests use it: Chinese, a laptop's screen, and reduced motion, so the app opens menus
 * and dialogs without antd's animations (a click that landed while one still zoomed or slid in was lost on a
 * loaded machine). The animated path has its own test (layout-shell, `[a11y]`).
 */
export const CONTEXT: BrowserContextOptions = { locale: 'zh-CN', viewport: { width: 1366, height: 800 }, reducedMotion: 'reduce' };

export async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ ...CONTEXT, ...options });
  return context.newPage();
}

/**
 * Resolves once the page has painted twice: the events sent before it (a key, a click) have been handled
 * and their renders committed. With CONTEXT's reduced motion nothing animates, so a dialog that was to
 * close is gone by then: the condition to wait on before checking that something did not happen.
 */
export async function painted(page: Page): Promise<void> {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

export type MenuTrigger = 'hover' | 'click' | 'right-click';

/** The dropdown menu on show (antd renders closed ones hidden, and at most one is open at a time here). */
export const openDropdown = (page: Page) => page.locator('.ant-dropdown:visible').last();

/**
 * Opens a dropdown menu through its trigger (hover, click, right click) and waits until its items show.
 * On a loaded machine a hover menu can close again before it is seen (the pointer "left" it during the
 * animation), so the trigger is tried again, up to three times. Answers the open menu.
 */
export async function openMenu(page: Page, trigger: Locator, how: MenuTrigger = 'hover'): Promise<Locator> {
  const menu = openDropdown(page);
  // A menu still closing (the last one chosen from) is not the one asked for.
  await menu.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
  for (let attempt = 1; ; attempt++) {
    if (how === 'hover') await trigger.hover();
    else await trigger.click({ button: how === 'right-click' ? 'right' : 'left' });
    try {
      await menu.locator('.ant-dropdown-menu-item').first().waitFor({ timeout: 5000 });
      return menu;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.mouse.move(0, 0); // away from the trigger, so the next hover is a new one
    }
  }
}

/**
 * Opens the menu and chooses the item. When the menu closed before the click landed (and its trigger is
 * still there, so nothing was chosen), it is opened again; a click is never repeated after it took effect.
 */
export async function chooseMenuItem(page: Page, trigger: Locator, item: string | RegExp | ((menu: Locator) => Locator), how: MenuTrigger = 'hover'): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const menu = await openMenu(page, trigger, how);
    try {
      await (typeof item === 'function' ? item(menu) : menu.locator('.ant-dropdown-menu-item', { hasText: item })).click({ timeout: 15_000 });
      return;
    } catch (error) {
      const closedUnchosen = !(await menu.isVisible()) && (await trigger.isVisible());
      if (attempt === 3 || !closedUnchosen) throw error;
    }
  }
}

/**
 * Chooses a menu item and waits for what it opens (a dialog, a page). A click that landed while the menu
 * animated did nothing: the item is chosen again, up to three times, while the outcome has not shown.
 */
export async function chooseMenuItemFor(page: Page, trigger: Locator, item: string | RegExp | ((menu: Locator) => Locator), outcome: Locator, how: MenuTrigger = 'hover'): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await chooseMenuItem(page, trigger, item, how);
    try {
      await outcome.waitFor({ timeout: 5000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/**
 * Picks an option of an antd Select (`field` is its `.ant-select`), typing `search` first when given. A click
 * that landed while the list animated picked nothing: the choice is checked and made again, up to three times.
 */
export async function pickOption(page: Page, field: Locator, option: string, search?: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await field.click();
    if (search) await page.keyboard.type(search);
    await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
    try {
      await field.locator('.ant-select-content, .ant-select-selection-item', { hasText: option }).first().waitFor({ timeout: 5000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

/**
 * Clicks and waits for what the click brings about. A click that landed while its dialog or menu still
 * animated (a loaded machine) did nothing: it is made again, up to three times, while the outcome has not
 * come. `click` must give up soon (a short timeout), so a lost menu leaves time for the next attempt.
 */
export async function clickFor(click: () => Promise<unknown>, outcome: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await click().catch(() => undefined);
    try {
      await outcome();
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** Presses `button` in the open antd confirm dialog and waits until the dialog is gone (a click lost while it zoomed in is made again). */
export async function confirmDialog(page: Page, button: RegExp): Promise<void> {
  const box = page.locator('.ant-modal-confirm');
  await clickFor(
    () => box.getByRole('button', { name: button }).click({ timeout: 5000 }),
    () => box.waitFor({ state: 'detached', timeout: 5000 }),
  );
}
