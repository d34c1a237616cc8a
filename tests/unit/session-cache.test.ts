import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionCache } from '../../src/server/core/auth/session-cache.js';

const row = (id: number) => ({ id, name: `user${id}` });
const later = (ms: number) => new Date(Date.now() + ms);

describe('the session lookup cache', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps a lookup for its time to live, and never past the session expiry', () => {
    vi.useFakeTimers();
    const cache = new SessionCache<{ id: number; name: string }>(10_000);
    cache.set('a', row(1), later(60_000), cache.stamp);
    cache.set('b', row(2), later(3_000), cache.stamp);
    expect(cache.get('a')).toEqual(row(1));
    vi.advanceTimersByTime(2_999);
    expect(cache.get('b')).toEqual(row(2));
    vi.advanceTimersByTime(1);
    expect(cache.get('b')).toBeUndefined(); // the session itself expired
    vi.advanceTimersByTime(6_999);
    expect(cache.get('a')).toEqual(row(1));
    vi.advanceTimersByTime(1);
    expect(cache.get('a')).toBeUndefined(); // the cache's own limit
  });

  it("forgets one user's sessions or all of them", () => {
    const cache = new SessionCache<{ id: number; name: string }>();
    cache.set('a1', row(1), later(60_000), cache.stamp);
    cache.set('a2', row(1), later(60_000), cache.stamp);
    cache.set('b', row(2), later(60_000), cache.stamp);
    cache.forget(1);
    expect([cache.get('a1'), cache.get('a2'), cache.get('b')]).toEqual([undefined, undefined, row(2)]);
    cache.forget();
    expect(cache.get('b')).toBeUndefined();
  });

  it('does not keep a lookup that started before a forget (it may have read what was just ended)', () => {
    const cache = new SessionCache<{ id: number; name: string }>();
    const stamp = cache.stamp;
    cache.forget(1);
    cache.set('a', row(1), later(60_000), stamp);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', row(1), later(60_000), cache.stamp);
    expect(cache.get('a')).toEqual(row(1));
  });
});
