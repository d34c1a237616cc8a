/**
 * The JSON messages between the web app and the local certificate service on the loopback address
 * (spec §4; documented for implementers in scripts/ukey-simulator.ts). One JSON object per websocket
 * text frame, told apart by `type`. Pure types and parsing: shared by the browser client and the simulator.
 */
import { KeyDeviceStatus } from '../../../shared/constants';

/** Web app → service. */
export type ClientFrame =
  | { type: 'query' }
  | { type: 'verify'; deviceId: string; pin: string }
  | { type: 'unlock'; deviceId: string; newPin: string }
  /** Sign the server's challenge with the key (after its PIN was verified on this connection; issue 38.9). */
  | { type: 'sign'; deviceId: string; challenge: string };

/** Service → web app. `status` is the key-device status of spec §9: OUT 0, IN 1. */
export type ServiceFrame =
  | { type: 'device'; status: typeof KeyDeviceStatus.IN; deviceId: string; locked?: boolean }
  | { type: 'device'; status: typeof KeyDeviceStatus.OUT; deviceId?: string }
  | { type: 'noDevice' }
  | { type: 'verifyResult'; deviceId: string; ok: boolean; locked?: boolean }
  | { type: 'unlockResult'; deviceId: string; ok: boolean; message?: string }
  /** `signature`: base64 of the key's signature of `dangjian-ukey:<challenge>`. */
  | { type: 'signResult'; deviceId: string; ok: boolean; signature?: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;

/** A service frame from a websocket message, or undefined for anything malformed (ignored). */
export function parseServiceFrame(data: unknown): ServiceFrame | undefined {
  let value: unknown;
  try {
    value = typeof data === 'string' ? JSON.parse(data) : undefined;
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  switch (value.type) {
    case 'device':
      if (value.status === KeyDeviceStatus.IN && isId(value.deviceId)) return { type: 'device', status: KeyDeviceStatus.IN, deviceId: value.deviceId, locked: value.locked === true };
      if (value.status === KeyDeviceStatus.OUT) return { type: 'device', status: KeyDeviceStatus.OUT, ...(isId(value.deviceId) ? { deviceId: value.deviceId } : {}) };
      return undefined;
    case 'noDevice':
      return { type: 'noDevice' };
    case 'verifyResult':
      return isId(value.deviceId) && typeof value.ok === 'boolean' ? { type: 'verifyResult', deviceId: value.deviceId, ok: value.ok, locked: value.locked === true } : undefined;
    case 'unlockResult':
      return isId(value.deviceId) && typeof value.ok === 'boolean'
        ? { type: 'unlockResult', deviceId: value.deviceId, ok: value.ok, ...(typeof value.message === 'string' ? { message: value.message } : {}) }
        : undefined;
    case 'signResult':
      return isId(value.deviceId) && typeof value.ok === 'boolean'
        ? { type: 'signResult', deviceId: value.deviceId, ok: value.ok, ...(typeof value.signature === 'string' ? { signature: value.signature } : {}) }
        : undefined;
    default:
      return undefined;
  }
}

/** A client frame as the service reads it, or undefined. */
export function parseClientFrame(data: unknown): ClientFrame | undefined {
  let value: unknown;
  try {
    value = typeof data === 'string' ? JSON.parse(data) : undefined;
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  if (value.type === 'query') return { type: 'query' };
  if (value.type === 'verify' && isId(value.deviceId) && typeof value.pin === 'string') return { type: 'verify', deviceId: value.deviceId, pin: value.pin };
  if (value.type === 'unlock' && isId(value.deviceId) && typeof value.newPin === 'string') return { type: 'unlock', deviceId: value.deviceId, newPin: value.newPin };
  if (value.type === 'sign' && isId(value.deviceId) && typeof value.challenge === 'string') return { type: 'sign', deviceId: value.deviceId, challenge: value.challenge };
  return undefined;
}
