import { configDefaults, defineConfig } from 'vitest/config';
import { preactAliases } from './apps/web/preact-aliases.ts';

/**
 * Projects of pure code (no database, server or browser): their files share one module cache
 * (`isolate: false`) in worker threads instead of each getting a fresh one; their tests pass in
 * any order (`--sequence.shuffle`).
 */
const pure = { isolate: false, pool: 'threads' } as const;

/**
 * The server and browser tests' bounds: generous, so that a busy machine makes them slow, never
 * red; a test that really hangs still ends. Tests wait on conditions, never on fixed times.
 */
const TEST_BOUND_MS = 5 * 60_000;
const HOOK_BOUND_MS = 10 * 60_000;

/**
 * Server test files whose subject is video, child processes or memory, with the database only
 * incidental (single-node writes whose SQL is the same on either engine). The suite's second run,
 * on a PostgreSQL server (`npm test -- server-postgres`, the CI), leaves them out: they run once, on
 * the embedded database, and the second run spends its minutes where the engines differ
 * (connections and locks, several nodes, restarts onto the same database, pg_dump). The start-up
 * report's servers never see DATABASE_URL at all.
 */
export const ENGINE_INDEPENDENT_SERVER_TESTS = [
  'src/startup-report.test.ts',
  'src/doctor/doctor.test.ts',
  // How the embedded database's test databases start from one migrated template.
  'src/test-support/pglite-template.test.ts',
  'src/realtime/memory-bounds.test.ts',
  'src/features/restream/restream.test.ts',
  'src/features/demo/demo-live-show.test.ts',
  'src/features/live/live-session.test.ts',
  'src/features/live/live-renditions.test.ts',
  'src/features/live/live-supervision.test.ts',
  // Encoder faults (drops, crashes, a missing ffmpeg, failing disks) on one node: a show's status
  // and recording rows are its only writes. 70 s of the PostgreSQL run's 165 s, its longest file.
  'src/features/live/live-faults.test.ts',
  // The LL-HLS playlists and parts one node serves (RFC 8216bis, checked by hls-parser).
  'src/features/live/ll-hls.test.ts',
  'src/features/live/transcode-budget.test.ts',
  'src/features/live/whip-ingest.test.ts',
  'src/features/live/whip-keyframe.test.ts',
  'src/features/live/whip-offer.test.ts',
  'src/features/live/whip-readiness.test.ts',
  'src/features/live/rtsp-feed.test.ts',
  'src/features/live/recording-clock.test.ts',
  'src/features/live/recording-disk.test.ts',
  'src/features/live/segment-store.test.ts',
  'src/features/live/rtmp-ingest.test.ts',
  'src/features/live/rtmp/amf0.test.ts',
  'src/features/live/rtmp/flv.test.ts',
  'src/features/live/rtmp/rtmp-chunk-stream.test.ts',
  'src/features/live/rtmp/rtmp-connection.test.ts',
  // The process boundary of a child media worker: the multi-node one (media-worker-nodes) runs on both.
  'src/features/live/media-worker.test.ts',
];
/**
 * How many browser test files run at once, each worker with a server of its own (e2e/global-setup.ts):
 * one unless VITRINE_E2E_WORKERS says more (scripts/test-parts.sh: two in e2e-beside).
 */
const e2eWorkers = Number(process.env.VITRINE_E2E_WORKERS ?? '1');
if (!Number.isInteger(e2eWorkers) || e2eWorkers < 1 || e2eWorkers > 4)
  throw new Error(
    `VITRINE_E2E_WORKERS must be a whole number from 1 to 4, not ${process.env.VITRINE_E2E_WORKERS}`,
  );

/** Set by the `server-postgres` part (scripts/test-parts.sh): the run where the engine is the point. */
const databaseEngineRun = process.env.VITRINE_TEST_ENGINE_RUN === '1';
const serverExclude = databaseEngineRun
  ? [...configDefaults.exclude, ...ENGINE_INDEPENDENT_SERVER_TESTS]
  : configDefaults.exclude;

