/**
 * The runtime bench's server process: the real server on the fixture schemas (directory from
 * RUNTIME_BENCH_SCHEMAS), with the fixture hooks registered. The bench compiles it like the server
 * (`buildServer`), so it runs as plain JavaScript as `npm run serve` does.
 */
import { loadConfig } from '../../src/server/config.js';
import { startServer } from '../../src/server/server.js';
import '../fixtures/runtime-hooks.js';

const { app, url } = await startServer(loadConfig(), { schemasDir: process.env.RUNTIME_BENCH_SCHEMAS });
process.stdout.write(`runtime bench server is running: ${url}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
