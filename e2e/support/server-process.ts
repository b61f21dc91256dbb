import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { freePort } from '../../apps/server/src/test-support/free-port.ts';
import { releaseEntry } from '../../apps/server/src/test-support/release-build.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

export interface RunningServer {
  url: string;
  /** The demo retailer site (a second origin embedding the player), e.g. http://127.0.0.1:PORT; null when not served. */
  retailerUrl: string | null;
  process: ChildProcess;
  /** Milliseconds from spawning the process to the first page served. */
  coldStartMs: number;
  /** The demo owner's one-time studio link, when the server printed one (VITRINE_PRINT_STUDIO_LINK=1). */
  studioLink: string | null;
  /** Everything the server printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Names the data directory of an embedded database created and migrated once per browser-test run
 * (e2e/global-setup.ts). Creating an embedded database is most of a first start (68 of 81 s were
 * seen on a busy machine); a server given an empty data dir starts from a copy of this one instead.
 */
export const DATABASE_TEMPLATE_ENV = 'VITRINE_E2E_DATABASE_TEMPLATE';

/**
 * How long a server start may take before the test gives up. A first start creates the embedded
 * database, migrates it and seeds the demo store: seconds on a quiet machine, but 78–111 s were
 * seen on a machine at load 40, so the bound is generous and the failure says where it stood.
 */
export const SERVER_START_BOUND_MS = 10 * 60_000;

/** The server's own start-up steps (main.ts prints "Start-up (…): …"), with when each arrived. */
interface StartupStep {
  atMs: number;
  line: string;
}

/**
 * Starts the real server (`npm run serve`'s command) on a free port with its own data dir and
 * waits until it serves the storefront page and has printed its URLs. The demo retailer gets any
 * free port unless `env` sets VITRINE_DEMO_RETAILER_PORT, and so does the RTMP ingest. It waits on
 * readiness, not a fixed time: if the server exits, or has not finished within
 * SERVER_START_BOUND_MS, the error lists the steps the server reported and when. An empty
 * VITRINE_DATA_DIR starts as a copy of the run's migrated database when there is one, unless
 * `freshDatabase` asks for a first start as a newcomer's (creating the database itself). It runs
 * the release build (dist/server/main.mjs, what `npm start` and a production install run): the
 * browser tests' global set-up brings it up to date with the sources first (updateReleaseBuild).
 */
export async function startServer(
  env: Record<string, string>,
  options: { boundMs?: number; freshDatabase?: boolean } = {},
): Promise<RunningServer> {
  const template = process.env[DATABASE_TEMPLATE_ENV];
  const dataDir = env.VITRINE_DATA_DIR;
  if (
    template &&
    dataDir &&
    !options.freshDatabase &&
    (!existsSync(dataDir) || !readdirSync(dataDir).length)
  ) {
    cpSync(template, dataDir, { recursive: true });
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  const child = spawn(process.execPath, [releaseEntry('main')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      VITRINE_DEMO_RETAILER_PORT: '0',
      // The RTMP ingest on any free port beside other servers; the demo live show keeps its
      // deterministic MP4 unless a test asks for the real stream (VITRINE_DEMO_LIVE=1).
      RTMP_PORT: '0',
      VITRINE_DEMO_LIVE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Output can still arrive after 'exit'; 'close' comes once the pipes are drained.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let output = '';
  const steps: StartupStep[] = [];
  let partialLine = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    const lines = (partialLine + text).split('\n');
    partialLine = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('Start-up')) steps.push({ atMs: performance.now() - startedAt, line });
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const boundMs = options.boundMs ?? SERVER_START_BOUND_MS;
  const failure = (what: string) => {
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const reported = steps.length
      ? steps.map((step) => `  at ${seconds(step.atMs)}: ${step.line}`).join('\n')
      : '  (none)';
    return new Error(
      `${what} (${seconds(performance.now() - startedAt)} after spawning it).\n` +
        `Start-up steps the server reported:\n${reported}\nIts output:\n${output}`,
    );
  };
  const ready = async (condition: () => Promise<boolean> | boolean, what: string) => {
    while (!(await condition())) {
      if (child.exitCode !== null || child.signalCode !== null) {
        // Its last lines, unless something it started holds the pipes open.
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5000))]);
        throw failure(`the server exited (${child.exitCode ?? child.signalCode}) before ${what}`);
      }
      if (performance.now() - startedAt > boundMs) {
        child.kill('SIGKILL');
        throw failure(`the server did not get to ${what} within ${boundMs / 1000} s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await ready(
    () =>
      // One attempt may wait on a busy machine, but never forever.
      fetch(`${url}/`, { signal: AbortSignal.timeout(10_000) }).then(
        (response) => response.ok,
        () => false,
      ),
    'serving the storefront page',
  );
  const coldStartMs = performance.now() - startedAt;
  // main.ts prints "Vitrine storefront: …" (and "Demo retailer: …") once everything listens.
  await ready(() => output.includes('Vitrine storefront:'), 'printing its URLs');
  const retailerUrl = /Demo retailer:\s+(http\S+?)\/?$/m.exec(output)?.[1] ?? null;
  const studioLink = /^\s+(http\S+\/studio\/link#\S+)$/m.exec(output)?.[1] ?? null;
  return {
    url,
    retailerUrl,
    process: child,
    coldStartMs,
    studioLink,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
