import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, OutputTail, sleep, track, trackTempDir } from '../realtime-fanout/proc.ts';
import { benchServerEnv } from './server-env.ts';

/** The repository's root, where the benchmarks start the server from source. */
export const REPO = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

/**
 * A tracked child (stopped however the benchmark exits) whose stdout and stderr are kept in a tail,
 * so an error can show what it printed; `echo` picks the lines also written to stderr as they come.
 */
export function spawnWithTail(
  label: string,
  command: string,
  args: string[],
  options: SpawnOptions,
  echo?: (line: string) => boolean,
): { child: ChildProcess; tail: OutputTail } {
  const child = track(spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] }));
  const tail = new OutputTail(label, echo);
  tail.attach(child.stdout);
  tail.attach(child.stderr);
  return { child, tail };
}

/**
 * Polls `isReady` until it answers true. Throws, with what the child printed, as soon as the child
 * has exited (no point waiting on a dead server) or once `timeoutMs` has passed.
 */
export async function waitUntilReady(
  what: string,
  child: ChildProcess,
  tail: OutputTail,
  isReady: () => Promise<boolean>,
  { timeoutMs, pollMs = 200 }: { timeoutMs: number; pollMs?: number },
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${what} exited during start-up:\n${tail.text()}`);
    if (performance.now() > deadline)
      throw new Error(`${what} not ready within ${timeoutMs / 1000} s:\n${tail.text()}`);
    if (await isReady()) return;
    await sleep(pollMs);
  }
}

/** True when a GET of `url` answers 2xx; false while nothing listens there yet. */
export const answersOk = (url: string): Promise<boolean> =>
  fetch(url).then(
    (response) => response.ok,
    () => false,
  );

/**
 * Vitrine from this tree's source (through tsx) on free HTTP and RTMP ports, with a data folder of
 * its own (`vitrine-bench-<name>-…`, deleted when the benchmark exits), once /healthz answers: the
 * server the benchmarks that publish a show to it start. `env` adds to benchServerEnv's.
 */
export async function startVitrineWithIngest(
  name: string,
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; rtmpPort: number; dataDir: string; child: ChildProcess }> {
  const dataDir = trackTempDir(mkdtempSync(join(tmpdir(), `vitrine-bench-${name}-`)));
  const port = await freePort();
  const rtmpPort = await freePort();
  const { child, tail } = spawnWithTail(
    'server',
    process.execPath,
    ['--import', 'tsx', 'apps/server/src/main.ts'],
    {
      cwd: REPO,
      env: benchServerEnv(port, dataDir, { RTMP_PORT: String(rtmpPort), ...env }),
    },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilReady('the server', child, tail, () => answersOk(`${url}/healthz`), {
    timeoutMs: 60_000,
    pollMs: 250,
  });
  return { url, rtmpPort, dataDir, child };
}
