import { KeyDeviceStatus, PIN_MAX_TRIES } from '../../../shared/constants';
import { checkPin } from '../../../shared/validators';
import type { ClientFrame, ServiceFrame } from './protocol';
import type { TriesStore } from './tries';

/** Spec §4 step 7 (and S8.E14): no key found, or no certificate service to ask. */
export const NO_DEVICE_ALERT = '请插入干部安全数字证书uKey';
/** Spec §4 step 2 (and S8.E15): the key was pulled out. */
export const KEY_REMOVED_ALERT = '干部安全数字证书uKey已拔出，请重新插入后登录';
export const WRONG_PIN = 'Pin码错误';
/** The unlock prompt of spec §4 step 5. */
export const KEY_LOCKED = 'uKey已锁定，请设置新的Pin码解锁';

/** What the certificate client shows. `busy`: a request went to the service and its answer is awaited. */
export type UkeyView =
  | { kind: 'waiting' }
  | { kind: 'pin'; deviceId: string; tries: number; error?: string; busy?: boolean }
  | { kind: 'unlock'; deviceId: string; error?: string; busy?: boolean }
  | { kind: 'validated'; deviceId: string }
  /** Final: the alert is shown and the user is logged out; nothing changes this state. */
  | { kind: 'ended'; alert: string };

export type UkeyInput =
  | { kind: 'frame'; frame: ServiceFrame }
  /** No service answered on any port, or the connection to it was lost. */
  | { kind: 'unreachable' }
  | { kind: 'submitPin'; pin: string }
  | { kind: 'submitNewPin'; pin: string };

export interface UkeyStep {
  view: UkeyView;
  /** A frame to send to the service. */
  send?: ClientFrame;
  /** The device whose PIN was just confirmed: the validation-success event (spec §4 step 6). */
  validated?: string;
}

/** The PIN prompt for an inserted key: its remaining tries, or the unlock prompt when none are left or it is locked. */
function promptFor(deviceId: string, locked: boolean, tries: TriesStore, error?: string): UkeyView {
  const left = tries.get(deviceId);
  if (locked || left <= 0) return { kind: 'unlock', deviceId, error };
  return { kind: 'pin', deviceId, tries: left, error };
}

/**
 * The hardware-certificate flow of spec §4 as a pure step function: the current view and one input give
 * the next view, the frame to send and the validation event. Tries live in `tries` (per device).
 */
export function ukeyStep(view: UkeyView, input: UkeyInput, tries: TriesStore): UkeyStep {
  if (view.kind === 'ended') return { view };
  const current = 'deviceId' in view ? view.deviceId : undefined;

  if (input.kind === 'unreachable') return { view: { kind: 'ended', alert: NO_DEVICE_ALERT } };

  if (input.kind === 'submitPin') {
    if (view.kind !== 'pin' || view.busy) return { view };
    const problem = checkPin(input.pin);
    if (problem) return { view: { ...view, error: problem } };
    return { view: { ...view, error: undefined, busy: true }, send: { type: 'verify', deviceId: view.deviceId, pin: input.pin } };
  }

  if (input.kind === 'submitNewPin') {
    if (view.kind !== 'unlock' || view.busy) return { view };
    const problem = checkPin(input.pin);
    if (problem) return { view: { ...view, error: problem } };
    return { view: { ...view, error: undefined, busy: true }, send: { type: 'unlock', deviceId: view.deviceId, newPin: input.pin } };
  }

  const frame = input.frame;
  switch (frame.type) {
    case 'noDevice':
      return { view: { kind: 'ended', alert: NO_DEVICE_ALERT } };
    case 'device':
      if (frame.status === KeyDeviceStatus.OUT) return { view: { kind: 'ended', alert: KEY_REMOVED_ALERT } };
      // The same key reported again (a repeated status) changes nothing unless it is now locked.
      if (current === frame.deviceId && !frame.locked) return { view };
      return { view: promptFor(frame.deviceId, !!frame.locked, tries) };
    case 'verifyResult': {
      if (view.kind !== 'pin' || current !== frame.deviceId) return { view };
      if (frame.ok) {
        tries.reset(frame.deviceId);
        return { view: { kind: 'validated', deviceId: frame.deviceId }, validated: frame.deviceId };
      }
      const left = tries.fail(frame.deviceId);
      return { view: promptFor(frame.deviceId, !!frame.locked || left <= 0, tries, WRONG_PIN) };
    }
    case 'unlockResult': {
      if (view.kind !== 'unlock' || current !== frame.deviceId) return { view };
      if (!frame.ok) return { view: { kind: 'unlock', deviceId: frame.deviceId, error: frame.message || '解锁失败，请重试' } };
      tries.reset(frame.deviceId);
      return { view: { kind: 'pin', deviceId: frame.deviceId, tries: PIN_MAX_TRIES } };
    }
    case 'signResult':
      // The server's challenge (UkeyClient proves the key to the server after the PIN): not a step of the dialog.
      return { view };
  }
}
