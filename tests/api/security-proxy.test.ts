// engines: pglite — forwarded addresses and rate limits: no engine-specific SQL
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseTrustProxy, trustProxyOption } from '../../src/server/config.js';
import { enc } from '../support/auth.js';
import { TEST_DB, createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Issue 12 item 4: X-Forwarded-For is believed only from configured proxies (TRUST_PROXY, off by default).
 * The attack: a client rotates X-Forwarded-For to escape the per-address login rate limit and to have a
 * forged address written to the login records.
 */
const LIMIT = 3;

async function attempts(t: TestApp, forwardedFor: string[], username = 'nobody') {
  const statuses: number[] = [];
  for (const xff of forwardedFor) {
    const res = await t.app.inject({
      method: 'POST', url: '/auth/login', headers: { 'x-forwarded-for': xff },
      payload: { username, password: enc(t.app, 'Wrong#2026a') },
    });
    statuses.push(res.statusCode);
  }
  return statuses;
}

const recordedAddresses = async (t: TestApp) =>
  (await t.database.db.selectFrom('login_attempts').select('ip').orderBy('id').execute()).map((r) => r.ip);

const forged = Array.from({ length: LIMIT + 2 }, (_, i) => `203.0.113.${i + 1}`);

describe(`forwarded client addresses on ${TEST_DB}`, () => {
  describe('by default no proxy is trusted', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ AUTH_RATE_LIMIT: String(LIMIT) });
    });
    afterAll(() => t.app.close());

    it('rotating X-Forwarded-For does not escape the login rate limit, and the socket address is recorded', async () => {
      expect(t.config.trustProxy).toBe(false);
      const statuses = await attempts(t, forged);
      expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(400));
      expect(statuses.slice(LIMIT)).toEqual([429, 429]);
      const limited = await t.app.inject({ method: 'POST', url: '/auth/login', headers: { 'x-forwarded-for': '198.51.100.7' }, payload: { username: 'x', password: 'y' } });
      expect(limited.json()).toMatchObject({ status: 429, message: expect.stringMatching(/^请求过于频繁/) });
      // light-my-request connects from 127.0.0.1: the forged addresses are nowhere in the audit.
      expect(await recordedAddresses(t)).toEqual(Array(LIMIT).fill('127.0.0.1'));
    });
  });

  describe('TRUST_PROXY=127.0.0.1 believes the header from that proxy', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ AUTH_RATE_LIMIT: String(LIMIT), TRUST_PROXY: '127.0.0.1' });
    });
    afterAll(() => t.app.close());

    it('each client behind the proxy has its own limit and its own address in the audit', async () => {
      const statuses = await attempts(t, forged);
      expect(statuses).toEqual(Array(forged.length).fill(400));
      expect(await recordedAddresses(t)).toEqual(forged);
      // The proxy appends the address it saw: the client is the last untrusted hop, not what the client wrote first.
      // Another name: five failures locked "nobody", and a try refused by a lock checks no password (lockout.ts).
      await attempts(t, ['10.9.9.9, 198.51.100.20'], 'nobody2');
      expect((await recordedAddresses(t)).at(-1)).toBe('198.51.100.20');
    });
  });

  it('TRUST_PROXY accepts off, a hop count or proxy addresses/CIDRs, and refuses "trust everyone"', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('off')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
    for (const bad of ['true', '*', '10.0.0.0/33', 'proxy.example.com', '127.0.0.1,,nonsense']) {
      expect(() => parseTrustProxy(bad), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    // A hop count trusts that many hops from the socket inwards (Fastify itself refuses bare numbers).
    const oneHop = trustProxyOption(1) as (address: string, hop: number) => boolean;
    expect([oneHop('10.0.0.5', 0), oneHop('203.0.113.9', 1)]).toEqual([true, false]);
    expect(trustProxyOption(['10.0.0.5'])).toEqual(['10.0.0.5']);
    expect(loadConfig({}).trustProxy).toBe(false);
  });
});
