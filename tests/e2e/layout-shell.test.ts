import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SCHOOL_CODES } from '../../src/shared/schools';
import { getSchoolInfo } from '../../src/shared/school-branding';
import { TOKEN_KEY } from '../../src/web/core/auth/token';
import { api, apiLogin, setSysConfig, storedSysConfig } from '../support/api.js';
import { chooseMenuItem, clickFor, launchBrowser, newPage, painted, webUrl } from '../support/browser.js';
import { appPath, createUser, signedIn, unique, visibleView, POLL } from './layout-helpers.js';

let browser: Browser;
let admin: string;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await apiLogin();
});
afterAll(() => browser?.close());

const cookie = async (page: Page, name: string) => (await page.context().cookies()).find((c) => c.name === name)?.value;
const sidebarWidth = (page: Page) => page.locator('.app-sidebar').evaluate((e) => getComputedStyle(e).width);
/** Height of the first antd button of the visible page view (a list page has several). */
const buttonHeight = (page: Page) => page.locator('.app-view:visible .ant-btn').first().evaluate((e) => e.getBoundingClientRect().height);

/** Runs `body` with system configuration `values` set, then puts the previous values back. */
async function withConfig(values: Record<string, string>, body: () => Promise<void>) {
  const previous: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(values)) previous[key] = await setSysConfig(admin, key, value);
  try {
    await body();
  } finally {
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) await api('DELETE', '/api/sysConfig/', [key], admin);
      else await setSysConfig(admin, key, value);
    }
  }
}

describe('sidebar and school branding', () => {
  it('[S2.L1a][S2.L2a][S4.L1][S9.L9a][S9.L6a][S3.E10d] the 205px sidebar with logo and menu collapses and expands with the hamburger; sidebarStatus keeps it across reloads', async () => {
    const page = await signedIn(browser, admin, '/party-member/info');
    expect(await page.locator('.sidebar-logo img').isVisible()).toBe(true);
    expect(await page.locator('.app-sidebar .ant-menu-item').count()).toBeGreaterThan(0);
    expect(await sidebarWidth(page)).toBe('205px');
    await page.locator('.hamburger').click();
    await expect.poll(() => sidebarWidth(page), POLL).toBe('54px');
    expect(await cookie(page, 'sidebarStatus')).toBe('0');
    await page.reload();
    await page.locator('.app-sidebar').waitFor();
    expect(await sidebarWidth(page)).toBe('54px');
    await page.locator('.hamburger').click();
    await expect.poll(() => sidebarWidth(page), POLL).toBe('205px');
    expect(await cookie(page, 'sidebarStatus')).toBe('1');
    await page.reload();
    await page.locator('.app-sidebar').waitFor();
    expect(await sidebarWidth(page)).toBe('205px');
    await page.context().close();
  });

  it('[S2.L1b] the expanded sidebar shows htmlExpandLogo and the collapsed one htmlLogo', async () => {
    await withConfig({ htmlLogo: '/web/schools/jsu.svg', htmlExpandLogo: '/web/schools/usc.svg' }, async () => {
      const page = await signedIn(browser, admin, '/dashboard');
      expect(await page.locator('.sidebar-logo img').getAttribute('src')).toBe('/web/schools/usc.svg');
      await page.locator('.hamburger').click();
      await expect.poll(() => page.locator('.sidebar-logo img').getAttribute('src'), POLL).toBe('/web/schools/jsu.svg');
      await page.context().close();
    });
  });

  it('[S1.S1][S1.S3][S1.S4] the school setting brands the layout: hntb by default, then school A, then B; only hnsoft shows the bank-school strip', async () => {
    // Without site logos the sidebar shows the school's own logo.
    await withConfig({ htmlLogo: '', htmlExpandLogo: '' }, async () => {
      const schoolConfigured = (await storedSysConfig(admin, 'school')) !== undefined;
      const page = await signedIn(browser, admin, '/dashboard');
      const brand = async () => ({
        name: await page.locator('.sidebar-school').innerText(),
        logo: await page.locator('.sidebar-logo img').getAttribute('src'),
        footer: await page.locator('.app-footer .footer-school').innerText(),
        strip: await page.locator('.sidebar-bank-strip img').count(),
      });
      const expected = (code: string) => {
        const info = getSchoolInfo(code);
        return { name: info.schoolName, logo: info.schoolLogo, footer: info.footerTxt, strip: info.bankStrip ? 1 : 0 };
      };
      if (!schoolConfigured) expect(await brand()).toEqual(expected('hntb'));
      await withConfig({ school: 'jsu' }, async () => {
        await page.reload();
        await page.locator('.sidebar-school').waitFor();
        expect(await brand()).toEqual(expected('jsu'));
        for (const code of ['usc', ...SCHOOL_CODES]) {
          await setSysConfig(admin, 'school', code);
          await page.reload();
          await page.locator('.sidebar-school').waitFor();
          expect(await brand(), code).toEqual(expected(code));
          expect(await brand().then((b) => b.strip), code).toBe(code === 'hnsoft' ? 1 : 0);
        }
      });
      await page.context().close();
    });
  });
});

