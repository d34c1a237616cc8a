import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { postgresApiTests } from './tests/support/engines.js';

const apiTests = ['tests/api/**/*.test.ts'];

/**
 * Every core (at least two): vitest's default leaves one of two cores idle, and an API worker waits on its
 * database and sockets part of the time. The browser project keeps one file at a time (fileParallelism).
 */
const maxWorkers = Math.max(2, os.availableParallelism());

/**
 * An API file starts its app in a hook (seconds on a quiet machine); the limits leave room for a machine
 * whose every core is busy (two checkouts testing at once), where the same work takes ten times as long.
 */
const apiTimeouts = { testTimeout: 60_000, hookTimeout: 180_000 };

export default defineConfig({
  test: {
    maxWorkers,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'src/**/*.test.ts', 'generators/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['tests/web/setup.ts'],
        },
      },
      {
        test: {
          name: 'api-pglite',
          include: apiTests,
          env: { TEST_DB: 'pglite', DEMO_MEMBERS: '300' },
          globalSetup: ['tests/support/global-pglite.ts'],
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
          ...apiTimeouts,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/global-server.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
