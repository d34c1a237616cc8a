import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { postgresApiTests } from './tests/support/engines.js';

const apiTests = ['tests/api/**/*.test.ts'];

/**
 * Every core (at least two): vitest's default leaves one of two cores idle, and an API worker waits on its
 * database and sockets part of the time. The browser project keeps one file at a time (fileParallelism).
 */
const maxWorkers = Math.max(2, os.availableParallelism());

/**
 * The ~200 apps the suite starts check the same module schemas: their clean checks are kept on disk across
 * the workers and the servers they start (src/server/runtime/schema-check-cache.ts); the workers inherit it.
 */
process.env.SCHEMA_CHECK_CACHE ??= path.resolve('.tmp/schema-checks');

/**
 * A time limit catches a test that hangs; it never measures speed (benchmarks do). An API file starts its
 * app in a hook (seconds on a quiet machine); the limits leave room for a machine whose every core is busy
 * (two checkouts testing at once, a load of 9 on two cores), where the same work takes ten times as long.
 * Unit and web tests get the same room: loading every school's schemas or rendering a big form took more
 * than vitest's default 5 s on such a machine.
 */
const apiTimeouts = { testTimeout: 120_000, hookTimeout: 300_000 };

/**
 * The API and unit files share a worker's modules (isolate: false): importing the server's modules once per worker
 * instead of once per file took the API projects from ~700 s of imports to ~26 s. Their files keep no state in
 * modules (each starts its own app and closes it); the web files mock modules (vi.mock) and keep their isolation.
 */
const localTimeouts = { testTimeout: 60_000, hookTimeout: 180_000 };

export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'src/**/*.test.ts', 'generators/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          ...localTimeouts,
        },
      },
      {
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['tests/web/setup.ts'],
          ...localTimeouts,
        },
      },
      {
        test: {
          name: 'api-pglite',
          include: apiTests,
          env: { TEST_DB: 'pglite', DEMO_MEMBERS: '300' },
          globalSetup: ['tests/support/global-pglite.ts'],
          isolate: false,
          ...apiTimeouts,
        },
      },
      {
        test: {
          name: 'api-postgres',
          // Only the files whose behaviour depends on the engine (their "// engines: both" line).
          include: postgresApiTests(),
          env: { TEST_DB: 'postgres', DEMO_MEMBERS: '300' },
          globalSetup: ['tests/support/global-postgres.ts'],
          isolate: false,
          ...apiTimeouts,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/global-server.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
