/** Spec §9: the terminal type of a session. */
export const TERMINAL_PC = 1;
export const TERMINAL_MOBILE = 2;
export type Terminal = typeof TERMINAL_PC | typeof TERMINAL_MOBILE;

/** The header the mobile app sends with its login (and every request), naming itself. */
export const TERMINAL_HEADER = 'x-terminal';

/** Phones and small tablets' browsers (WeChat's included), but not iPads or desktop browsers. */
export function isPhoneUserAgent(ua: string | undefined | null): boolean {
  return !!ua && /Android.+Mobile|iPhone|iPod|Windows Phone|HarmonyOS.+Mobile|MicroMessenger.+Mobile|Mobile Safari/i.test(ua);
}

/** MOBILE when the client says it is the mobile app (header value 2 or "mobile") or its browser is a phone's; else PC. */
export function terminalOf(header: string | string[] | undefined, userAgent: string | undefined): Terminal {
  const said = Array.isArray(header) ? header[0] : header;
  if (said === String(TERMINAL_MOBILE) || said?.toLowerCase() === 'mobile') return TERMINAL_MOBILE;
  if (said === String(TERMINAL_PC) || said?.toLowerCase() === 'pc') return TERMINAL_PC;
  return isPhoneUserAgent(userAgent) ? TERMINAL_MOBILE : TERMINAL_PC;
}
