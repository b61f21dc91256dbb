// Start-up time of the server: the compiled release (`npm run build`, dist/server/main.mjs, what
// `npm start` runs) with Node's compile cache (as `npm start` turns it on) and without it, against
// the TypeScript sources run through tsx (what `npm start` ran before
// the release build, and `npm run dev` still runs). A start is timed from spawning the process to
// its first `200` on /readyz, on the embedded database, without the demo's live encoder:
//   cold  the first start on an empty data folder (creates the database, seeds the demo store)
//   warm  a later start on that folder (what a restart or a deploy costs)
// Prints the machine's load beside the figures: on a shared machine only the medians and the
// ratio mean much. Build first: `npm run build`.
//
//   node --import tsx bench/start/run.ts [--runs 5] [--postgres postgres://postgres@127.0.0.1:5432]
// With --postgres each server gets a fresh database of that server (dropped afterwards) instead of
// the embedded one: a production start.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { benchServerEnv } from '../support/server-env.ts';
import { freePort, loadAverage, median } from './start-support.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const SERVERS = {
  // The bundle with Node's compile cache on, as `npm start` (scripts/start.mjs) runs it; here
  // through NODE_COMPILE_CACHE, which is the same cache, so that start.mjs's build check (a
  // source checkout's, ~0.1 s quiet) is not timed with it.
  cached: ['dist/server/main.mjs'],
  // The bundle without the compile cache: the baseline of the line above.
  compiled: ['dist/server/main.mjs'],
  tsx: ['--import', 'tsx', 'apps/server/src/main.ts'],
} as const;
type ServerKind = keyof typeof SERVERS;

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, postgres: { type: 'string' } },
});
const runs = Number(values.runs);
const postgres = values.postgres?.replace(/\/+$/, '') ?? null;

/** Runs one statement on the PostgreSQL server's maintenance database. */
async function onServer(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${postgres}/postgres` });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
const databaseOf = (kind: ServerKind) => `vitrine_bench_start_${kind}_${process.pid}`;

/** Milliseconds from spawning the server to its first ready answer; the server is then stopped. */
async function timeStart(kind: ServerKind, dataDir: string): Promise<number> {
  const port = await freePort();
  const startedAt = performance.now();
  const child: ChildProcess = spawn(process.execPath, SERVERS[kind], {
    cwd: ROOT,
    env: benchServerEnv(port, dataDir, {
      ...(postgres ? { DATABASE_URL: `${postgres}/${databaseOf(kind)}` } : {}),
      VITRINE_ADMIN_KEY: 'bench-start-admin-key-0123456789',
      VITRINE_DEMO_LIVE: '0',
      ...(kind === 'cached' ? { NODE_COMPILE_CACHE: compileCacheDir } : {}),
    }),
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the ${kind} server exited with ${child.exitCode}`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) return performance.now() - startedAt;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

if (!existsSync(join(ROOT, SERVERS.compiled[0]))) {
  process.stderr.write('dist/server/main.mjs is missing: run `npm run build` first.\n');
  process.exit(1);
}
process.stdout.write(
  `start-up of the server, node ${process.version}, ${runs} warm starts each; ${loadAverage()}\n`,
);
const results: Record<ServerKind, { cold: number; warm: number[] }> = {
  cached: { cold: 0, warm: [] },
  compiled: { cold: 0, warm: [] },
  tsx: { cold: 0, warm: [] },
};
/** The compile cache of the `cached` starts: its cold start fills it, its warm starts reuse it. */
const compileCacheDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-start-compile-cache-'));
const dataDirs: Record<ServerKind, string> = { cached: '', compiled: '', tsx: '' };
try {
  for (const kind of Object.keys(SERVERS) as ServerKind[]) {
    dataDirs[kind] = mkdtempSync(join(tmpdir(), `vitrine-bench-start-${kind}-`));
    if (postgres) await onServer(`CREATE DATABASE ${databaseOf(kind)}`);
    results[kind].cold = await timeStart(kind, dataDirs[kind]);
  }
  // Warm starts of the two in turn, so a change of the machine's load falls on both.
  for (let run = 0; run < runs; run++) {
    for (const kind of Object.keys(SERVERS) as ServerKind[]) {
      results[kind].warm.push(await timeStart(kind, dataDirs[kind]));
    }
  }
} finally {
  for (const dir of [...Object.values(dataDirs), compileCacheDir]) {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  if (postgres) {
    for (const kind of Object.keys(SERVERS) as ServerKind[]) {
      await onServer(`DROP DATABASE IF EXISTS ${databaseOf(kind)}`);
    }
  }
}
for (const kind of Object.keys(SERVERS) as ServerKind[]) {
  const { cold, warm } = results[kind];
  process.stdout.write(
    `${kind.padEnd(9)} cold ${seconds(cold)}   warm median ${seconds(median(warm))} (min ${seconds(Math.min(...warm))}, max ${seconds(Math.max(...warm))})\n`,
  );
}
const ratio = median(results.tsx.warm) / median(results.compiled.warm);
const cacheRatio = median(results.cached.warm) / median(results.compiled.warm);
process.stdout.write(
  `warm start, tsx / compiled: ${ratio.toFixed(2)}, cached / compiled: ${cacheRatio.toFixed(2)}; ${loadAverage()}\n`,
);