/**
 * Server test files that load structured-data-testing-tool, which replaces built-ins as it loads
 * (String.prototype.at, trim…, and Array's own methods: `'abc'.at(-1)` is '' after it). They run in
 * project `server-isolated`, each in a process of its own, so that the patches never reach the
 * other files, which share one process per worker (a respelled token's test failed behind them).
 */
const BUILT_IN_PATCHING_SERVER_TESTS = [
  'src/features/clips/clips.test.ts',
  'src/features/public-pages/public-pages.test.ts',
];

/** The server projects' common settings. */
const serverProject = {
  root: 'apps/server',
  environment: 'node',
  // Bounds for a test that hangs, not deadlines for a slow one: the slowest tests run real
  // encoders, premieres in real time and password hashing, and on a machine at load 30 one
  // file's set-up (an embedded database and an app) took over 60 s without being wrong.
  // One bound for every test of the project (no test sets a smaller one of its own).
  testTimeout: TEST_BOUND_MS,
  hookTimeout: HOOK_BOUND_MS,
  // Names the migrated database every test database starts from: on PGlite one kept between runs
  // (made by the `test-database` part, or here if missing), on PostgreSQL a template made per run.
  globalSetup: ['./src/test-support/global-setup.ts'],
} as const;

export default defineConfig({
  test: {
    // Two cores: server test files each start an embedded database (~3 s, ~500 MB). Alone, the
    // server files leave the cores half idle (they wait on encoders and timers), but beside the
    // browser tests the two are CPU-bound: three server workers made the part beside them slower
    // (server 428 → 475 s, browser tests 356 → 466 s in clean-clone runs). The test loop's
    // integration parts, which run alone, ask for four (scripts/test-parts.sh, integration_workers).
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
          ...serverProject,
          // A worker runs its files one after another in one process on one module graph, rather
          // than a new process importing the whole server for every file: the imports took 838 s of
          // the files' 3,527 s in a CI run (two cores, beside the browser tests), and 26 s in all
          // without isolation (run alone). The files share no state through it: each opens its own
          // database and app and closes them, none mocks a module or changes process.env, and the
          // one that fakes timers restores them; those that load a library patching built-ins run
          // in the project below.
          isolate: false,
          exclude: [...serverExclude, ...BUILT_IN_PATCHING_SERVER_TESTS],
        },
      },
      {
        test: {
          name: 'server-isolated',
          ...serverProject,
          include: BUILT_IN_PATCHING_SERVER_TESTS,
          exclude: serverExclude,
        },
      },
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          environment: 'node',
          include: ['**/*.e2e.ts'],
          globalSetup: ['./global-setup.ts'],
          // As the server project's: a browser test at load 30 took a minute where it takes seconds.
          testTimeout: TEST_BOUND_MS,
          hookTimeout: HOOK_BOUND_MS,
          // One file at a time unless VITRINE_E2E_WORKERS says more. Each worker gets its own
          // server (global-setup.ts starts one per worker; support/test-server.ts picks it). The
          // test loop's part e2e-beside runs two (scripts/test-parts.sh): its files mostly wait on
          // pages and live streams (one worker left the cores ~55–75% idle). On an earlier, slower
          // machine, two workers beside the integration suite each time failed a different test that
          // depends on timing or order (a show another file left live ending mid-test, a live query's
          // notice within 10 s, the comment limit's 10 s window); those files now run in part
          // e2e-alone, one at a time with nothing beside it.
          maxWorkers: e2eWorkers,
          // Each file in a process of its own, unlike the server project's: a browser test's
          // publishers and browser contexts must never outlive it into the next file's measurements
          // (the Chromium processes are shared: e2e/support/browser.ts). (A
          // clean-clone run with one shared process saved ~100 s of imports and failed three tests
          // that had passed isolated on the same machine; not proven the cause, not kept.)
          isolate: true,
          // Browser tests run after the others, so they do not compete for the two cores.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
