/**
 * Display helpers of spec §9: dates, relative time, durations, debounce, HTML escaping and query strings.
 * Dates are formatted in the local time zone of the caller (the browser's, or the server's TZ).
 */

export type TimeInput = Date | number | string;
import { ownValue } from './own.js';

export const DEFAULT_TIME_FORMAT = '{y}-{m}-{d} {h}:{i}:{s}';

/**
 * A Date from what the API and the forms carry: a Date, epoch milliseconds, ten-digit epoch seconds
 * (as a number or a numeric string), or a date string. 'YYYY-MM-DD[ hh:mm[:ss]]' is read as local time
 * (the built-in parser would read a bare date as UTC). Null for empty or unreadable input.
 */
export function toDate(time: TimeInput | null | undefined): Date | null {
  if (time == null || time === '') return null;
  let value: Date | number | string = time;
  if (typeof value === 'string') {
    const text = value.trim();
    if (/^\d+$/.test(text)) value = Number(text);
    else if (/^\d{4}-\d{1,2}-\d{1,2}( \d{1,2}:\d{1,2}(:\d{1,2})?)?$/.test(text)) {
      const [y, mo, d, h = 0, mi = 0, s = 0] = text.split(/[- :]/).map(Number);
      value = new Date(y, mo - 1, d, h, mi, s);
    } else value = text;
  }
  if (typeof value === 'number' && String(Math.trunc(Math.abs(value))).length === 10) value *= 1000;
  const date = value instanceof Date ? new Date(value.getTime()) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const WEEKDAYS = ['日', '一', '二', '三', '四', '五', '六'];

/**
 * Formats a time with placeholders {y} {m} {d} {h} {i} {s} (padded to 2 digits, year in full) and {a}
 * (weekday 日…六). Empty string for empty or unreadable input, so tables can show it directly.
 */
export function parseTime(time: TimeInput | null | undefined, format = DEFAULT_TIME_FORMAT): string {
  const date = toDate(time);
  if (!date) return '';
  const parts: Record<string, number> = {
    y: date.getFullYear(),
    m: date.getMonth() + 1,
    d: date.getDate(),
    h: date.getHours(),
    i: date.getMinutes(),
    s: date.getSeconds(),
    a: date.getDay(),
  };
  return format.replace(/\{([ymdhisa])\}/g, (_match, key: string) =>
    key === 'a' ? WEEKDAYS[parts.a] : String(parts[key]).padStart(2, '0'),
  );
}

const MINUTE = 60;
const HOUR = 3600;
const DAY = 86_400;

/**
 * Relative time: under 30 s '刚刚', under an hour 'N分钟前', under a day 'N小时前', under two days '1天前',
 * otherwise the date ('M月D日H时i分', or `format` through parseTime). N is rounded down but at least 1.
 * A time more than 30 s in the future is shown as a date too, never as "ago".
 */
export function formatRelative(time: TimeInput, now: number = Date.now(), format?: string): string {
  const date = toDate(time);
  if (!date) return '';
  const diff = (now - date.getTime()) / 1000;
  if (diff > -30 && diff < 30) return '刚刚';
  if (diff > 0 && diff < HOUR) return `${Math.max(1, Math.floor(diff / MINUTE))}分钟前`;
  if (diff > 0 && diff < DAY) return `${Math.max(1, Math.floor(diff / HOUR))}小时前`;
  if (diff > 0 && diff < 2 * DAY) return '1天前';
  if (format) return parseTime(date, format);
  return `${date.getMonth() + 1}月${date.getDate()}日${date.getHours()}时${date.getMinutes()}分`;
}

/** Seconds as 'hh:mm:ss', each part padded to 2 digits; hours go past 99 if needed. Bad input is 0. */
export function formatDuration(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / HOUR))}:${pad(Math.floor((total % HOUR) / MINUTE))}:${pad(total % MINUTE)}`;
}

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Drops a pending call. */
  cancel(): void;
}

/**
 * Runs `fn` once calls have stopped for `wait` ms, with the last call's arguments. With `immediate`, runs on
 * the first call of a burst instead and ignores the rest of the burst.
 */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait: number, immediate = false): Debounced<A> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    const leading = immediate && timer === undefined;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!immediate) fn(...args);
    }, wait);
    if (leading) fn(...args);
  };
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return debounced;
}

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to put into HTML (element content or a quoted attribute). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ownValue(HTML_ENTITIES, c)!);
}

export type ParamValue = string | number | boolean | Date | null | undefined;

/**
 * An object as a query string 'a=1&b=2', keys and values URI-encoded. Undefined and null are left out;
 * an array repeats its key without indices (ids=1&ids=2), as the request layer sends lists (§7).
 */
export function param(obj: Record<string, ParamValue | readonly ParamValue[]>): string {
  const pairs: string[] = [];
  const add = (key: string, value: ParamValue) => {
    if (value == null) return;
    const text = value instanceof Date ? value.toISOString() : String(value);
    pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  };
  for (const [key, value] of Object.entries(obj)) {
    if (Array.isArray(value)) value.forEach((v) => add(key, v));
    else add(key, value as ParamValue);
  }
  return pairs.join('&');
}

/** The query of a URL (or of a bare 'a=1&b=2') as an object of strings; a repeated key keeps its last value. */
export function param2Obj(url: string): Record<string, string> {
  const withoutHash = url.split('#')[0];
  const query = withoutHash.includes('?') ? withoutHash.slice(withoutHash.indexOf('?') + 1) : withoutHash.includes('=') ? withoutHash : '';
  const result: Record<string, string> = {};
  for (const part of query.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const decode = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return s; // a stray '%' is kept as typed rather than failing the whole query
      }
    };
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    if (key) result[key] = eq < 0 ? '' : decode(part.slice(eq + 1));
  }
  return result;
}
