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

/** App state of spec §3/§4: UI size, sidebar and device (desktop unless the window is narrower than 992). */
export const useApp = create<AppState>((set, get) => ({
  size: initialSize(),
  sidebar: { opened: savedSidebarOpened(), withoutAnimation: false },
  device: 'desktop',
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

export const deviceForWidth = (width: number): Device => (isMobileWidth(width) ? 'mobile' : 'desktop');
