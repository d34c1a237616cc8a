/**
 * Builds the server into dist/server when it is missing or older than its sources, and with --web the web
 * app into dist/web likewise: `npm run build`, and the first step of `npm start` / `npm run serve`
 * (scripts/run-server.mjs).
 */
import { ensureServerBuilt } from '../src/server/server-build.js';

if (process.argv.includes('--web')) {
  const { ensureWebBuilt } = await import('../src/server/web-build.js');
  const { SchemaLoadError } = await import('../src/server/runtime/registry.js');
  try {
    await ensureWebBuilt();
  } catch (error) {
    if (!(error instanceof SchemaLoadError)) throw error;
    console.error(`Start failed: ${error.message}`);
    process.exit(1);
  }
}
await ensureServerBuilt();
