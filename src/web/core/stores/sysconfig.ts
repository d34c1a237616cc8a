import { create } from 'zustand';
import { get } from '../request/request';

export interface SysConfigItem {
  configKey: string;
  configValue: string;
}

/** `[{configKey, configValue}]` → `{ key: value }` (spec §3 system configuration). */
export function toConfigMap(items: SysConfigItem[]): Record<string, string> {
  return Object.fromEntries(items.map((i) => [i.configKey, i.configValue]));
}

interface SysConfigState {
  map: Record<string, string>;
  loaded: boolean;
  load(): Promise<void>;
}

/** System configuration, loaded at start-up before login (htmlTitle, isDead, new-login flag, ...). */
export const useSysConfig = create<SysConfigState>((set) => ({
  map: {},
  loaded: false,
  async load() {
    try {
      const items = await get<SysConfigItem[]>('/api/sysConfig/listAll', undefined, { skipErrorNotify: true });
      set({ map: toConfigMap(items), loaded: true });
    } catch {
      set({ loaded: true }); // the app still works with its defaults
    }
  },
}));

export const configFlag = (key: string): boolean => useSysConfig.getState().map[key] === 'true';
/** A boolean setting in a component, re-rendered when it changes. */
export const useConfigFlag = (key: string): boolean => useSysConfig((s) => s.map[key] === 'true');
export const configValue = (key: string): string | undefined => useSysConfig.getState().map[key];
