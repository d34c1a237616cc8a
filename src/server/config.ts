import path from 'node:path';
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
}

type Env = Record<string, string | undefined>;

function parseBoolean(name: string, raw: string | undefined, fallback: boolean, truthy = 'true', falsy = 'false'): boolean {
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on', truthy].includes(value)) return true;
  if (['false', '0', 'no', 'off', falsy].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8080;
  const port = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${raw}"`);
  }
  return port;
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
  return {
    port: parsePort(env.PORT),
    host,
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    databaseUrl,
    school,
    logLevel: logLevel as LogLevel,
    demoData: parseBoolean('DEMO_DATA', env.DEMO_DATA, true),
    adminPassword,
    captcha: parseBoolean('CAPTCHA', env.CAPTCHA, true),
    authRateLimit: Number(rateRaw),
  };
}
