/**
 * Field validators of spec §5, pure so that the server (ajv formats) and the web forms share one rule.
 * Each `isX` answers a boolean; each `checkX` answers the Chinese message, or undefined when valid.
 */
import { PIN_MIN_LENGTH } from './constants.js';

export const ID_CARD_MESSAGE = '请输入正确的身份证号';
export const MOBILE_MESSAGE = '请输入正确的手机号码';
export const EMAIL_MESSAGE = '请输入正确的邮箱地址';
export const PIN_MESSAGE = `Pin码至少${PIN_MIN_LENGTH}位`;

// GB 11643-1999: weights of the first 17 digits, and the check character for each remainder mod 11.
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK_CHARS = '10X98765432';

/** The GB 11643-1999 check character ('0'–'9' or 'X') for the first 17 digits of an identity number. */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i];
  return ID_CHECK_CHARS[sum % 11];
}

/**
 * Resident identity-card number. Empty is accepted (the field may be optional; `required` is separate).
 * 15 digits (the old format, which has no check digit) or 17 digits plus a digit, X or x; for 18 characters
 * the last one must also be the GB 11643-1999 check character, so a mistyped digit is caught.
 * The birth date is not checked here; `idCardInfo` reads it and answers null when it is not a real date.
 */
export function isIdCard(value: string | null | undefined): boolean {
  if (value == null || value === '') return true;
  if (/^\d{15}$/.test(value)) return true;
  if (!/^\d{17}[\dXx]$/.test(value)) return false;
  return idCardCheckChar(value) === value[17].toUpperCase();
}

export function checkIdCard(value: string | null | undefined): string | undefined {
  return isIdCard(value) ? undefined : ID_CARD_MESSAGE;
}

export interface IdCardInfo {
  /** YYYY-MM-DD */
  birthDate: string;
  /** GB/T 2261.1 gender code: '1' male, '2' female (odd / even sequence digit). */
  gender: '1' | '2';
}

/** Birth date and gender read from a valid, non-empty identity number; null otherwise. */
export function idCardInfo(value: string | null | undefined): IdCardInfo | null {
  if (!value || !isIdCard(value)) return null;
  // The old 15-digit number has a two-digit year, always 19xx.
  const [year, month, day, sequenceDigit] =
    value.length === 15
      ? [1900 + Number(value.slice(6, 8)), Number(value.slice(8, 10)), Number(value.slice(10, 12)), Number(value[14])]
      : [Number(value.slice(6, 10)), Number(value.slice(10, 12)), Number(value.slice(12, 14)), Number(value[16])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return { birthDate: `${year}-${pad(month)}-${pad(day)}`, gender: sequenceDigit % 2 === 1 ? '1' : '2' };
}

/** Mainland mobile number: 1, then 3–9, then nine digits. */
export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;

export function isMobile(value: string): boolean {
  return MOBILE_PATTERN.test(value);
}

export function checkMobile(value: string): string | undefined {
  return isMobile(value) ? undefined : MOBILE_MESSAGE;
}

// The WHATWG (HTML input type=email) pattern, but the domain needs at least one dot: an intranet
// address without a dot is far more often a typo here than a real mailbox.
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

export function checkEmail(value: string): string | undefined {
  return isEmail(value) ? undefined : EMAIL_MESSAGE;
}

/** A link that leaves the app (opened as-is instead of routed): http:, https:, mailto: or tel:. */
export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/i.test(path);
}

/** Hardware-key PIN: letters, digits or hyphen, at least PIN_MIN_LENGTH characters. */
export function isPin(value: string): boolean {
  return value.length >= PIN_MIN_LENGTH && /^[A-Za-z0-9-]+$/.test(value);
}

export function checkPin(value: string): string | undefined {
  return isPin(value) ? undefined : PIN_MESSAGE;
}

/** The Chinese message of each custom string format, for server and form validation alike. */
/** An amount in yuan: digits with at most two decimals, as the dues area stores money (src/shared/dues/money.ts). */
export const MONEY_PATTERN = /^\d{1,8}(\.\d{1,2})?$/;
export const MONEY_MESSAGE = '请输入金额（元），最多两位小数';
export const isMoney = (value: string) => MONEY_PATTERN.test(value);

export const FORMAT_MESSAGES: Readonly<Record<string, string>> = { 'id-card': ID_CARD_MESSAGE, mobile: MOBILE_MESSAGE, email: EMAIL_MESSAGE, money: MONEY_MESSAGE };

/** Login names: letters, digits, underscore, dot and hyphen, 2 to 32 characters. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const USERNAME_MIN = 2;
export const USERNAME_MAX = 32;

/** The Chinese problem with a username, or undefined when it is a valid one (lengths in code points, as JSON schema counts). */
export function checkUsername(username: string): string | undefined {
  if (!username) return '用户名不能为空';
  const length = [...username].length;
  if (length < USERNAME_MIN || length > USERNAME_MAX) return `用户名长度为${USERNAME_MIN}到${USERNAME_MAX}个字符`;
  if (!USERNAME_PATTERN.test(username)) return '用户名只能包含字母、数字、下划线、点和短横线';
  return undefined;
}