/**
 * Opens the size menu (its own dropdown: another menu still closing is not it) and answers its sizes and the
 * one selected, read while it shows; a menu that closed again at once (a click on a loaded machine) is opened again.
 */
async function openSizeMenu(page: Page): Promise<{ sizes: (string | null)[]; selected: string | null }> {
  for (let attempt = 1; ; attempt++) {
    await page.locator('.size-dropdown:visible').waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
    await page.locator('.size-select').click();
    await page.locator('.size-dropdown:visible [data-size]').first().waitFor();
    const read = await page.evaluate(() => {
      const menu = [...document.querySelectorAll<HTMLElement>('.size-dropdown')].find((e) => e.checkVisibility());
      return {
        sizes: [...(menu?.querySelectorAll('[data-size]') ?? [])].map((e) => e.getAttribute('data-size')),
        selected: menu?.querySelector('.ant-dropdown-menu-item-selected [data-size]')?.getAttribute('data-size') ?? null,
      };
    });
    if (read.sizes.length || attempt === 3) return read;
  }
}

/**
 * Chooses a size; a click that landed while the menu still animated, or a menu that closed before it (the
 * layout re-rendering after the last choice), chose nothing: the cookie tells, and it is tried again.
 */
async function chooseSize(page: Page, size: string) {
  await clickFor(
    async () => {
      await openSizeMenu(page);
      await page.locator(`.size-dropdown:visible [data-size="${size}"]`).click({ timeout: 5000 });
    },
    () => expect.poll(() => cookie(page, 'size'), { timeout: 5000 }).toBe(size),
  );
}

