import { get, post } from '../request/request';
import type { UploadedFile } from './upload';

/** How often the desktop page asks whether the phone has uploaded. */
export const MOBILE_POLL_MS = 2000;

export interface MobileToken {
  token: string;
  expiresAt: string;
}

export interface MobileTokenState {
  used: boolean;
  expired: boolean;
  expiresAt: string;
  file: UploadedFile | null;
}

/** The phone page a QR code opens: `<origin>/web/mobileUpload?token=...`. */
export function mobileUploadLink(token: string, origin: string = window.location.origin): string {
  const base = import.meta.env.BASE_URL.replace(/\/$/, '');
  return `${origin}${base}/mobileUpload?token=${encodeURIComponent(token)}`;
}

/** A one-time upload link for the signed-in user (`POST /api/file/mobileToken`). */
export const createMobileToken = () => post<MobileToken>('/api/file/mobileToken');

/** Whether the phone has used the link yet (`GET /api/file/mobileToken/:token`). */
export const mobileTokenState = (token: string) =>
  get<MobileTokenState>(`/api/file/mobileToken/${encodeURIComponent(token)}`, undefined, { skipErrorNotify: true });

/** The QR code image of a link, as a data URL; the library loads only when a code is shown. */
export async function qrDataUrl(text: string): Promise<string> {
  const QRCode = await import('qrcode');
  return QRCode.toDataURL(text, { width: 220, margin: 1, errorCorrectionLevel: 'M' });
}
