/**
 * Rules of transfers of organisational relations and of floating members (组织关系转接, 流动党员) as
 * pure functions, shared by the server's guards and the web's pages. Each cites where it comes from.
 */
import { addDays, addMonths, chineseDate, isDate } from '../calendar.js';

/** Default validity of an introduction letter in days (set per letter). */
export const DEFAULT_LETTER_DAYS = 30;

/** Six months: lost contact, floating away, dues unpaid (自行脱党). */
export const SIX_MONTHS = 6;

/**
 * The last day an introduction letter may be received: the issue date plus its validity in days.
 * A letter issued on 03-01 with 30 days is received up to 03-31 and expired from 04-01.
 * (《中国共产党党员组织关系介绍信》: 有效期N天, counted from the day it was issued.)
 */
export function letterExpiry(issueDate: string, validDays: number): string {
  return addDays(issueDate, validDays);
}

/** Why a letter cannot be received on `today`, or null when it can. */
export function letterRefusal(issueDate: unknown, validDays: unknown, today: string): string | null {
  if (!isDate(issueDate)) return '请填写介绍信的开具日期';
  if (typeof validDays !== 'number' || !Number.isInteger(validDays) || validDays < 1) return '请填写介绍信的有效天数';
  if (issueDate > today) return `介绍信的开具日期${chineseDate(issueDate)}晚于今天，请核对`;
  const expiry = letterExpiry(issueDate, validDays);
  if (today > expiry) return `介绍信已过有效期（有效期至${chineseDate(expiry)}），不能接收，请党员向原党组织重新开具介绍信`;
  return null;
}

/**
 * Whether six whole calendar months have passed since `since` on `today`: 01-15 → 07-15 yes, 07-14 no.
 * Lost contact (《中国共产党党员教育管理工作条例》: 失去联系6个月以上的党员, 予以停止党籍) and floating
 * members (外出6个月以上, 地点相对固定) both count this way.
 */
export function sixMonthsPassed(since: string, today: string): boolean {
  return addMonths(since, SIX_MONTHS) <= today;
}

/** The stored introduction letter number: the year and the serial padded to 4 digits (2026-0001). */
export function letterNumber(year: number, serial: number): string {
  return `${year}-${String(serial).padStart(4, '0')}`;
}

/** The printed form of a letter number: 〔2026〕第0012号. */
export function letterNumberText(letterNo: string | null | undefined): string {
  if (!letterNo) return '';
  const m = /^(\d{4})-(\d{4,})$/.exec(letterNo);
  return m ? `〔${m[1]}〕第${m[2]}号` : letterNo;
}

/** The probation end of a probationary member: one year after admission (《中国共产党章程》第七条). */
export function probationEnd(joinDate: string): string {
  return addMonths(joinDate, 12);
}

/** The unpaid months' refusal of a transfer out, or null (《关于中国共产党党费收缴、使用和管理的规定》: 转接组织关系时应交清党费). */
export function duesRefusal(unpaidMonths: readonly string[]): string | null {
  if (!unpaidMonths.length) return null;
  const shown = unpaidMonths.length > 6 ? `${unpaidMonths.slice(0, 6).join('、')}等${unpaidMonths.length}个月` : unpaidMonths.join('、');
  return `该党员尚有未交党费（${shown}），请交清党费后再办理组织关系转出：本人可在“我的党费”中在线缴纳，或由党支部在“现场缴费”中补缴（经批准或因生活困难缓交的月份可随时补缴）`;
}

/** Whether a temporary letter's end date has passed (a reminder to the branch from the next day). */
export function temporaryEnded(endDate: unknown, today: string): boolean {
  return isDate(endDate) && endDate < today;
}