describe('navbar controls', () => {
  it('[a11y] menus and dialogs animate, unless the system asks for reduced motion (then they open at once)', async () => {
    /**
     * The animations (…-active classes) the size menu and the logout dialog ran while opening. Without motion
     * antd still passes the popup through its prepare step (…-appear-prepare: it is aligned there), but never runs one.
     */
    const motionClasses = async (reducedMotion: 'reduce' | 'no-preference') => {
      const page = await signedIn(browser, admin, '/dashboard', { reducedMotion });
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { seen: string[] }).seen = seen;
        new MutationObserver((records) => {
          for (const r of records) {
            // A popup may be inserted with its motion class already set: read the added elements too.
            const elements = [r.target, ...r.addedNodes].filter((n): n is Element => n instanceof Element);
            for (const el of elements) for (const name of el.classList) if (/-(enter|appear|leave)-active$/.test(name) && el.closest('.size-dropdown, .ant-modal-root')) seen.push(name);
          }
        }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
      });
      await page.locator('.size-select').click();
      await page.locator('.size-dropdown:visible [data-size]').first().waitFor();
      await page.keyboard.press('Escape');
      await chooseMenuItem(page, page.locator('.user-button'), '退出登录');
      await page.locator('.ant-modal-confirm').waitFor();
      await expect.poll(() => page.locator('.ant-modal-confirm').evaluate((e) => e.getBoundingClientRect().width), POLL).toBeGreaterThan(300);
      const seen = await page.evaluate(() => [...new Set((window as unknown as { seen: string[] }).seen)]);
      await page.context().close();
      return seen;
    };
    expect(await motionClasses('reduce')).toEqual([]);
    const animated = await motionClasses('no-preference');
    expect(animated).toContain('ant-slide-up-appear-active'); // the menu
    expect(animated).toContain('ant-zoom-appear-active'); // the dialog
  });

  it('[S2.L2d][S8.E12] the fullscreen toggle enters and leaves fullscreen; a warning where the browser does not support it', async () => {
    const page = await signedIn(browser, admin, '/dashboard');
    await page.locator('.fullscreen-toggle').click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement !== null), POLL).toBe(true);
    await page.locator('.fullscreen-toggle').click();
    await expect.poll(() => page.evaluate(() => document.fullscreenElement === null), POLL).toBe(true);
    await page.context().close();

    const unsupported = await newPage(browser);
    await unsupported.addInitScript(() => Object.defineProperty(Document.prototype, 'fullscreenEnabled', { get: () => false }));
    await unsupported.context().addCookies([{ name: TOKEN_KEY, value: admin, url: webUrl('/') }]);
    await unsupported.goto(webUrl('/dashboard'));
    await unsupported.locator('.fullscreen-toggle').click();
    await unsupported.locator('.ant-message-notice', { hasText: '您的浏览器不支持全屏' }).waitFor();
    expect(await unsupported.evaluate(() => document.fullscreenElement)).toBeNull();
    await unsupported.context().close();
  });

  it('[S2.L2e][S9.L6d][S4.L5a][S4.L5b][S9.L6c][S9.L9b][S8.E13] size selector: default, medium, small, mini; small without a cookie; a choice is saved in the size cookie and survives a reload', async () => {
    const page = await signedIn(browser, admin, '/system/users');
    await visibleView(page, '/system/users');
    expect(await cookie(page, 'size')).toBeUndefined();
    // Polled: the list's buttons settle after the view shows (a loaded machine).
    await expect.poll(() => buttonHeight(page), POLL).toBe(24); // antd small
    expect(await openSizeMenu(page)).toEqual({ sizes: ['default', 'medium', 'small', 'mini'], selected: 'small' });
    await page.keyboard.press('Escape');
    await chooseSize(page, 'mini');
    await page.locator('.ant-message-notice', { hasText: '布局设置成功' }).waitFor();
    expect(await cookie(page, 'size')).toBe('mini');
    await expect.poll(() => buttonHeight(page), POLL).toBeLessThan(24);
    await page.reload();
    await visibleView(page, '/system/users');
    await expect.poll(() => buttonHeight(page), POLL).toBeLessThan(24);
    for (const [size, height] of [['default', 40], ['medium', 32], ['small', 24]] as const) {
      await chooseSize(page, size);
      await expect.poll(() => buttonHeight(page), { ...POLL, message: size }).toBe(height);
    }
    await page.context().close();

    const preset = await newPage(browser);
    await preset.context().addCookies([{ name: TOKEN_KEY, value: admin, url: webUrl('/') }, { name: 'size', value: 'medium', url: webUrl('/') }]);
    await preset.goto(webUrl('/system/users'));
    await visibleView(preset, '/system/users');
    await expect.poll(() => buttonHeight(preset), POLL).toBe(32);
    await preset.context().close();
  });

  it('[S9.L6b] primary buttons render the default theme colour #409EFF', async () => {
    const page = await signedIn(browser, admin, '/system/users');
    await visibleView(page, '/system/users');
    expect(await page.locator('.app-view:visible .ant-btn-primary').first().evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(64, 158, 255)');
    await page.context().close();
  });
});

