import fs from 'node:fs';
import path from 'node:path';

/** Where the tests look for Debian's Chromium; CHROMIUM_PATH overrides. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

/** The directory holding initdb and postgres: PG_BIN, the newest /usr/lib/postgresql/<v>/bin, or PATH. */
export function postgresBinDir(): string | undefined {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  const base = '/usr/lib/postgresql';
  if (fs.existsSync(base)) {
    const versions = fs.readdirSync(base).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => path.join(base, v, 'bin')));
  }
  candidates.push(...(process.env.PATH ?? '').split(path.delimiter));
  return candidates.find((dir) => dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'postgres')));
}

/** One line per missing tool, saying how to install it; empty when everything is there. */
export function missingPrerequisites(): string[] {
  const missing: string[] = [];
  if (!fs.existsSync(chromiumPath())) {
    missing.push(`Chromium not found at ${chromiumPath()}: install it with "apt-get install -y chromium" (or set CHROMIUM_PATH).`);
  }
  if (!postgresBinDir()) {
    missing.push('PostgreSQL server not found (initdb/postgres): install it with "apt-get install -y postgresql" (or set PG_BIN).');
  }
  return missing;
}
