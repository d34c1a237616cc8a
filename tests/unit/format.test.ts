import { afterEach, describe, expect, it, vi } from 'vitest';
import { debounce, escapeHtml, formatDuration, formatRelative, param, param2Obj, parseTime, toDate } from '../../src/shared/format.js';

// Local time, so the tests hold in any TZ the machine runs in.
const NOW = new Date(2024, 5, 15, 12, 0, 0).getTime();
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('relative time', () => {
  it('[S9.L10a] under 30 seconds shows 刚刚', () => {
    expect(formatRelative(NOW, NOW)).toBe('刚刚');
    expect(formatRelative(NOW - 29 * SECOND, NOW)).toBe('刚刚');
    expect(formatRelative(NOW - 30 * SECOND, NOW)).not.toBe('刚刚');
  });

  it('[S9.L10b] under 1 hour shows N分钟前', () => {
    expect(formatRelative(NOW - 10 * MINUTE, NOW)).toBe('10分钟前');
    expect(formatRelative(NOW - 59 * MINUTE, NOW)).toMatch(/^\d+分钟前$/);
    expect(formatRelative(NOW - 59 * MINUTE, NOW)).toBe('59分钟前');
    expect(formatRelative(NOW - 30 * SECOND, NOW)).toBe('1分钟前');
  });

  it('[S9.L10c] under 1 day shows N小时前', () => {
    expect(formatRelative(NOW - 5 * HOUR, NOW)).toBe('5小时前');
    expect(formatRelative(NOW - HOUR, NOW)).toBe('1小时前');
    expect(formatRelative(NOW - 23 * HOUR - 59 * MINUTE, NOW)).toBe('23小时前');
  });

  it('[S9.L10d] under 2 days shows 1天前', () => {
    expect(formatRelative(NOW - 30 * HOUR, NOW)).toBe('1天前');
    expect(formatRelative(NOW - 47 * HOUR, NOW)).toBe('1天前');
  });

  it('[S9.L10e] otherwise a date naming that day', () => {
    const then = new Date(NOW - 3 * DAY);
    const text = formatRelative(then, NOW);
    expect(text).not.toMatch(/刚刚|前/);
    expect(text).toBe(`${then.getMonth() + 1}月${then.getDate()}日${then.getHours()}时${then.getMinutes()}分`);
    expect(text.startsWith('6月12日')).toBe(true);
    expect(formatRelative(then, NOW, '{y}-{m}-{d}')).toBe('2024-06-12');
    // far in the future is a date, never "ago"
    expect(formatRelative(NOW + 3 * DAY, NOW)).toMatch(/^6月18日/);
  });

  it('accepts seconds, millisecond strings and date strings like parseTime', () => {
    expect(formatRelative(Math.floor((NOW - 10 * MINUTE) / 1000), NOW)).toBe('10分钟前');
    expect(formatRelative(String(NOW - 5 * HOUR), NOW)).toBe('5小时前');
    expect(formatRelative('2024-06-15 11:50:00', NOW)).toBe('10分钟前');
    expect(formatRelative('', NOW)).toBe('');
  });
});

describe('parseTime', () => {
  it('[S9.L10f] the default format is year-month-day hour:minute:second', () => {
    expect(parseTime(new Date(2020, 0, 2, 3, 4, 5))).toBe('2020-01-02 03:04:05');
    expect(parseTime(new Date(2020, 11, 31, 23, 59, 58))).toBe('2020-12-31 23:59:58');
  });

  it('[S9.L10g] ten-digit numbers are seconds and are converted to milliseconds', () => {
    expect(parseTime(1577905445)).toBe(parseTime(1577905445000));
    expect(parseTime('1577905445')).toBe(parseTime(1577905445000));
    expect(parseTime(1577905445)).toBe(parseTime(new Date(1577905445000)));
    expect(parseTime(1577905445)).not.toMatch(/^1970/);
  });

  it('takes custom formats, ISO strings and local date strings; empty or bad input gives an empty string', () => {
    const d = new Date(2020, 0, 2, 3, 4, 5); // a Thursday
    expect(parseTime(d, '{y}/{m}/{d}')).toBe('2020/01/02');
    expect(parseTime(d, '{h}时{i}分 星期{a}')).toBe('03时04分 星期四');
    expect(parseTime('2020-01-02 03:04:05')).toBe('2020-01-02 03:04:05');
    expect(parseTime('2020-01-02', '{y}-{m}-{d} {h}')).toBe('2020-01-02 00');
    expect(parseTime(d.toISOString())).toBe('2020-01-02 03:04:05');
    expect(parseTime('')).toBe('');
    expect(parseTime(null)).toBe('');
    expect(parseTime('not a date')).toBe('');
    expect(toDate(d)).not.toBe(d); // a copy, so callers cannot change the input
  });
});

