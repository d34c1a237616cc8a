import net from 'node:net';
import path from 'node:path';
import { EXPORT_INLINE_MAX, JOB_ABANDONED_AFTER_S } from '../shared/jobs.js';
import { IDLE_TRANSACTION_TIMEOUT_S } from './db/timeouts.js';
import { DEFAULT_SCHOOL, SCHOOL_CODES, isSchoolCode, type SchoolCode } from '../shared/schools.js';

/** Thrown for a bad environment value; the start script prints its message as one line. */
export class ConfigError extends Error {}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The demo administrator password when ADMIN_PASSWORD is not set (documented in the README). */
export const DEMO_ADMIN_PASSWORD = 'Dangjian@2026';

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  school: SchoolCode;
  logLevel: LogLevel;
  demoData: boolean;
  adminPassword: string;
  captcha: boolean;
  /** Requests a minute one client address may make to each login/SMS endpoint. */
  authRateLimit: number;
  /** Failed password logins from one client address within an hour before it is locked (LOGIN_ADDRESS_LOCK_AFTER, default 20). */
  loginAddressLockAfter: number;
  /**
   * Which proxies may set X-Forwarded-For (Fastify's `trustProxy`): false (the default: the socket's
   * address is the client), the addresses/CIDRs of the proxies, or how many proxy hops to trust.
   */
  trustProxy: false | string[] | number;
  /** Rows an export writes in the request; more run as a background job (EXPORT_INLINE_MAX, default 10,000). */
  exportInlineMax: number;
  /** Seconds without a heartbeat after which another server takes a job as abandoned (JOB_ABANDONED_AFTER, default 60). */
  jobAbandonedAfterS: number;
  /**
   * Seconds a PostgreSQL transaction may sit idle (its app server silent between statements) before the
   * database ends it and frees its locks (DB_IDLE_TRANSACTION_TIMEOUT, default 60): a server that froze or
   * whose host vanished mid-transaction would otherwise hold its row locks for good.
   */
  dbIdleTransactionTimeoutS: number;
}

type Env = Record<string, string | undefined>;

function parseBoolean(name: string, raw: string | undefined, fallback: boolean, truthy = 'true', falsy = 'false'): boolean {
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on', truthy].includes(value)) return true;
  if (['false', '0', 'no', 'off', falsy].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function parseWhole(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min) throw new ConfigError(`${name} must be a whole number of at least ${min}, got "${raw}"`);
  return Number(raw);
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8080;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${raw}"`);
  }
  return port;
}

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: off unless set. Trusting every sender (`true`) would let any client forge its address in
 * X-Forwarded-For and so escape the per-address rate limits and falsify the audit: it is refused.
 */
export function parseTrustProxy(raw: string | undefined): false | string[] | number {
  const value = raw?.trim() ?? '';
  if (value === '' || ['false', '0', 'no', 'off'].includes(value.toLowerCase())) return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.filter((e) => !isProxyAddress(e));
  if (bad.length || !entries.length) {
    throw new ConfigError(
      `TRUST_PROXY must be off, a hop count (e.g. 1) or a comma-separated list of proxy addresses/CIDRs (e.g. 127.0.0.1,10.0.0.0/8), got "${raw}"`,
    );
  }
  return entries;
}

/**
 * TRUST_PROXY as Fastify's `trustProxy`. Fastify itself refuses hop counts (a client reaching the app
 * directly could then forge its address): a hop count trusts that many hops by the operator's word, so
 * the README says to use it only when the app cannot be reached except through the proxies.
 */
export function trustProxyOption(setting: AppConfig['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}

/** Reads and checks the environment. Every failure is a ConfigError with one clear line. */
export function loadConfig(env: Env = process.env): AppConfig {
  const databaseUrl = env.DATABASE_URL?.trim() || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must start with postgres:// or postgresql://, got "${databaseUrl}"`);
  }
  const school = env.SCHOOL?.trim() || DEFAULT_SCHOOL;
  if (!isSchoolCode(school)) {
    throw new ConfigError(`SCHOOL must be one of ${SCHOOL_CODES.join(', ')}, got "${school}"`);
  }
  const logLevel = (env.LOG_LEVEL?.trim() || 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const adminPassword = env.ADMIN_PASSWORD ?? DEMO_ADMIN_PASSWORD;
  if (adminPassword.length < 8) {
    throw new ConfigError('ADMIN_PASSWORD must be at least 8 characters long');
  }
  const host = env.HOST?.trim() || '0.0.0.0';
  const rateRaw = env.AUTH_RATE_LIMIT?.trim() || '30';
  if (!/^\d+$/.test(rateRaw) || Number(rateRaw) < 1) {
    throw new ConfigError(`AUTH_RATE_LIMIT must be a positive whole number, got "${env.AUTH_RATE_LIMIT}"`);
  }
  const addressLockRaw = env.LOGIN_ADDRESS_LOCK_AFTER?.trim() || '20';
  if (!/^\d+$/.test(addressLockRaw) || Number(addressLockRaw) < 5) {
    throw new ConfigError(`LOGIN_ADDRESS_LOCK_AFTER must be a whole number of at least 5, got "${env.LOGIN_ADDRESS_LOCK_AFTER}"`);
  }
  return {
    port: parsePort(env.PORT),
    host,
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    databaseUrl,
    school,
    logLevel: logLevel as LogLevel,
    // A deployment on PostgreSQL gets demo data (accounts with the demo password, the payment simulator)
    // only when it says DEMO_DATA=true; the embedded database is the demo's (issue 38.16).
    demoData: parseBoolean('DEMO_DATA', env.DEMO_DATA, !databaseUrl),
    adminPassword,
    captcha: parseBoolean('CAPTCHA', env.CAPTCHA, true),
    authRateLimit: Number(rateRaw),
    loginAddressLockAfter: Number(addressLockRaw),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    exportInlineMax: parseWhole('EXPORT_INLINE_MAX', env.EXPORT_INLINE_MAX, EXPORT_INLINE_MAX, 1),
    jobAbandonedAfterS: parseWhole('JOB_ABANDONED_AFTER', env.JOB_ABANDONED_AFTER, JOB_ABANDONED_AFTER_S, 1),
    dbIdleTransactionTimeoutS: parseWhole('DB_IDLE_TRANSACTION_TIMEOUT', env.DB_IDLE_TRANSACTION_TIMEOUT, IDLE_TRANSACTION_TIMEOUT_S, 1),
  };
}
