import { PIN_MAX_TRIES } from '../../../shared/constants';

/** localStorage key of the remaining PIN tries, one count per device id. */
export const UKEY_TRIES_KEY = 'dj-ukey-tries';

/** The PIN prompt of spec §4 step 3, with the remaining tries. */
export const pinPrompt = (tries: number) => `请输入Pin码确认身份，最多还可尝试${tries}次`;

export interface TriesStore {
  /** Remaining tries of a device: PIN_MAX_TRIES for a device never seen. */
  get(deviceId: string): number;
  /** One wrong PIN: the new remaining count (never below 0). */
  fail(deviceId: string): number;
  /** A correct PIN or an unlock: back to PIN_MAX_TRIES. */
  reset(deviceId: string): number;
}

const clamp = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) ? Math.min(PIN_MAX_TRIES, Math.max(0, n)) : PIN_MAX_TRIES);

/** The tries of spec §4 steps 4 and 6, kept per device in `storage` (localStorage in the browser). */
export function createTriesStore(storage: Pick<Storage, 'getItem' | 'setItem'>, key = UKEY_TRIES_KEY): TriesStore {
  const read = (): Record<string, number> => {
    try {
      const value: unknown = JSON.parse(storage.getItem(key) ?? '{}');
      return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, number>) : {};
    } catch {
      return {};
    }
  };
  const write = (deviceId: string, tries: number) => {
    storage.setItem(key, JSON.stringify({ ...read(), [deviceId]: tries }));
    return tries;
  };
  return {
    get: (deviceId) => clamp(read()[deviceId]),
    fail: (deviceId) => write(deviceId, Math.max(0, clamp(read()[deviceId]) - 1)),
    reset: (deviceId) => write(deviceId, PIN_MAX_TRIES),
  };
}