describe('duration', () => {
  it('[S9.L10h] seconds as hh:mm:ss, each part padded to 2 digits', () => {
    expect(formatDuration(3725)).toBe('01:02:05');
    expect(formatDuration(5)).toBe('00:00:05');
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(59.9)).toBe('00:00:59');
    expect(formatDuration(100 * 3600 + 1)).toBe('100:00:01');
    expect(formatDuration(-3)).toBe('00:00:00');
  });
});

describe('debounce, escape and query strings', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('[S9.L11a] three calls within the wait run the function once, after the wait, with the last arguments', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const run = debounce(fn, 100);
    run(1);
    vi.advanceTimersByTime(50);
    run(2);
    vi.advanceTimersByTime(50);
    run(3);
    vi.advanceTimersByTime(99);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith(3);
  });

  it('[S9.L11a] immediate runs on the first call of a burst only; cancel drops a pending call', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const run = debounce(fn, 100, true);
    run('a');
    run('b');
    run('c');
    expect(fn).toHaveBeenCalledTimes(1);
    expect(fn).toHaveBeenCalledWith('a');
    vi.advanceTimersByTime(100);
    expect(fn).toHaveBeenCalledTimes(1);
    run('d');
    expect(fn).toHaveBeenLastCalledWith('d');

    const later = vi.fn();
    const trailing = debounce(later, 100);
    trailing();
    trailing.cancel();
    vi.advanceTimersByTime(200);
    expect(later).not.toHaveBeenCalled();
  });

  it('[S9.L11b] HTML escape turns < > & " and \' into entities', () => {
    expect(escapeHtml('<a href="x">&</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
    expect(escapeHtml("it's")).toBe('it&#39;s');
    expect(escapeHtml('党建')).toBe('党建');
  });

  it('[S9.L11c] an object serialises to a=1&b=2 and a URL query parses back to {a:"1",b:"2"}', () => {
    expect(param({ a: 1, b: 2 })).toBe('a=1&b=2');
    expect(param2Obj('http://host/web/page?a=1&b=2')).toEqual({ a: '1', b: '2' });
    expect(param2Obj(`/x?${param({ a: 1, b: 2 })}`)).toEqual({ a: '1', b: '2' });
  });

  it('param skips undefined and null, encodes, and repeats array keys without indices', () => {
    expect(param({ a: undefined, b: null, c: '', d: false })).toBe('c=&d=false');
    expect(param({ name: '张 三&', 'k=': 'a/b' })).toBe('name=%E5%BC%A0%20%E4%B8%89%26&k%3D=a%2Fb');
    expect(param({ ids: [1, 2] })).toBe('ids=1&ids=2');
    expect(param2Obj(`?${param({ name: '张 三&', q: 'a=b' })}`)).toEqual({ name: '张 三&', q: 'a=b' });
  });

  it('param2Obj ignores the hash, keeps keys without values, and answers {} without a query', () => {
    expect(param2Obj('/p?a=1&flag#b=2')).toEqual({ a: '1', flag: '' });
    expect(param2Obj('/web/dashboard')).toEqual({});
    expect(param2Obj('a=1&b=2')).toEqual({ a: '1', b: '2' });
    expect(param2Obj('/p?bad=%E4')).toEqual({ bad: '%E4' });
  });
});
