// What a demo server costs while nobody watches (issue 28 item 7): the compiled server with the
// demo seeded and its live show fed by the demo encoder (VITRINE_DEMO_LIVE on, the default), as
// `npm start` runs it. CPU of the server and of its child processes (the demo's ffmpeg) is read
// from /proc over a window while the encoder runs (just after the start, with no viewer yet), and
// again once the encoder has rested (no ffmpeg child left). The baseline in the same run is the
// same server with VITRINE_DEMO_LIVE=0 (no encoder at all). Prints the load average beside them.
// Build first: `npm run build`.
//
//   node --import tsx bench/start/idle.ts [--window 30]

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchServerEnv } from '../support/server-env.ts';
import { freePort, loadAverage } from './start-support.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const MAIN = join(ROOT, 'dist/server/main.mjs');
const { values } = parseArgs({ options: { window: { type: 'string', default: '30' } } });
const WINDOW_MS = Number(values.window) * 1000;
/** Clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux everywhere). */
const TICKS_PER_SECOND = 100;

/** Every process whose parent chain reaches `root` (itself included). */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // Gone between the listing and the read.
    }
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index++) {
    for (const [pid, parent] of parents) if (parent === tree[index]) tree.push(pid);
  }
  return tree;
}

/** CPU ticks (user + system) each process of the tree has used so far. */
function ticksOf(pids: number[]): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // Ended.
    }
  }
  return ticks;
}

const commandOf = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};
const hasEncoder = (root: number) => processTree(root).some((pid) => commandOf(pid) === 'ffmpeg');

/** The share of one core the tree used over the window (processes started within it count from 0). */
async function cpuShare(root: number): Promise<number> {
  const before = ticksOf(processTree(root));
  const startedAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
  const after = ticksOf(processTree(root));
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  let used = 0;
  for (const [pid, ticks] of after) used += ticks - (before.get(pid) ?? 0);
  return used / TICKS_PER_SECOND / elapsedSeconds;
}

async function waitFor(what: string, test: () => Promise<boolean> | boolean, child: ChildProcess) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before ${what}`);
    if (await test()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function startServer(demoLive: boolean) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-bench-idle-'));
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: benchServerEnv(port, dataDir, {
      VITRINE_ADMIN_KEY: 'bench-idle-admin-key-0123456789-abcdef',
      VITRINE_DEMO_LIVE: demoLive ? '1' : '0',
    }),
    stdio: 'ignore',
  });
  await waitFor(
    'answering /readyz',
    () =>
      fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.ok,
        () => false,
      ),
    child,
  );
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { child, pid: child.pid as number, stop };
}

const percent = (share: number) => `${(share * 100).toFixed(1)} % of a core`;

if (!existsSync(MAIN)) {
  process.stderr.write('dist/server/main.mjs is missing: run `npm run build` first.\n');
  process.exit(1);
}
process.stdout.write(
  `idle CPU of a demo server with no viewer, ${WINDOW_MS / 1000} s windows; ${loadAverage()}\n`,
);

const baseline = await startServer(false);
try {
  // Past the start-up's own work (seeding, the first reads).
  await new Promise((resolve) => setTimeout(resolve, 5000));
  process.stdout.write(
    `  no demo encoder (baseline):        ${percent(await cpuShare(baseline.pid))}; ${loadAverage()}\n`,
  );
} finally {
  await baseline.stop();
}

const demo = await startServer(true);
try {
  await waitFor('the demo encoder started', () => hasEncoder(demo.pid), demo.child);
  process.stdout.write(
    `  demo encoder running (after start): ${percent(await cpuShare(demo.pid))}; ${loadAverage()}\n`,
  );
  const restStartedAt = performance.now();
  await waitFor('the demo encoder rested', () => !hasEncoder(demo.pid), demo.child);
  const restedAfter = ((performance.now() - restStartedAt) / 1000).toFixed(0);
  process.stdout.write(
    `  demo encoder rested (${restedAfter} s later): ${percent(await cpuShare(demo.pid))}; ${loadAverage()}\n`,
  );
} finally {
  await demo.stop();
}
