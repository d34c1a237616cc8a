import Cookies from 'js-cookie';
import { create } from 'zustand';
import { DEFAULT_SIZE, SIDEBAR_STATUS_COOKIE, SIZE_COOKIE, SIZE_OPTIONS, isMobileWidth, type UiSize } from '../../../shared/constants';

export type Device = 'desktop' | 'mobile';

export interface SidebarState {
  opened: boolean;
  /** True when the last close should not animate (forced closes on mobile). */
  withoutAnimation: boolean;
}

interface AppState {
  size: UiSize;
  sidebar: SidebarState;
  device: Device;
  toggleSidebar(): void;
  closeSidebar(withoutAnimation?: boolean): void;
  toggleDevice(device: Device): void;
  setSize(size: UiSize): void;
}

const isUiSize = (value: string | undefined): value is UiSize => (SIZE_OPTIONS as readonly string[]).includes(value ?? '');

/** The UI size: the `size` cookie when it holds a known size, else small (spec §4). */
export function initialSize(): UiSize {
  const saved = Cookies.get(SIZE_COOKIE);
  return isUiSize(saved) ? saved : DEFAULT_SIZE;
}

/** The user's sidebar choice from the `sidebarStatus` cookie (1 opened, 0 collapsed); opened when unset. */
export function savedSidebarOpened(): boolean {
  const saved = Cookies.get(SIDEBAR_STATUS_COOKIE);
  return saved === undefined ? true : saved === '1';
}

export const deviceForWidth = (width: number): Device => (isMobileWidth(width) ? 'mobile' : 'desktop');

/**
 * Desktop by default; a window already narrower than 992 starts as mobile, so a phone never renders the
 * desktop layout first (its overflow would make the browser widen the page and stay on desktop).
 */
function initialDevice(): Device {
  return typeof window === 'undefined' ? 'desktop' : deviceForWidth(window.innerWidth);
}

/** App state of spec §3/§4: UI size, sidebar and device (desktop unless the window is narrower than 992). */
export const useApp = create<AppState>((set, get) => ({
  size: initialSize(),
  sidebar: { opened: initialDevice() === 'desktop' && savedSidebarOpened(), withoutAnimation: false },
  device: initialDevice(),
  toggleSidebar() {
    const opened = !get().sidebar.opened;
    Cookies.set(SIDEBAR_STATUS_COOKIE, opened ? '1' : '0');
    set({ sidebar: { opened, withoutAnimation: false } });
  },
  // A forced close (mobile navigation or resize) is not the user's choice: the cookie keeps their setting.
  closeSidebar(withoutAnimation = false) {
    set({ sidebar: { opened: false, withoutAnimation } });
  },
  toggleDevice(device) {
    if (device === get().device) return;
    // Back on a desktop width the sidebar takes the user's saved choice again.
    set(device === 'desktop' ? { device, sidebar: { opened: savedSidebarOpened(), withoutAnimation: true } } : { device });
  },
  setSize(size) {
    Cookies.set(SIZE_COOKIE, size);
    set({ size });
  },
}));

let lastWidth = -1;

/**
 * Spec §4: the device follows the window width (the viewport width, as CSS media queries count it); on
 * mobile the sidebar is force-closed when the width changes. Height-only resizes (a phone's address bar)
 * leave an open drawer alone.
 */
export function syncDeviceWithWindow(): void {
  if (document.hidden || window.innerWidth === lastWidth) return;
  lastWidth = window.innerWidth;
  const device = deviceForWidth(window.innerWidth);
  const app = useApp.getState();
  app.toggleDevice(device);
  if (device === 'mobile') app.closeSidebar(true);
}

// Listening from the start (not from the layout's first effect) catches a phone's early resize to its
// device width before the layout renders, so it never renders the desktop layout first.
if (typeof window !== 'undefined') window.addEventListener('resize', syncDeviceWithWindow);
