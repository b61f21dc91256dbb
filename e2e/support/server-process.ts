import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

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

/** How long a server may take to serve its first page: longer on a machine busy with other work. */
const START_DEADLINE_MS = Number(process.env.VITRINE_E2E_START_MS ?? 60_000);

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/**
 * Starts the real server (`npm run serve`'s command) on a free port with its own data dir and
 * waits until it serves the storefront page and has printed its URLs. The demo retailer gets any
 * free port unless `env` sets VITRINE_DEMO_RETAILER_PORT, and so does the RTMP ingest.
 */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
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
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = Date.now() + START_DEADLINE_MS;
  while (true) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within ${START_DEADLINE_MS / 1000} s:\n${output}`);
    }
    const ok = await fetch(`${url}/`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const coldStartMs = performance.now() - startedAt;
  // main.ts prints "Vitrine storefront: …" (and "Demo retailer: …") once everything listens.
  while (!output.includes('Vitrine storefront:')) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not print its URLs within ${START_DEADLINE_MS / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
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
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
