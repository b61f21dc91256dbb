import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two cores: server test files each start an embedded database (~3 s, ~500 MB).
    maxWorkers: 2,
    projects: [
      { test: { name: 'domain', root: 'packages/domain', environment: 'node' } },
      { test: { name: 'sdk', root: 'packages/sdk', environment: 'node' } },
      { test: { name: 'web', root: 'apps/web', environment: 'node', include: ['src/**/*.test.{ts,tsx}'] } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          environment: 'node',
          include: ['**/*.e2e.ts'],
          globalSetup: ['./global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // Browser tests run after the others, so they do not compete for the two cores.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
