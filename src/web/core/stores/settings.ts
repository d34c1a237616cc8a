import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { DEFAULT_THEME } from '../../../shared/constants';
import { defaultSettings, getSchoolInfo, type SchoolInfo, type SiteSettings } from '../../../shared/school-branding';
import { useSysConfig } from './sysconfig';

/** What the settings drawer changes; kept per browser in localStorage. */
export interface LayoutSettings {
  theme: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  uniqueOpened: boolean;
  showFooter: boolean;
}

export const LAYOUT_SETTING_KEYS = ['theme', 'tagsView', 'fixedHeader', 'sidebarLogo', 'uniqueOpened', 'showFooter'] as const;

export const SETTINGS_STORAGE_KEY = 'dj-layout-settings';

interface SettingsState extends SiteSettings, LayoutSettings {
  changeSetting<K extends keyof LayoutSettings>(key: K, value: LayoutSettings[K]): void;
  resetSettings(): void;
}

const layoutDefaults = (): LayoutSettings => ({
  theme: DEFAULT_THEME,
  tagsView: defaultSettings.tagsView,
  fixedHeader: defaultSettings.fixedHeader,
  sidebarLogo: defaultSettings.sidebarLogo,
  uniqueOpened: defaultSettings.uniqueOpened,
  showFooter: defaultSettings.showFooter,
});

/** Site settings of spec §3 (defaults from school-branding) plus the layout choices of the settings drawer. */
export const useSettings = create<SettingsState>()(
  persist(
    (set) => ({
      ...defaultSettings,
      ...layoutDefaults(),
      changeSetting(key, value) {
        set({ [key]: value } as Partial<LayoutSettings>);
      },
      resetSettings() {
        set(layoutDefaults());
      },
    }),
    {
      name: SETTINGS_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (s) => Object.fromEntries(LAYOUT_SETTING_KEYS.map((k) => [k, s[k]])) as Partial<LayoutSettings>,
    },
  ),
);

/**
 * The deployment's school: system configuration key `school` (the server's SCHOOL), else the site
 * settings' default (hntb). Unknown codes fall back to the default school as well.
 */
export function schoolOf(configSchool: string | undefined): SchoolInfo {
  return getSchoolInfo(configSchool?.trim() || useSettings.getState().school);
}

export function useSchool(): SchoolInfo {
  return schoolOf(useSysConfig((s) => s.map.school));
}
