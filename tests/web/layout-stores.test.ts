import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BADGE_MAX, DEFAULT_SIZE, DEFAULT_THEME, REMIND_COUNTER_DELAY, SIDEBAR_WIDTH, badgeTotal, isMobileWidth } from '../../src/shared/constants';
import { defaultSettings } from '../../src/shared/school-branding';
import { endpoints } from '../../src/web/core/config/endpoints';
import { antdSizeOf } from '../../src/web/core/layout/ThemedConfigProvider';
import { pushUrl } from '../../src/web/core/layout/push';
import { request } from '../../src/web/core/request/request';
import { deviceForWidth, initialSize, useApp } from '../../src/web/core/stores/app';
import { COUNTER_URLS, START_LIST_URLS, startCounterPolling, useCounters } from '../../src/web/core/stores/counters';
import { usePermission } from '../../src/web/core/stores/permission';
import { LAYOUT_SETTING_KEYS, SETTINGS_STORAGE_KEY, schoolOf, useSettings } from '../../src/web/core/stores/settings';
import { NO_NAME, useTags } from '../../src/web/core/stores/tags';

const appInitial = useApp.getState();
const tagsInitial = useTags.getState();

beforeEach(() => {
  useApp.setState(appInitial, true);
  useTags.setState(tagsInitial, true);
  Cookies.remove('sidebarStatus');
  Cookies.remove('size');
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('app store (spec §3 client state, §4 layout)', () => {
  it('[S3.E15d] exposes size, sidebar {opened, withoutAnimation} and device; [S4.L3] the device starts as desktop', () => {
    const s = useApp.getState();
    expect(s.size).toBe(DEFAULT_SIZE);
    expect(s.sidebar).toEqual({ opened: true, withoutAnimation: false });
    expect(s.device).toBe('desktop');
  });

  it('[S4.L2] the close action takes a without-animation flag and stores it in sidebar.withoutAnimation', () => {
    useApp.getState().closeSidebar(true);
    expect(useApp.getState().sidebar).toEqual({ opened: false, withoutAnimation: true });
    useApp.getState().toggleSidebar();
    useApp.getState().closeSidebar(false);
    expect(useApp.getState().sidebar).toEqual({ opened: false, withoutAnimation: false });
  });

  it('[S4.L1][S9.L9a] toggling saves 1 (opened) or 0 (collapsed) in the sidebarStatus cookie', () => {
    useApp.getState().toggleSidebar();
    expect(useApp.getState().sidebar.opened).toBe(false);
    expect(Cookies.get('sidebarStatus')).toBe('0');
    useApp.getState().toggleSidebar();
    expect(Cookies.get('sidebarStatus')).toBe('1');
  });

  it('[S4.L3][S9.L4a] under width 992 the device is mobile: 991 mobile, 992 desktop; back on desktop the saved sidebar choice returns', () => {
    expect(isMobileWidth(991)).toBe(true);
    expect(isMobileWidth(992)).toBe(false);
    expect(deviceForWidth(991)).toBe('mobile');
    expect(deviceForWidth(992)).toBe('desktop');
    useApp.getState().toggleDevice('mobile');
    useApp.getState().closeSidebar(true);
    useApp.getState().toggleDevice('desktop');
    expect(useApp.getState().sidebar.opened).toBe(true);
  });

  it('[S4.L5a][S9.L6c][S9.L9b] the size is small without a cookie and the cookie value when one exists; setSize writes the size cookie', () => {
    expect(initialSize()).toBe('small');
    Cookies.set('size', 'medium');
    expect(initialSize()).toBe('medium');
    Cookies.set('size', 'huge');
    expect(initialSize()).toBe('small');
    useApp.getState().setSize('mini');
    expect(Cookies.get('size')).toBe('mini');
    expect(useApp.getState().size).toBe('mini');
  });

  it('[S2.L2e][S9.L6d] each of the four sizes maps to a different antd size', () => {
    expect(antdSizeOf('default')).toEqual({ componentSize: 'large', compact: false });
    expect(antdSizeOf('medium')).toEqual({ componentSize: 'middle', compact: false });
    expect(antdSizeOf('small')).toEqual({ componentSize: 'small', compact: false });
    expect(antdSizeOf('mini')).toEqual({ componentSize: 'small', compact: true });
  });
});

describe('settings store (spec §3 site settings)', () => {
  it('[S3.E10a][S3.E10b] holds the 12 site-settings fields with tokenCookieExpires and passCookieExpires 1', () => {
    const s = useSettings.getState();
    for (const key of ['title', 'tagsView', 'fixedHeader', 'tokenCookieExpires', 'passCookieExpires', 'uniqueOpened', 'sidebarLogo', 'showFooter', 'school', 'footerTxt', 'caseNumber', 'schoolInfo'] as const) {
      expect(s).toHaveProperty(key);
    }
    expect(s.tokenCookieExpires).toBe(1);
    expect(s.passCookieExpires).toBe(1);
  });

  it('[S3.E10c] every schoolInfo entry has school, schoolName, schoolLogo, footerTxt; [S3.E10d] sidebar colours and width 205', () => {
    const s = useSettings.getState();
    expect(s.schoolInfo).toHaveLength(11);
    for (const info of s.schoolInfo) for (const key of ['school', 'schoolName', 'schoolLogo', 'footerTxt'] as const) expect(info[key]).toBeTruthy();
    expect(s.sidebarWidth).toBe(SIDEBAR_WIDTH);
    expect(SIDEBAR_WIDTH).toBe(205);
    for (const colour of [s.menuBg, s.menuText, s.menuActiveText, s.subMenuBg, s.subMenuHover]) expect(colour).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it('[S9.L6b] the theme colour defaults to #409EFF', () => {
    expect(DEFAULT_THEME).toBe('#409EFF');
    expect(useSettings.getState().theme).toBe('#409EFF');
  });

  it('[S1.S3] with no school configured the school is hntb; a configured code gives its own branding, an unknown one the default', () => {
    expect(useSettings.getState().school).toBe('hntb');
    expect(schoolOf(undefined).school).toBe('hntb');
    expect(schoolOf('').school).toBe('hntb');
    expect(schoolOf('jsu').school).toBe('jsu');
    expect(schoolOf('jsu').schoolName).not.toBe(schoolOf(undefined).schoolName);
    expect(schoolOf('nowhere').school).toBe('hntb');
  });

  it('keeps the drawer settings per browser in localStorage (and only those)', () => {
    useSettings.getState().changeSetting('tagsView', false);
    useSettings.getState().changeSetting('theme', '#c8161d');
    const stored = JSON.parse(localStorage.getItem(SETTINGS_STORAGE_KEY)!).state as Record<string, unknown>;
    expect(stored).toEqual({ ...Object.fromEntries(LAYOUT_SETTING_KEYS.map((k) => [k, useSettings.getState()[k]])), tagsView: false, theme: '#c8161d' });
    expect(stored).not.toHaveProperty('schoolInfo');
    useSettings.getState().resetSettings();
    expect(useSettings.getState().tagsView).toBe(defaultSettings.tagsView);
    expect(useSettings.getState().theme).toBe(DEFAULT_THEME);
  });
});

describe('tags store (spec §3 open-tab entry, §2 tags view)', () => {
  const view = (path: string, meta: { title?: string; affix?: boolean; noCache?: boolean } = {}, name = path.slice(1)) => ({ path, name, meta });

  it('[S3.E6] a stored entry has path, title, meta.affix, meta.noCache and name; [S3.E15c] visited and cached views are exposed', () => {
    useTags.getState().addView({ ...view('/a', { title: '甲', affix: false, noCache: false }), fullPath: '/a?x=1' });
    const [entry] = useTags.getState().visitedViews;
    expect(entry).toMatchObject({ path: '/a', title: '甲', name: 'a', meta: { affix: false, noCache: false } });
    expect(Object.keys(entry).sort()).toEqual(['fullPath', 'meta', 'name', 'path', 'title']);
    expect(useTags.getState().cachedViews).toEqual(['a']);
  });

  it("[S2.L5j] a view without meta.title gets the title 'no-name'", () => {
    useTags.getState().addView(view('/untitled'));
    expect(useTags.getState().visitedViews[0].title).toBe(NO_NAME);
    expect(NO_NAME).toBe('no-name');
  });

  it('[S2.L5h] a path is added once whatever its query; the tag keeps the latest query', () => {
    const tags = useTags.getState();
    tags.addView({ ...view('/a', { title: '甲' }), fullPath: '/a?page=1' });
    tags.addView({ ...view('/a', { title: '甲' }), fullPath: '/a?page=2' });
    tags.addView(view('/a', { title: '甲' }));
    expect(useTags.getState().visitedViews).toHaveLength(1);
    expect(useTags.getState().visitedViews[0].fullPath).toBe('/a');
    expect(useTags.getState().cachedViews).toEqual(['a']);
  });

  it('[S2.L5i] noCache views are visited but never cached', () => {
    useTags.getState().addView(view('/pschool', { title: '党校', noCache: true }));
    expect(useTags.getState().visitedViews).toHaveLength(1);
    expect(useTags.getState().cachedViews).toEqual([]);
  });

  it('[S2.L5d][S2.L5e][S2.L5f][S2.L5g] close, close others and close all; affix tags survive all of them', () => {
    const tags = useTags.getState();
    tags.addView(view('/dashboard', { title: '首页', affix: true }));
    for (const p of ['/a', '/b', '/c']) tags.addView(view(p, { title: p }));
    const paths = () => useTags.getState().visitedViews.map((v) => v.path);

    tags.delView({ path: '/dashboard', name: 'dashboard' });
    expect(paths()).toContain('/dashboard');
    tags.delView({ path: '/a', name: 'a' });
    expect(paths()).toEqual(['/dashboard', '/b', '/c']);
    expect(useTags.getState().cachedViews).toEqual(['dashboard', 'b', 'c']);

    tags.delOthersViews({ path: '/c', name: 'c' });
    expect(paths()).toEqual(['/dashboard', '/c']);
    expect(useTags.getState().cachedViews).toEqual(['dashboard', 'c']);

    tags.delAllViews();
    expect(paths()).toEqual(['/dashboard']);
  });

  it('[S2.L5c] refresh drops only the cached instance; the tag stays', () => {
    useTags.getState().addView(view('/a', { title: '甲' }));
    useTags.getState().delCachedView({ name: 'a' });
    expect(useTags.getState().visitedViews).toHaveLength(1);
    expect(useTags.getState().cachedViews).toEqual([]);
  });

  it("a new user's sign-in drops the previous user's tags", () => {
    useTags.getState().claim(1);
    useTags.getState().addView(view('/a', { title: '甲' }));
    useTags.getState().claim(1);
    expect(useTags.getState().visitedViews).toHaveLength(1);
    useTags.getState().claim(2);
    expect(useTags.getState().visitedViews).toEqual([]);
  });
});

describe('client state members (spec §3)', () => {
  it('[S3.E15a] the permission store exposes routers, sidebarRouters, topbarRouters, addRouters and extraPath', () => {
    const s = usePermission.getState();
    for (const key of ['routers', 'sidebarRouters', 'topbarRouters', 'addRouters', 'extraPath'] as const) expect(s).toHaveProperty(key);
  });

  it('[S3.E15b] the endpoint URLs for uploads, file view and the push channel are exposed', () => {
    expect(endpoints.fileUpload).toBe('/api/file/upload');
    expect(endpoints.fileView).toMatch(/^\/api\/file\/view/);
    expect(endpoints.websocket).toBe('/websocket');
    expect(pushUrl('a b', { protocol: 'https:', host: 'x.edu.cn' })).toBe('wss://x.edu.cn/websocket?token=a%20b');
    expect(pushUrl('t', { protocol: 'http:', host: 'h:8080' })).toBe('ws://h:8080/websocket?token=t');
  });
});

describe('badge counters (spec §3, §4)', () => {
  it('[S2.L3f][S9.L4b] the total badge is remind + todo, capped at 99', () => {
    expect(badgeTotal(3, 4)).toBe(7);
    expect(badgeTotal(60, 50)).toBe(99);
    expect(badgeTotal(150, 0)).toBe(BADGE_MAX);
  });

  /** Replaces the request layer's GET with a recorder answering `{ totalElements }`. */
  function recordGets(totals: Record<string, number> = {}) {
    const calls: { url: string; at: number }[] = [];
    vi.spyOn(request, 'get').mockImplementation(async (url: string) => {
      calls.push({ url, at: Date.now() });
      return { data: { totalElements: totals[url] ?? 1, content: [] } } as never;
    });
    return calls;
  }

  it('[S4.C1] the todo counter is fetched first after 10 s and then every 180 s', async () => {
    vi.useFakeTimers({ now: 0 });
    const calls = recordGets();
    const stop = startCounterPolling();
    const todoAt = () => calls.filter((c) => c.url === COUNTER_URLS.todo).map((c) => c.at / 1000);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(todoAt()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(todoAt()).toEqual([10]);
    await vi.advanceTimersByTimeAsync(550_000);
    expect(todoAt()).toEqual([10, 190, 370, 550]);
    stop();
    await vi.advanceTimersByTimeAsync(1_000_000);
    expect(todoAt()).toHaveLength(4);
  });

  it('[S4.C2] the remind counter is fetched first after 5 s and then every 120 s', async () => {
    vi.useFakeTimers({ now: 0 });
    const calls = recordGets({ [COUNTER_URLS.remind]: 6 });
    const stop = startCounterPolling();
    const remindAt = () => calls.filter((c) => c.url === COUNTER_URLS.remind).map((c) => c.at / 1000);
    await vi.advanceTimersByTimeAsync(REMIND_COUNTER_DELAY - 1);
    expect(remindAt()).toEqual([]);
    await vi.advanceTimersByTimeAsync(365_001);
    expect(remindAt()).toEqual([5, 125, 245, 365]);
    expect(useCounters.getState().remind.totalElements).toBe(6);
    stop();
  });

  it('[S7.MS3] at start the reminders and open to-dos are loaded and their totals fill the badges', async () => {
    const calls = recordGets({ [START_LIST_URLS.reminders]: 3, [START_LIST_URLS.todos]: 4 });
    await useCounters.getState().loadAtStart();
    expect(calls.map((c) => c.url).sort()).toEqual([START_LIST_URLS.reminders, START_LIST_URLS.todos].sort());
    expect(useCounters.getState().remind.totalElements).toBe(3);
    expect(useCounters.getState().todo.totalElements).toBe(4);
  });

  it('a failing counter request keeps the last value; pushed counters replace both', async () => {
    useCounters.getState().setCounters({ todo: { totalElements: 2 }, remind: { totalElements: 5 } });
    vi.spyOn(request, 'get').mockRejectedValue(new Error('down'));
    await useCounters.getState().fetchTodo();
    expect(useCounters.getState().todo.totalElements).toBe(2);
    useCounters.getState().setCounters({ todo: { totalElements: 9 }, remind: { totalElements: 'x' as never } });
    expect(useCounters.getState().todo.totalElements).toBe(9);
    expect(useCounters.getState().remind.totalElements).toBe(5);
  });
});
