/**
 * Which database engines an API test file runs on, declared by the file itself in its first lines:
 *
 *   // engines: both — concurrent payments and the payroll import
 *   // engines: pglite — permissions of the menu API; no engine-specific SQL
 *
 * `both` runs it in the api-pglite and api-postgres projects, `pglite` in api-pglite only (rule in
 * docs/architecture.md, "Tests"). vitest.config.ts builds the api-postgres list from these lines; a file
 * without one still runs on both engines there, and a unit test (tests/unit/test-engines.test.ts) fails
 * until it chooses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type EngineChoice = 'both' | 'pglite';

/** The tag, then a dash and the reason (a choice made on purpose says why). */
const TAG = /^\/\/ engines: (both|pglite) — \S.*$/;
/** How many lines from the top the tag may sit (after a licence or a directive, never deep in a file). */
const HEAD_LINES = 5;

export const API_TESTS_DIR = fileURLToPath(new URL('../api', import.meta.url));

/** The file's declared choice, or undefined when it declares none (or not in the expected form). */
export function engineChoice(source: string): EngineChoice | undefined {
  for (const line of source.split('\n', HEAD_LINES)) {
    const m = TAG.exec(line.trimEnd());
    if (m) return m[1] as EngineChoice;
  }
  return undefined;
}

/** Every API test file (paths relative to the repository root) with its declared choice. */
export function apiTestFiles(dir = API_TESTS_DIR): { file: string; choice: EngineChoice | undefined }[] {
  const root = path.resolve(dir, '..', '..');
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => {
      const full = path.join(dir, f);
      return { file: path.relative(root, full).split(path.sep).join('/'), choice: engineChoice(fs.readFileSync(full, 'utf8')) };
    });
}

/** The files the api-postgres project runs: those declaring both engines, and those declaring nothing. */
export function postgresApiTests(dir = API_TESTS_DIR): string[] {
  return apiTestFiles(dir).filter((f) => f.choice !== 'pglite').map((f) => f.file);
}
