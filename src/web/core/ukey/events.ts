/** Window event emitted when the uKey PIN was confirmed (spec §4 step 6); `detail.deviceId` names the key. */
export const UKEY_VALIDATED_EVENT = 'ukey:validated';

export interface UkeyValidatedDetail {
  deviceId: string;
}

export function emitUkeyValidated(deviceId: string): void {
  window.dispatchEvent(new CustomEvent<UkeyValidatedDetail>(UKEY_VALIDATED_EVENT, { detail: { deviceId } }));
}
