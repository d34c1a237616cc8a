/** Window event emitted when the uKey PIN was confirmed (spec §4 step 6); `detail.deviceId` names the key. */
export const UKEY_VALIDATED_EVENT = 'ukey:validated';

export interface UkeyValidatedDetail {
  deviceId: string;
}

const VALIDATED_KEY = 'ukey:validated';

/** Whether the uKey was validated in this browser session (pages the uKey protects open without asking again). */
export function isUkeyValidated(): boolean {
  try {
    return !!sessionStorage.getItem(VALIDATED_KEY);
  } catch {
    return false;
  }
}

export function emitUkeyValidated(deviceId: string): void {
  try {
    sessionStorage.setItem(VALIDATED_KEY, deviceId);
  } catch {
    // storage refused: the event still opens the pages waiting for it
  }
  window.dispatchEvent(new CustomEvent<UkeyValidatedDetail>(UKEY_VALIDATED_EVENT, { detail: { deviceId } }));
}
