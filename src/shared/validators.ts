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

export const ID_CARD_BIRTH_MESSAGE = '身份证号中的出生日期不存在，请核对';
export const ID_CARD_FUTURE_MESSAGE = '身份证号中的出生日期晚于今天，请核对';

/** The earliest birth year an identity number may encode (older ones are typing mistakes). */
const ID_CARD_MIN_YEAR = 1900;

/** Today's date as YYYY-MM-DD in local time (the birth date in a number is a calendar date). */
function todayText(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The well-formed shapes: 15 digits (the old format, no check digit) or 17 digits plus a digit, X or x with the right check character. */
function idCardShapeOk(value: string): boolean {
  if (/^\d{15}$/.test(value)) return true;
  if (!/^\d{17}[\dXx]$/.test(value)) return false;
  return idCardCheckChar(value) === value[17].toUpperCase();
}

/** The YYYY-MM-DD birth date a well-formed number encodes, or null when that date does not exist. */
function idCardBirthDate(value: string): string | null {
  // The old 15-digit number has a two-digit year, always 19xx.
  const [year, month, day] =
    value.length === 15
      ? [1900 + Number(value.slice(6, 8)), Number(value.slice(8, 10)), Number(value.slice(10, 12))]
      : [Number(value.slice(6, 10)), Number(value.slice(10, 12)), Number(value.slice(12, 14))];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < ID_CARD_MIN_YEAR || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${year}-${pad(month)}-${pad(day)}`;
}

/**
 * What is wrong with a resident identity-card number, in Chinese; undefined when it is valid or empty (the
 * field may be optional; `required` is separate). 15 digits (the old format) or 17 digits plus a digit, X or
 * x, the 18th being the GB 11643-1999 check character so a mistyped digit is caught; the birth date it
 * encodes must exist (from 1900 on) and not lie after `today` (YYYY-MM-DD, by default the local date).
 */
export function idCardProblem(value: string | null | undefined, today: string = todayText()): string | undefined {
  if (value == null || value === '') return undefined;
  if (!idCardShapeOk(value)) return ID_CARD_MESSAGE;
  const birth = idCardBirthDate(value);
  if (!birth) return ID_CARD_BIRTH_MESSAGE;
  if (birth > today) return ID_CARD_FUTURE_MESSAGE;
  return undefined;
}

export function isIdCard(value: string | null | undefined, today?: string): boolean {
  return idCardProblem(value, today) === undefined;
}

export function checkIdCard(value: string | null | undefined, today?: string): string | undefined {
  return idCardProblem(value, today);
}

/**
 * The one stored form of an identity number, so one person is one number: trimmed, the check character
 * X upper-cased, and an old 15-digit number widened to its 18-digit form (the year gains "19", the check
 * character is appended). Anything else is answered unchanged (validation refuses it).
 */
export function normalizeIdCard(value: string): string {
  const v = value.trim();
  if (/^\d{17}[Xx]$/.test(v)) return v.toUpperCase();
  if (/^\d{15}$/.test(v)) {
    const first17 = `${v.slice(0, 6)}19${v.slice(6)}`;
    return first17 + idCardCheckChar(first17);
  }
  return v;
}

export interface IdCardInfo {
  /** YYYY-MM-DD */
  birthDate: string;
  /** GB/T 2261.1 gender code: '1' male, '2' female (odd / even sequence digit). */
  gender: '1' | '2';
}

/** Birth date and gender read from a well-formed, non-empty identity number; null otherwise (or when the date does not exist). */
export function idCardInfo(value: string | null | undefined): IdCardInfo | null {
  if (!value || !idCardShapeOk(value)) return null;
  const birthDate = idCardBirthDate(value);
  if (!birthDate) return null;
  const sequenceDigit = Number(value.length === 15 ? value[14] : value[16]);
  return { birthDate, gender: sequenceDigit % 2 === 1 ? '1' : '2' };
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
