import { defineConfig } from 'vitest/config';
import { preactAliases } from './apps/web/preact-aliases.ts';

/**
 * Projects of pure code (no database, server or browser): their files share one module cache
 * (`isolate: false`) in worker threads instead of each getting a fresh one; their tests pass in
 * any order (`--sequence.shuffle`).
 */
const pure = { isolate: false, pool: 'threads' } as const;

export default defineConfig({
  test: {
    // Two cores: server test files each start an embedded database (~3 s, ~500 MB).
    maxWorkers: 2,
    projects: [
      { test: { name: 'domain', root: 'packages/domain', environment: 'node', ...pure } },
      { test: { name: 'sdk', root: 'packages/sdk', environment: 'node', ...pure } },
      // The benchmarks' own parts (e.g. the load generator's WebSocket client).
      { test: { name: 'bench', root: 'bench', environment: 'node', include: ['**/*.test.ts'], ...pure } },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          environment: 'node',
          include: ['src/**/*.test.{ts,tsx}'],
          // The components under test run on Preact, as in the app. The libraries that import React
          // go through Vite too (not Node's own import), so that the aliases reach them as well.
          server: { deps: { inline: [/react-i18next/, /react-router/, /@tanstack[\\/]react-table/] } },
          ...pure,
        },
        resolve: { alias: preactAliases },
      },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          environment: 'node',
          // Generous: the slowest tests run real encoders, premieres in real time and password
          // hashing, and on a busy 2-core machine they took over 30 s without being wrong.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Migrates one PGlite database per run for every test database to start from.
          globalSetup: ['./src/test-support/global-setup.ts'],
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
          // One file at a time. Each worker gets its own server (global-setup.ts starts one per
          // worker; support/test-server.ts picks it), so two workers work and cut the browser tests
          // from ~10.5 to ~7 min; but three clean-clone runs on two workers each failed a different
          // test that depends on timing or order (a show another file left live ending mid-test, a
          // control's re-render, a live query's notice within 10 s, the comment limit's 10 s window):
          // two Chromiums and two servers on two cores starve the real-time tests.
          maxWorkers: 1,
          // Browser tests run after the others, so they do not compete for the two cores.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