describe('settings drawer and footer', () => {
  const setting = (page: Page, key: string) => page.locator(`.settings-drawer [data-setting="${key}"]`);
  const openSettings = async (page: Page) => {
    await page.locator('.settings-toggle').click();
    await page.locator('.settings-drawer .ant-drawer-title').waitFor();
  };
  const closeSettings = async (page: Page) => {
    await page.locator('.settings-drawer .ant-drawer-close').click();
    await page.locator('.settings-drawer').waitFor({ state: 'hidden' });
  };

  it('[S2.L7a][S2.L7b][S2.L7c][S2.L7e] the 系统布局设置 drawer: theme colour, show tags, show logo; kept per browser', async () => {
    const page = await signedIn(browser, admin, '/system/users');
    await visibleView(page, '/system/users');
    await openSettings(page);
    expect(await page.locator('.settings-drawer .ant-drawer-title').innerText()).toBe('系统布局设置');

    await page.getByRole('radio', { name: '#c8161d' }).click();
    expect(await page.getByRole('radio', { name: '#c8161d' }).getAttribute('aria-checked')).toBe('true');
    await expect.poll(() => page.locator('.app-view:visible .ant-btn-primary').first().evaluate((e) => getComputedStyle(e).backgroundColor), POLL).toBe('rgb(200, 22, 29)');
    // Polled: the tag fades to the new colour (its own 0.2 s transition).
    await expect.poll(() => page.locator('.tags-view-item.active').evaluate((e) => getComputedStyle(e).backgroundColor), POLL).toBe('rgb(200, 22, 29)');
    // Any other colour through the browser's colour input.
    await page.getByLabel('自定义颜色').fill('#2f54eb');
    await expect.poll(() => page.locator('.app-view:visible .ant-btn-primary').first().evaluate((e) => getComputedStyle(e).backgroundColor), POLL).toBe('rgb(47, 84, 235)');
    await page.getByRole('radio', { name: '#c8161d' }).click();

    await setting(page, 'tagsView').click();
    await expect.poll(() => page.locator('.tags-view').count(), POLL).toBe(0);
    await setting(page, 'tagsView').click();
    await page.locator('.tags-view').waitFor();

    await setting(page, 'sidebarLogo').click();
    await expect.poll(() => page.locator('.sidebar-logo').count(), POLL).toBe(0);
    await page.reload();
    await visibleView(page, '/system/users');
    expect(await page.locator('.sidebar-logo').count()).toBe(0);
    expect(await page.locator('.app-view:visible .ant-btn-primary').first().evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(200, 22, 29)');
    await page.context().close();
  });

  it('[S2.L7d] fixed header: the navbar stays at the top while the content scrolls; off, it scrolls away', async () => {
    const page = await signedIn(browser, admin, '/system/users', { viewport: { width: 1366, height: 360 } });
    await visibleView(page, '/system/users');
    const navbarTop = async () => {
      await page.evaluate(() => window.scrollTo(0, 300));
      await painted(page);
      return page.locator('.navbar').evaluate((e) => e.getBoundingClientRect().top);
    };
    expect(await navbarTop()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await openSettings(page);
    await setting(page, 'fixedHeader').click();
    await closeSettings(page);
    expect(await navbarTop()).toBeLessThan(0);
    await page.context().close();
  });

  it('[S2.L7f] menu unique-opened: opening submenu B closes A; switched off, both stay open', async () => {
    const page = await signedIn(browser, admin, '/party-org/org');
    const submenu = (title: string) => page.locator('.app-sidebar .ant-menu-submenu', { hasText: title });
    const isOpen = (title: string) => submenu(title).evaluate((e) => e.classList.contains('ant-menu-submenu-open'));
    await submenu('换届选举').locator('.ant-menu-submenu-title').click();
    await expect.poll(() => isOpen('换届选举'), POLL).toBe(true);
    await submenu('基础数据').locator('.ant-menu-submenu-title').click();
    await expect.poll(() => isOpen('基础数据'), POLL).toBe(true);
    await expect.poll(() => isOpen('换届选举'), POLL).toBe(false);
    await openSettings(page);
    await setting(page, 'uniqueOpened').click();
    await closeSettings(page);
    await submenu('换届选举').locator('.ant-menu-submenu-title').click();
    await expect.poll(() => isOpen('换届选举'), POLL).toBe(true);
    expect(await isOpen('基础数据')).toBe(true);
    await page.context().close();
  });

  const DIRTY_FOOTER = '<b>页脚</b><img src="x" alt="备案" onerror="window.__xss=1"><script>window.__xss=2</script><style>body{display:none}</style><a href="javascript:window.__xss=3">x</a>';
  const expectCleanFooter = async (page: Page) => {
    await page.locator('.app-footer .foot-html b').waitFor();
    expect(await page.locator('.app-footer .foot-html b').innerText()).toBe('页脚');
    expect(await page.locator('.app-footer .foot-html img').getAttribute('alt')).toBe('备案');
    expect(await page.locator('.app-footer .foot-html').innerHTML()).not.toMatch(/onerror|script|<style|javascript:/);
    // The image has failed to load (its error event, which an onerror left behind would have used, has fired).
    await page.locator('.app-footer .foot-html img').evaluate((img: HTMLImageElement) => img.complete || new Promise((r) => img.addEventListener('error', r, { once: true })));
    await painted(page);
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('body').isVisible()).toBe(true);
  };

  it('[S2.L6] footHtml is rendered sanitised (the browser sanitizer) while the footer is on; switched off, there is no footer', async () => {
    await withConfig({ footHtml: DIRTY_FOOTER }, async () => {
      const page = await signedIn(browser, admin, '/dashboard');
      expect(await page.evaluate(() => 'setHTML' in Element.prototype)).toBe(true);
      await expectCleanFooter(page);
      await openSettings(page);
      await setting(page, 'showFooter').click();
      await expect.poll(() => page.locator('.app-footer').count(), POLL).toBe(0);
      await page.context().close();
    });
  });

  it('[S2.L6] a browser without Element.setHTML sanitises footHtml with DOMPurify', async () => {
    await withConfig({ footHtml: DIRTY_FOOTER }, async () => {
      const page = await newPage(browser);
      await page.addInitScript(() => delete (Element.prototype as { setHTML?: unknown }).setHTML);
      await page.context().addCookies([{ name: TOKEN_KEY, value: admin, url: inject('baseUrl') }]);
      await page.goto(webUrl('/dashboard'));
      expect(await page.evaluate(() => 'setHTML' in Element.prototype)).toBe(false);
      await expectCleanFooter(page);
      await page.context().close();
    });
  });
});

describe('mobile layout (spec §4)', () => {
  const isMobile = (page: Page) => page.locator('.app-layout').evaluate((e) => e.classList.contains('is-mobile'));
  const drawerOpen = (page: Page) => page.locator('.sidebar-drawer').isVisible();

  it('[S2.L8a][S4.L3][S9.L4a] below width 992 the layout is mobile: 991 mobile, 992 desktop', async () => {
    const page = await signedIn(browser, admin, '/dashboard', { viewport: { width: 992, height: 700 } });
    expect(await isMobile(page)).toBe(false);
    await page.setViewportSize({ width: 991, height: 700 });
    await expect.poll(() => isMobile(page), POLL).toBe(true);
    expect(await page.locator('.app-sidebar').count()).toBe(0);
    await page.setViewportSize({ width: 992, height: 700 });
    await expect.poll(() => isMobile(page), POLL).toBe(false);
    await page.context().close();
  });

  it('[S2.L8b][S4.L4b] on mobile the sidebar closes after navigating from it; [S4.L4a] resizing into mobile force-closes it', async () => {
    const page = await signedIn(browser, admin, '/party-member/info', { viewport: { width: 800, height: 700 } });
    await page.locator('.hamburger').click();
    await expect.poll(() => drawerOpen(page), POLL).toBe(true);
    await page.locator('.sidebar-drawer .ant-menu-item', { hasText: '党员花名册' }).click();
    await page.waitForURL(/\/web\/party-member\/roster$/);
    await expect.poll(() => drawerOpen(page), POLL).toBe(false);
    await page.context().close();

    const desktop = await signedIn(browser, admin, '/dashboard');
    expect(await sidebarWidth(desktop)).toBe('205px');
    await desktop.setViewportSize({ width: 800, height: 700 });
    await expect.poll(() => isMobile(desktop), POLL).toBe(true);
    expect(await drawerOpen(desktop)).toBe(false);
    await desktop.context().close();
  });
});

describe('dialogs (spec §9)', () => {
  it('[S9.L7a] neither Escape nor a click outside closes the change-password dialog or the logout confirm', async () => {
    const weak = await createUser(admin, `lay${unique()}`, ['regulation:list'], true);
    const page = await signedIn(browser, weak.token, '/');
    const dialog = page.locator('.ant-modal', { hasText: '为了您的账号安全' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await page.mouse.click(8, 8);
    await painted(page);
    expect(await dialog.isVisible()).toBe(true);
    await page.context().close();

    const adminPage = await signedIn(browser, admin, '/dashboard');
    await chooseMenuItem(adminPage, adminPage.locator('.user-button'), '退出登录');
    const confirm = adminPage.locator('.ant-modal-confirm');
    await confirm.waitFor();
    await adminPage.keyboard.press('Escape');
    await adminPage.mouse.click(8, 8);
    await painted(adminPage);
    expect(await confirm.isVisible()).toBe(true);
    await confirm.getByRole('button', { name: /取\s*消/ }).click();
    expect(appPath(adminPage)).toBe('/dashboard');
    await adminPage.context().close();
  });
});
