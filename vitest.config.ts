import { defineConfig } from 'vitest/config';

const apiTests = ['tests/api/**/*.test.ts'];

export default defineConfig({
  test: {
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'api-postgres',
          include: apiTests,
          env: { TEST_DB: 'postgres', DEMO_MEMBERS: '300' },
          globalSetup: ['tests/support/global-postgres.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
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
