import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEMO_ADMIN_PASSWORD, loadConfig } from '../../src/server/config.js';
import { DEFAULT_SCHOOL, SCHOOL_CODES } from '../../src/shared/schools.js';

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, host: '0.0.0.0', school: 'hntb', logLevel: 'info', demoData: true, captcha: true, exportInlineMax: 10_000, jobAbandonedAfterS: 60, dbIdleTransactionTimeoutS: 60 });
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.databaseUrl).toBeUndefined();
    expect(c.adminPassword).toBe(DEMO_ADMIN_PASSWORD);
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '9000', HOST: '127.0.0.1', DATA_DIR: '/tmp/x', DATABASE_URL: 'postgres://u@h/db', SCHOOL: 'hut',
      LOG_LEVEL: 'WARN', DEMO_DATA: 'false', ADMIN_PASSWORD: 'S3cret!pass', CAPTCHA: 'off',
      EXPORT_INLINE_MAX: '50', JOB_ABANDONED_AFTER: '3', DB_IDLE_TRANSACTION_TIMEOUT: '5',
    });
    expect(c).toMatchObject({ exportInlineMax: 50, jobAbandonedAfterS: 3, dbIdleTransactionTimeoutS: 5 });
    expect(c).toMatchObject({ port: 9000, host: '127.0.0.1', dataDir: '/tmp/x', databaseUrl: 'postgres://u@h/db', school: 'hut',
      logLevel: 'warn', demoData: false, adminPassword: 'S3cret!pass', captcha: false });
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ SCHOOL: 'nowhere' }, /SCHOOL must be one of/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ DEMO_DATA: 'maybe' }, /DEMO_DATA must be true or false/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ ADMIN_PASSWORD: 'short' }, /ADMIN_PASSWORD/],
    [{ EXPORT_INLINE_MAX: '0' }, /EXPORT_INLINE_MAX/],
    [{ JOB_ABANDONED_AFTER: 'soon' }, /JOB_ABANDONED_AFTER/],
    [{ DB_IDLE_TRANSACTION_TIMEOUT: '0' }, /DB_IDLE_TRANSACTION_TIMEOUT/],
  ])('rejects a bad value %j with one clear line', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('[S1.S2] knows the eleven school codes and [S1.S3] defaults to hntb', () => {
    expect(SCHOOL_CODES).toHaveLength(11);
    expect(new Set(SCHOOL_CODES).size).toBe(11);
    for (const code of ['hhxy', 'jsu', 'hnzf', 'hntb', 'hncu', 'hunnu', 'xzsf', 'hnsoft', 'usc', 'hut']) expect(SCHOOL_CODES).toContain(code);
    expect(DEFAULT_SCHOOL).toBe('hntb');
  });
});
