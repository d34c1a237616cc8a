import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../src/server/config.js';
import { WEB_DIST_DIR } from '../../src/server/paths.js';
import { startServer } from '../../src/server/server.js';
import { ensureWebBuilt } from '../../src/server/web-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/**
 * globalSetup of the e2e project: the built app on a fresh embedded database with demo data, captcha off.
 * The server serves its own copy of dist/web, so a rebuild meanwhile (another test run in this checkout,
 * `npm start`) cannot change the app under the tests.
 */
export default async function setup(project: TestProject) {
  await ensureWebBuilt();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dangjian-e2e-'));
  const webDir = path.join(dataDir, 'web');
  fs.cpSync(WEB_DIST_DIR, webDir, { recursive: true });
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', CAPTCHA: 'off', AUTH_RATE_LIMIT: '100000', LOGIN_ADDRESS_LOCK_AFTER: '100000',
    // Exports over 1,000 rows run as jobs, so a browser test sees the progress and the message (demo sizes).
    EXPORT_INLINE_MAX: '1000' });
  const { app, url } = await startServer(config, { webDir });
  project.provide('baseUrl', url);
  return async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
