import fs from 'node:fs';
import path from 'node:path';
import { SCHOOL_CODES } from '../shared/schools.js';
import { ROOT_DIR, SCHEMAS_DIR, WEB_DIST_DIR } from './paths.js';
import { SchemaLoadError, deploymentProblems } from './runtime/registry.js';
import { newestMtime, swapInDirectory } from './server-build.js';

/** True when dist/web is missing or older than the web sources it is built from. */
export function webBuildIsStale(): boolean {
  const index = path.join(WEB_DIST_DIR, 'index.html');
  if (!fs.existsSync(index)) return true;
  const sources = ['src/web', 'src/shared', 'schemas'].map((d) => path.join(ROOT_DIR, d)).filter((d) => fs.existsSync(d));
  const files = ['vite.config.ts', 'generators/lib/form-validators.ts'].map((f) => fs.statSync(path.join(ROOT_DIR, f)).mtimeMs);
  const newestSource = Math.max(...sources.map(newestMtime), ...files);
  return newestSource > fs.statSync(index).mtimeMs;
}

/**
 * Builds the web app into dist/web when it is stale: beside it first, then swapped in, so a server
 * serving dist/web, or a second build running at the same time (two test runs), never sees half a build.
 */
export async function ensureWebBuilt(log: (line: string) => void = console.log): Promise<void> {
  if (!webBuildIsStale()) return;
  // The build compiles every school's forms: a broken schema stops it here with one line, not deep in Vite.
  const problems = deploymentProblems(SCHEMAS_DIR, SCHOOL_CODES);
  if (problems.length) throw new SchemaLoadError(problems.join('; '));
  log('Building the web app (first start or sources changed)...');
  const { build } = await import('vite');
  // A production build even inside a test runner (vitest sets NODE_ENV=test, which would give React's
  // development build and antd's test ids).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    const outDir = `${WEB_DIST_DIR}.${process.pid}.${Date.now()}`;
    await build({ configFile: path.join(ROOT_DIR, 'vite.config.ts'), logLevel: 'warn', mode: 'production', build: { outDir, emptyOutDir: true } });
    swapInDirectory(outDir, WEB_DIST_DIR);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
