/**
 * Realtime fan-out benchmark: N viewers of one live show, a writer posting comments at a steady
 * rate; delivered messages/s, delivery latency, server memory per connection, on Vitrine and on a
 * plain Socket.IO broadcast server (`--mode single`), or across two Vitrine processes sharing
 * Redis and PostgreSQL (`--mode redis`). See README.md.
 *
 *   node --import tsx bench/realtime-fanout/run.ts [--connections 5000] [--rate 10] [--seconds 15]
 *     [--mode single|redis|join-storm] [--impl both|vitrine|socket.io] [--loadgens N]
 *     [--redis-url redis://127.0.0.1:6379] [--database-url postgres://postgres@127.0.0.1:5432/vitrine_bench]
 */
import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { COMMENT_RATE_LIMIT, COMMENT_RATE_WINDOW_MS } from '@vitrine/protocol';
import { Redis } from 'ioredis';
import { onDatabase } from '../support/server-env.ts';
import { spawnWithTail } from '../support/server-process.ts';
import { Histogram } from './histogram.ts';
import type { ClientKind, FromLoadgen, Impl, LoadgenTarget, NodeStats, ToLoadgen } from './loadgen.ts';
import {
  clock,
  freePort,
  freshDatabase,
  installCleanup,
  type OutputTail,
  openFileLimit,
  type RedisBytes,
  readCpuSeconds,
  readMachineBusySeconds,
  readRss,
  removeTempDir,
  sleep,
  startCountingProxy,
  stopChild,
  track,
  trackTempDir,
} from './proc.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const REPO = join(HERE, '..', '..');
const HOOKS = pathToFileURL(join(HERE, 'child-hooks.ts')).href;
const DEMO_PAGE_UID = 'demo-store';
const DEFAULT_CAMPAIGN_UID = 'demo-autumn-living';
const SERVER_FLAGS = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
/** How long the writer waits for a comment POST before counting it as failed. */
const WRITER_TIMEOUT_MS = 30_000;
// First: whatever way the benchmark ends (--help, a bad option, a failure, Ctrl-C), its children
// are stopped and its temporary directories removed.
installCleanup();
/** Server processes write their memory figures here on SIGUSR2 (see child-hooks.ts). */
const MEMORY_DIR = trackTempDir(mkdtempSync(join(tmpdir(), 'vitrine-bench-memory-')));
/** File descriptors a process keeps for itself besides the viewer sockets. */
const FD_RESERVE = 500;
/** Redis key prefix of this run's Vitrine nodes; its keys are deleted at the end. */
const REDIS_PREFIX = `vitrine-bench-${randomBytes(6).toString('hex')}:`;

// ── options ───────────────────────────────────────────────────────────────────

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string' },
    rate: { type: 'string', default: '10' },
    seconds: { type: 'string' },
    'connect-concurrency': { type: 'string' },
    mode: { type: 'string', default: 'single' },
    impl: { type: 'string', default: 'both' },
    client: { type: 'string', default: 'lean' },
    loadgens: { type: 'string' },
    'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
    'database-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/vitrine_bench' },
    'server-processes': { type: 'string' },
    presence: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (args.help) {
  process.stdout.write(`${readUsage()}\n`);
  process.exit(0);
}

function readUsage() {
  return [
    'node --import tsx bench/realtime-fanout/run.ts [options]',
    '  --connections N   viewers (default 5000, join-storm 10000; up to 50000; limited by the open-file limit)',
    '  --rate R          comments per second (default 10)',
    '  --seconds S       duration of the write phase (default 15, join-storm 5)',
    '  --mode M          single (Vitrine vs Socket.IO) | redis (two Vitrine nodes on Redis + PostgreSQL)',
    '                    | join-storm (single, with every viewer joining at once: connect time and CPU per connect)',
    '  --connect-concurrency C  viewers each load generator opens at once (default 64, join-storm 1000)',
    '  --impl I          single mode: both | vitrine | socket.io (default both)',
    '  --client C        viewers: lean (default: lean-websocket.ts, one socket and a small parser per viewer)',
    '                    | library (ws and socket.io-client) | both (each implementation with library, then lean)',
    '  --loadgens K      load-generator processes (default: as few as the open-file limit allows)',
    '  --redis-url U     redis mode (default redis://127.0.0.1:6379)',
    '  --database-url U  redis mode; dropped and created afresh, dropped at the end (default …/vitrine_bench)',
    '  --server-processes P  server processes per implementation (default: as few as the open-file limit allows)',
    "  --presence        Vitrine viewers also follow the show's products and its viewerCount",
    "  --verbose         echo the servers' log lines",
  ].join('\n');
}

function positiveInt(name: string, value: string | undefined, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) fail(`--${name} must be an integer from 1 to ${max}`);
  return n;
}

function fail(message: string): never {
  process.stderr.write(`realtime-fanout: ${message}\n`);
  process.exit(2);
}

const modeArg = args.mode;
if (modeArg !== 'single' && modeArg !== 'redis' && modeArg !== 'join-storm')
  fail('--mode must be single, redis or join-storm');
const mode: 'single' | 'redis' | 'join-storm' = modeArg;
const joinStorm = mode === 'join-storm';
const connections = positiveInt('connections', args.connections ?? (joinStorm ? '10000' : '5000'), 50_000);
const rate = positiveInt('rate', args.rate, 10_000);
const seconds = positiveInt('seconds', args.seconds ?? (joinStorm ? '5' : '15'), 3_600);
/** Viewers a load generator opens at once: a join storm has them all arrive together. */
const connectConcurrency = positiveInt(
  'connect-concurrency',
  args['connect-concurrency'] ?? (joinStorm ? '1000' : '64'),
  50_000,
);
const implArg = args.impl;
if (implArg !== 'both' && implArg !== 'vitrine' && implArg !== 'socket.io')
  fail('--impl must be both, vitrine or socket.io');
const impls: Impl[] =
  mode === 'redis' ? ['vitrine'] : implArg === 'both' ? ['vitrine', 'socket.io'] : [implArg];
const totalComments = rate * seconds;
const clientArg = args.client;
if (clientArg !== 'lean' && clientArg !== 'library' && clientArg !== 'both')
  fail('--client must be lean, library or both');
const clients: ClientKind[] = clientArg === 'both' ? ['library', 'lean'] : [clientArg];
/** The client kind of the run in progress. */
let client: ClientKind = clients[0]!;

/**
 * Open files per process. A process may raise its own soft limit up to the hard limit (Node cannot,
 * but `prlimit` can for the servers it starts); above the hard limit only a process with
 * CAP_SYS_RESOURCE can go. When even that fails, the viewers are spread over several server
 * processes of each implementation (see `serverProcesses`), and the run says so.
 */
const inheritedFdLimit = openFileLimit();
const serverFdNeeded = Math.ceil(connections / (mode === 'redis' ? 2 : 1)) + FD_RESERVE;
const fdLimitRaise = serverFdNeeded > inheritedFdLimit ? raiseOpenFileLimit(serverFdNeeded) : null;
const fdLimit = fdLimitRaise?.ok ? serverFdNeeded : inheritedFdLimit;
/**
 * Server processes per implementation: redis mode always runs two Vitrine nodes; a single-node run
 * that does not fit in one process's open files runs as that many nodes: Vitrine on Redis and
 * PostgreSQL (as in redis mode), the Socket.IO baseline sharing broadcasts over Redis pub/sub.
 */
const serverProcesses = Math.max(
  mode === 'redis' ? 2 : 1,
  args['server-processes'] ? positiveInt('server-processes', args['server-processes'], 26) : 1,
  Math.ceil(connections / Math.max(1, fdLimit - FD_RESERVE)),
);
const nodeLabel = (index: number) => String.fromCharCode(65 + index);
/** After connecting: how long the benchmark watches the idle servers (presence and keep-alive cost). */
const IDLE_WINDOW_MS = 10_000;
const perLoadgenCap = inheritedFdLimit - FD_RESERVE;
const loadgenCount = args.loadgens
  ? positiveInt('loadgens', args.loadgens, 64)
  : Math.max(1, Math.ceil(connections / perLoadgenCap));
if (Math.ceil(connections / loadgenCount) > perLoadgenCap)
  fail(
    `--loadgens ${loadgenCount} would put more connections in one process than the open-file limit allows`,
  );

/** Whether `prlimit` may give a child `needed` open files (soft and hard); why not when it may not. */
function raiseOpenFileLimit(needed: number): { ok: boolean; why: string } {
  const probe = spawnSync('prlimit', [`--nofile=${needed}:${needed}`, '--', 'true'], { encoding: 'utf8' });
  if (probe.error) return { ok: false, why: `prlimit: ${probe.error.message}` };
  if (probe.status !== 0)
    return { ok: false, why: (probe.stderr || `prlimit exited ${probe.status}`).trim() };
  return { ok: true, why: '' };
}

/** The command that starts a server with enough open files: through prlimit when the limit was raised. */
function serverCommand(nodeArgs: string[]): [string, string[]] {
  return fdLimitRaise?.ok
    ? ['prlimit', [`--nofile=${fdLimit}:${fdLimit}`, '--', process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
}

const startedAt = performance.now();
/** Progress on stderr, each line stamped with the seconds since the benchmark started. */
const log = (line: string) =>
  process.stderr.write(`[${((performance.now() - startedAt) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);

// ── HTTP ──────────────────────────────────────────────────────────────────────

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

async function http(
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
  timeoutMs = 10_000,
): Promise<{ status: number; body: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        agent,
        timeout: timeoutMs,
        headers: {
          ...headers,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`${method} ${url}: no answer within ${timeoutMs / 1000} s`)),
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function postJson<T>(
  url: string,
  body: unknown,
  headers?: Record<string, string>,
  timeoutMs?: number,
): Promise<T> {
  const res = await http('POST', url, body, headers, timeoutMs);
  if (res.status !== 200) throw new Error(`POST ${url}: ${res.status} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as T;
}

// ── servers ───────────────────────────────────────────────────────────────────

interface ServerProcess {
  label: string;
  impl: Impl;
  baseUrl: string;
  child: ChildProcess;
  tail: OutputTail;
  dataDir?: string;
  /** performance.now() when /readyz first answered. */
  readyAt: number;
}

/** Echoes a server's log lines at warn and above (pino JSON lines; plain lines are start-up chatter). */
const echoLogLine = (line: string) => args.verbose || line.startsWith('{') || /error|warn/i.test(line);

/**
 * Starts a measured server (`entry`: Vitrine's main or the Socket.IO baseline) with the same node
 * flags for both, its output kept, and resolves once /readyz answers.
 */
async function startMeasured(
  impl: Impl,
  label: string,
  entry: string,
  port: number,
  env: NodeJS.ProcessEnv,
  readyWithinMs: number,
  dataDir?: string,
): Promise<ServerProcess> {
  const { child, tail } = spawnWithTail(
    `${impl} ${label}`,
    ...serverCommand([...SERVER_FLAGS, '--expose-gc', '--import', 'tsx', '--import', HOOKS, entry]),
    { cwd: REPO, env },
    echoLogLine,
  );
  const server: ServerProcess = {
    label,
    impl,
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    tail,
    dataDir,
    readyAt: 0,
  };
  await waitReady(server, readyWithinMs);
  return server;
}

async function startVitrine(label: string, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = trackTempDir(mkdtempSync(join(tmpdir(), 'vitrine-bench-')));
  // The database and Redis of a run are the ones `env` names (redis mode), never the shell's.
  const childEnv = onDatabase(process.env, null);
  return startMeasured(
    'vitrine',
    label,
    'apps/server/src/main.ts',
    port,
    {
      ...childEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      VITRINE_DATA_DIR: dataDir,
      VITRINE_SEED_DEMO: '1',
      VITRINE_ADMIN_KEY: randomBytes(24).toString('base64url'),
      LOG_LEVEL: 'warn',
      LOG_PRETTY: '0',
      BENCH_MEMORY_DIR: MEMORY_DIR,
      // The demo show's ffmpeg encoder and RTMP ingest would share the cores with what is
      // measured (and only on the node that got port 1935): the show stays live on its MP4.
      VITRINE_DEMO_LIVE: '0',
      RTMP_PORT: 'off',
      // This run's own keys: other sessions may use the same Redis with the default prefix.
      VITRINE_REDIS_PREFIX: REDIS_PREFIX,
      ...env,
    },
    120_000,
    dataDir,
  );
}

async function startSocketIo(label = 'A', env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  return startMeasured(
    'socket.io',
    label,
    join(HERE, 'socketio-baseline.ts'),
    port,
    { ...process.env, PORT: String(port), HOST: '127.0.0.1', BENCH_MEMORY_DIR: MEMORY_DIR, ...env },
    60_000,
  );
}

interface MemoryReading {
  rss: number | null;
  /** V8 heap in use plus memory outside it held by JS objects (buffers, WebAssembly memory). */
  heap: number | null;
}

/**
 * Memory of each server after full garbage collections (see child-hooks.ts), once it is steady:
 * at least `minSinceReadyMs` after the server became ready and three readings a second apart within
 * 1 MB (at most 30 s). The wait matters for Vitrine: some 15 s after start-up the embedded
 * database's WebAssembly code settles and about 30 MB of RSS is released.
 */
async function settledMemory(servers: ServerProcess[], minSinceReadyMs: number): Promise<MemoryReading[]> {
  const deadline = performance.now() + 30_000;
  const history: Array<Array<number | null>> = servers.map(() => []);
  for (;;) {
    for (const server of servers) server.child.kill('SIGUSR2');
    await sleep(1_000);
    servers.forEach((server, i) => {
      history[i]!.push(readRss(server.child.pid!));
    });
    const oldEnough = servers.every((server) => performance.now() - server.readyAt >= minSinceReadyMs);
    const steady = history.every((readings) => {
      const last = readings.slice(-3);
      if (last.length < 3 || last.some((r) => r === null)) return false;
      const values = last as number[];
      return Math.max(...values) - Math.min(...values) < 1024 * 1024;
    });
    if ((oldEnough && steady) || performance.now() > deadline) break;
  }
  return servers.map((server, i) => {
    let heap: number | null = null;
    try {
      const usage = JSON.parse(readFileSync(join(MEMORY_DIR, `${server.child.pid}.json`), 'utf8')) as {
        heapUsed: number;
        external: number;
      };
      heap = usage.heapUsed + usage.external;
    } catch {
      // No figures: the hook did not run.
    }
    return { rss: history[i]!.at(-1) ?? null, heap };
  });
}

async function waitReady(server: ServerProcess, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null)
      throw new Error(`${server.impl} ${server.label} exited during start-up:\n${server.tail.text()}`);
    try {
      const res = await http('GET', `${server.baseUrl}/readyz`);
      if (res.status === 200) {
        server.readyAt = performance.now();
        return;
      }
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  throw new Error(
    `${server.impl} ${server.label} not ready within ${timeoutMs / 1000} s:\n${server.tail.text()}`,
  );
}

async function stopServer(server: ServerProcess) {
  await stopChild(server.child, 15_000);
  if (server.dataDir) removeTempDir(server.dataDir);
}

// ── load generators ───────────────────────────────────────────────────────────

class Loadgen {
  readonly child: ChildProcess;
  private inbox: FromLoadgen[] = [];
  private waiters: Array<() => void> = [];
  exited = false;

  constructor(readonly index: number) {
    this.child = track(
      fork(join(HERE, 'loadgen.ts'), [], {
        cwd: REPO,
        // BENCH_LOADGEN_CPU_PROF=<dir>: a V8 CPU profile of each load generator, to see what a
        // viewer costs the generator (it shares the cores with the server).
        execArgv: [
          '--import',
          'tsx',
          '--import',
          HOOKS,
          ...(process.env.BENCH_LOADGEN_CPU_PROF
            ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_LOADGEN_CPU_PROF]
            : []),
        ],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    this.child.on('message', (message: FromLoadgen) => {
      if (message.type === 'progress') {
        log(`  load generator ${index}: ${message.ready} viewers ready`);
        return;
      }
      this.inbox.push(message);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.child.on('exit', () => {
      this.exited = true;
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  send(message: ToLoadgen) {
    this.child.send(message);
  }

  /** The next message of this type, waiting at most `timeoutMs`. */
  async next<T extends FromLoadgen['type']>(
    type: T,
    timeoutMs: number,
  ): Promise<Extract<FromLoadgen, { type: T }>> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const index = this.inbox.findIndex((message) => message.type === type);
      if (index >= 0) return this.inbox.splice(index, 1)[0] as Extract<FromLoadgen, { type: T }>;
      if (this.exited) throw new Error(`load generator ${this.index} exited`);
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`load generator ${this.index}: no ${type} within ${timeoutMs / 1000} s`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1_000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async stop() {
    if (this.exited) return;
    this.send({ type: 'exit' });
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await Promise.race([exited, sleep(5_000)]);
    await stopChild(this.child, 2_000);
  }
}

/** Splits the viewers over the load generators; each load generator spreads its share over the servers. */
function planLoad(servers: ServerProcess[]): LoadgenTarget[][] {
  const plans: LoadgenTarget[][] = Array.from({ length: loadgenCount }, () => []);
  servers.forEach((server, s) => {
    const forServer = Math.floor(connections / servers.length) + (s < connections % servers.length ? 1 : 0);
    for (let g = 0; g < loadgenCount; g++) {
      const count = Math.floor(forServer / loadgenCount) + (g < forServer % loadgenCount ? 1 : 0);
      if (count > 0) plans[g]!.push({ node: server.label, baseUrl: server.baseUrl, count });
    }
  });
  return plans;
}

// ── writer ────────────────────────────────────────────────────────────────────

interface WriteResult {
  sent: number;
  accepted: number;
  /** The comment numbers n whose POST answered 200. */
  acceptedNumbers: number[];
  errors: string[];
  firstSendAt: number;
  lastSendAt: number;
  /** How late the writer got behind its schedule at worst, in ms. */
  maxLagMs: number;
  achievedRate: number;
  /** Round trip of the writer's POST (request to response). */
  post: ReturnType<Histogram['summary']>;
}

/**
 * Posts `count` comments `<prefix>:<sentAtMs>:<n>` at a steady rate (open loop: it does not wait
 * for answers, but keeps at most 64 requests open; each answers or fails within WRITER_TIMEOUT_MS).
 * Viewers count the `bench:` ones.
 */
async function writeComments(
  post: (text: string) => Promise<void>,
  count = totalComments,
  prefix = 'bench',
): Promise<WriteResult> {
  const errors: string[] = [];
  let accepted = 0;
  const acceptedNumbers: number[] = [];
  let inflight = 0;
  let maxLagMs = 0;
  const pending: Promise<void>[] = [];
  const startedAt = performance.now();
  const firstSendAt = clock();
  let lastSendAt = firstSendAt;
  const postTimes = new Histogram();
  for (let n = 0; n < count; n++) {
    const wait = startedAt + (n * 1000) / rate - performance.now();
    if (wait > 1) await sleep(wait);
    // Bounded: every request answers or times out within WRITER_TIMEOUT_MS.
    while (inflight >= 64) await sleep(1);
    maxLagMs = Math.max(maxLagMs, performance.now() - (startedAt + (n * 1000) / rate));
    inflight++;
    const sentAt = clock();
    lastSendAt = sentAt;
    pending.push(
      post(`${prefix}:${sentAt.toFixed(3)}:${n}`)
        .then(() => {
          accepted++;
          acceptedNumbers.push(n);
          postTimes.record(clock() - sentAt);
        })
        .catch((error: unknown) => {
          if (errors.length < 5) errors.push(error instanceof Error ? error.message : String(error));
        })
        .finally(() => {
          inflight--;
        }),
    );
  }
  await Promise.all(pending);
  const elapsedS = (lastSendAt - firstSendAt) / 1000;
  return {
    sent: count,
    accepted,
    acceptedNumbers,
    errors,
    firstSendAt,
    lastSendAt,
    maxLagMs: Math.round(maxLagMs * 10) / 10,
    achievedRate: elapsedS > 0 ? Math.round(((count - 1) / elapsedS) * 10) / 10 : count,
    post: postTimes.summary(),
  };
}

// ── one run ───────────────────────────────────────────────────────────────────

interface NodeResult {
  node: string;
  connections: number;
  deliveriesExpected: number;
  deliveriesReceived: number;
  deliveriesOfUnconfirmedComments: number;
  losses: number;
  duplicates: number;
  frames: number;
  disconnects: number;
  lossyViewers: number;
  latency: ReturnType<Histogram['summary']>;
  serverLatency: ReturnType<Histogram['summary']>;
}

interface ServerFigures {
  node: string;
  rssBeforeBytes: number | null;
  rssAfterConnectBytes: number | null;
  rssPeakBytes: number | null;
  rssEndBytes: number | null;
  bytesPerConnection: number | null;
  heapBeforeBytes: number | null;
  heapAfterConnectBytes: number | null;
  heapBytesPerConnection: number | null;
  cpuSecondsConnect: number | null;
  cpuSecondsWrite: number | null;
  cpuPercentWrite: number | null;
}

interface RunResult {
  bench: 'realtime-fanout';
  impl: Impl;
  mode: 'single' | 'redis' | 'join-storm';
  connections: number;
  connectionsReady: number;
  connectionsFailed: number;
  connectSeconds: number;
  /** Server CPU of the connect phase per viewer connected, ms. */
  serverCpuMsPerConnect: number | null;
  /** The viewers' client (see loadgen.ts). */
  client: ClientKind;
  /** Load generators' CPU to open their viewers, per viewer connected, ms. */
  loadgenCpuMsPerConnect: number | null;
  /** Load generators' RSS growth from before connecting to connected, per viewer, KB. */
  loadgenRssKbPerConnection: number | null;
  /** CPU of processes outside the benchmark during the connect phase, % of one core. */
  otherCpuPercentConnect: number | null;
  /** The machine's 1-minute load average as the viewers started connecting and once they had. */
  loadAverageConnect: [number, number];
  /** The 1-minute load average at the end of the write phase. */
  loadAverageEnd: number;
  rate: number;
  seconds: number;
  commentsSent: number;
  commentsAccepted: number;
  writerAchievedRate: number;
  writerMaxLagMs: number;
  writerPostP50Ms: number | null;
  writerPostP99Ms: number | null;
  deliveriesExpected: number;
  deliveriesReceived: number;
  losses: number;
  /** Deliveries of comments whose POST failed or timed out (not counted as received). */
  deliveriesOfUnconfirmedComments: number;
  duplicates: number;
  /** Frames that carried comments to viewers; fewer than deliveries when a tick coalesced several. */
  frames: number;
  disconnects: number;
  /** Comments that did not reach every ready viewer. */
  commentsNotFullyDelivered: number;
  deliveredPerSec: number;
  /** From the last send to the last delivery, ms. */
  drainMs: number;
  p50Ms: number | null;
  p90Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  meanMs: number | null;
  /** Latency from the comment's server time stamp (doc.time, whole ms): without the writer's request. */
  serverLatency: ReturnType<Histogram['summary']>;
  /** Server RSS growth per connection: (after connecting − before) / viewers, after full GCs. */
  bytesPerConnection: number | null;
  /** The same for V8 heap in use + external memory (insensitive to native/WebAssembly noise). */
  heapBytesPerConnection: number | null;
  serverCpuPercentWrite: number | null;
  /** Server CPU time of the write phase (writes, fan-out, drain) per delivered message, µs. */
  serverCpuUsPerDelivery: number | null;
  /** Server CPU per comment with no viewers connected (same rate), ms. */
  serverCpuMsPerCommentAlone: number | null;
  /** (Write-phase CPU − comments × the CPU per comment alone) per delivered message, µs. */
  fanoutCpuUsPerDelivery: number | null;
  loadgens: number;
  loadgenCpuPercentWrite: number[];
  /** CPU used by processes outside the benchmark during the write phase, % of one core. */
  otherCpuPercentWrite: number | null;
  idle: IdleFigures;
  servers: ServerFigures[];
  nodes?: NodeResult[];
  writerErrors?: string[];
  connectErrors?: string[];
}

interface RunSetting {
  /** The show whose products and viewer count the viewers follow (presence mode), else null. */
  presenceEventId: string | null;
  /** Bytes the servers sent to and got from Redis so far, when they use it (through the proxy). */
  redisBytes: (() => RedisBytes) | null;
}

interface IdleFigures {
  /** Server CPU while the viewers are connected and nothing is written, ms per second (all nodes). */
  serverCpuMsPerSecond: number | null;
  /** Bytes per second the servers sent to / got from Redis meanwhile. */
  redisBytesPerSecondOut: number | null;
  redisBytesPerSecondIn: number | null;
  /** The same per Redis connection name (e.g. `vitrine-presence`: the presence store's connection). */
  redisBytesPerSecondByName?: Record<string, { out: number; in: number }>;
  /** Presence mode: seconds after connecting until every viewer saw the right total. */
  viewerCountConvergedSeconds?: number | null;
  /** Presence mode: viewers whose count was the number of viewers connected, at the window's end. */
  viewersSeeingTotal?: number;
  viewerCountMin?: number | null;
  viewerCountMax?: number | null;
  /** Presence mode: viewerCount changes received per second during the window (all viewers). */
  viewerCountUpdatesPerSecond?: number;
}

async function runOnce(
  impl: Impl,
  servers: ServerProcess[],
  post: (text: string) => Promise<void>,
  campaignUid: string,
  setting: RunSetting = { presenceEventId: null, redisBytes: null },
): Promise<RunResult> {
  // Warm the write path (JIT, database, connections) so the first measured comments are not outliers.
  for (let i = 0; i < 10; i++) await post(`warm-up ${i}`);
  // What a comment costs the servers without viewers (request, validation, rate limit, database,
  // publish), at the benchmark's rate: subtracted later to estimate the cost of the fan-out alone.
  const calibrationCount = Math.min(totalComments, 3 * rate);
  const cpuBeforeCalibration = servers.map((s) => readCpuSeconds(s.child.pid!));
  const calibration = await writeComments(post, calibrationCount, 'calibration');
  await sleep(200);
  const calibrationCpu = servers.reduce<number | null>((sum, s, i) => {
    const used = diff(readCpuSeconds(s.child.pid!), cpuBeforeCalibration[i]);
    return sum === null || used === null ? null : sum + used;
  }, 0);
  const cpuPerComment =
    calibrationCpu === null || calibration.accepted === 0 ? null : calibrationCpu / calibration.accepted;
  // Only Vitrine needs the wait: its embedded database releases memory some 15 s after start-up.
  const memoryBefore = await settledMemory(servers, impl === 'vitrine' ? 20_000 : 0);
  const rssBefore = memoryBefore.map((m) => m.rss);

  log(`${impl}: opening ${connections} viewers from ${loadgenCount} load generator(s) (${client} client)…`);
  const plans = planLoad(servers);
  const loadgens = plans.map((_, i) => new Loadgen(i));
  try {
    // Start-up of the load generators (loading TypeScript) is not part of the connect phase.
    await Promise.all(loadgens.map((g) => g.next('loaded', 60_000)));
    const cpuBefore = servers.map((s) => readCpuSeconds(s.child.pid!));
    const machineBusyBeforeConnect = readMachineBusySeconds();
    const selfCpuBeforeConnect = process.cpuUsage();
    const loadAverageConnectStart = loadavg()[0]!;
    let firstIndex = 0;
    plans.forEach((targets, i) => {
      loadgens[i]!.send({
        type: 'start',
        impl,
        client,
        targets,
        firstIndex,
        spreadSourceAddresses: process.platform === 'linux',
        pageUid: DEMO_PAGE_UID,
        campaignUid,
        maxComments: totalComments,
        connectConcurrency,
        connectTimeoutMs: 30_000,
        presenceEventId: impl === 'vitrine' ? setting.presenceEventId : null,
      });
      firstIndex += targets.reduce((sum, t) => sum + t.count, 0);
    });
    const connectBudgetMs = 60_000 + connections * 5;
    const connectStartedAt = performance.now();
    const readies = await Promise.all(loadgens.map((g) => g.next('ready', connectBudgetMs)));
    const connectionsReady = readies.reduce((sum, r) => sum + r.ready, 0);
    const connectionsFailed = readies.reduce((sum, r) => sum + r.failed, 0);
    const connectErrors = readies.flatMap((r) => r.errors);
    const connectSeconds = Math.max(...readies.map((r) => r.ms)) / 1000;
    // Read as the last viewer got its snapshot: the memory reading below makes the servers run
    // full GCs, which are not part of a connect.
    const cpuAfterConnect = servers.map((s) => readCpuSeconds(s.child.pid!));
    const loadAverageConnectEnd = loadavg()[0]!;
    const connectWallS = (performance.now() - connectStartedAt) / 1000;
    const machineBusyConnect = diff(readMachineBusySeconds(), machineBusyBeforeConnect);
    const selfCpuConnect = process.cpuUsage(selfCpuBeforeConnect);
    const serverCpuConnectWindow = servers.reduce(
      (sum, _, i) => sum + (diff(cpuAfterConnect[i], cpuBefore[i]) ?? 0),
      0,
    );
    const loadgenCpuConnectS = readies.reduce((sum, r) => sum + r.cpuMs, 0) / 1000;
    const otherCpuPercentConnect =
      machineBusyConnect === null || connectWallS <= 0
        ? null
        : Math.max(
            0,
            Math.round(
              ((machineBusyConnect -
                serverCpuConnectWindow -
                loadgenCpuConnectS -
                (selfCpuConnect.user + selfCpuConnect.system) / 1e6) /
                connectWallS) *
                1000,
            ) / 10,
          );
    const loadgenCpuMsPerConnect =
      connectionsReady > 0 ? Math.round((loadgenCpuConnectS / connectionsReady) * 1e5) / 100 : null;
    const loadgenRssKbPerConnection =
      connectionsReady > 0
        ? Math.round(
            (readies.reduce((sum, r) => sum + r.rssBytes - r.rssBeforeBytes, 0) / 1024 / connectionsReady) *
              10,
          ) / 10
        : null;
    log(
      `${impl}: load generators used ${loadgenCpuMsPerConnect} ms of CPU per viewer, other processes ` +
        `${otherCpuPercentConnect}% of a core, load average ${loadAverageConnectStart.toFixed(1)} → ${loadAverageConnectEnd.toFixed(1)}`,
    );
    log(
      `${impl}: ${connectionsReady} viewers ready (${connectionsFailed} failed) in ${connectSeconds.toFixed(1)} s`,
    );
    if (connectionsFailed) log(`  connect errors: ${connectErrors.join('; ')}`);

    const memoryAfterConnect = await settledMemory(servers, 0);
    const rssAfterConnect = memoryAfterConnect.map((m) => m.rss);
    const idle = await measureIdle(servers, loadgens, connectionsReady, setting);
    log(`${impl}: idle with ${connectionsReady} viewers: ${JSON.stringify(idle)}`);
    const cpuBeforeWrite = servers.map((s) => readCpuSeconds(s.child.pid!));
    const rssPeak = [...rssAfterConnect];
    const sampler = setInterval(() => {
      servers.forEach((s, i) => {
        const rss = readRss(s.child.pid!);
        if (rss !== null && (rssPeak[i] ?? 0) < rss) rssPeak[i] = rss;
      });
    }, 250);

    for (const g of loadgens) g.send({ type: 'begin' });
    const writeStartedAt = performance.now();
    const machineBusyBefore = readMachineBusySeconds();
    const selfCpuBefore = process.cpuUsage();
    log(`${impl}: writing ${totalComments} comments at ${rate}/s for ${seconds} s…`);
    const write = await writeComments(post);
    if (write.errors.length) log(`  writer errors: ${write.errors.join('; ')}`);

    // Drain: until every expected delivery of the accepted comments arrived, or nothing arrived
    // for 5 s (at most 60 s). Deliveries of comments whose POST timed out but went through count
    // as progress, not toward the expected total (they once ended a drain while an accepted
    // comment was still being fanned out, which then showed as lost).
    const expected = write.accepted * connectionsReady;
    const drainDeadline = performance.now() + 60_000;
    let received = -1;
    let lastProgressAt = performance.now();
    while (performance.now() < drainDeadline) {
      for (const g of loadgens) g.send({ type: 'poll', accepted: write.acceptedNumbers });
      const counts = await Promise.all(loadgens.map((g) => g.next('count', 10_000)));
      const now = counts.reduce((sum, c) => sum + c.received, 0);
      const nowAccepted = counts.reduce((sum, c) => sum + c.receivedAccepted, 0);
      if (now !== received) {
        received = now;
        lastProgressAt = performance.now();
      }
      if (nowAccepted >= expected || performance.now() - lastProgressAt > 5_000) break;
      await sleep(100);
    }
    const writeWallS = (performance.now() - writeStartedAt) / 1000;
    const cpuAfterWrite = servers.map((s) => readCpuSeconds(s.child.pid!));
    const machineBusy = diff(readMachineBusySeconds(), machineBusyBefore);
    const selfCpu = process.cpuUsage(selfCpuBefore);
    clearInterval(sampler);

    for (const g of loadgens) g.send({ type: 'collect', accepted: write.acceptedNumbers });
    const stats = await Promise.all(loadgens.map((g) => g.next('stats', 30_000)));
    const rssEnd = servers.map((s) => readRss(s.child.pid!));

    // Merge the load generators' figures, per server node and overall.
    const byNode = new Map<string, NodeStats[]>();
    for (const s of stats) for (const n of s.nodes) byNode.set(n.node, [...(byNode.get(n.node) ?? []), n]);
    const all = new Histogram();
    const allServer = new Histogram();
    let lastReceiveAt = 0;
    const nodes: NodeResult[] = [];
    for (const server of servers) {
      const parts = byNode.get(server.label) ?? [];
      const histogram = new Histogram();
      const serverHistogram = new Histogram();
      for (const part of parts) {
        histogram.merge(part.histogram);
        all.merge(part.histogram);
        serverHistogram.merge(part.serverHistogram);
        allServer.merge(part.serverHistogram);
        lastReceiveAt = Math.max(lastReceiveAt, part.lastReceiveAt);
      }
      const sum = (pick: (n: NodeStats) => number) => parts.reduce((total, part) => total + pick(part), 0);
      const nodeConnections = sum((n) => n.connections);
      const nodeExpected = write.accepted * nodeConnections;
      const nodeReceived = sum((n) => n.received);
      nodes.push({
        node: server.label,
        connections: nodeConnections,
        deliveriesExpected: nodeExpected,
        deliveriesReceived: nodeReceived,
        deliveriesOfUnconfirmedComments: sum((n) => n.receivedUnconfirmed),
        losses: nodeExpected - nodeReceived,
        duplicates: sum((n) => n.duplicates),
        frames: sum((n) => n.frames),
        disconnects: sum((n) => n.disconnects),
        lossyViewers: sum((n) => n.lossyViewers),
        latency: histogram.summary(),
        serverLatency: serverHistogram.summary(),
      });
    }
    const perComment = new Array<number>(totalComments).fill(0);
    for (const s of stats) for (let n = 0; n < s.perComment.length; n++) perComment[n]! += s.perComment[n]!;
    const commentsNotFullyDelivered = perComment.filter(
      (count) => count > 0 && count < connectionsReady,
    ).length;

    const deliveriesReceived = nodes.reduce((sum, n) => sum + n.deliveriesReceived, 0);
    const spanS = (lastReceiveAt - write.firstSendAt) / 1000;
    const { samples: _samples, ...latency } = all.summary();
    const serverFigures: ServerFigures[] = servers.map((server, i) => {
      const before = rssBefore[i] ?? null;
      const after = rssAfterConnect[i] ?? null;
      const heapBefore = memoryBefore[i]?.heap ?? null;
      const heapAfter = memoryAfterConnect[i]?.heap ?? null;
      const nodeConnections = nodes[i]?.connections ?? 0;
      const cpuWrite = diff(cpuAfterWrite[i], cpuBeforeWrite[i]);
      return {
        node: server.label,
        rssBeforeBytes: before,
        rssAfterConnectBytes: after,
        rssPeakBytes: rssPeak[i] ?? null,
        rssEndBytes: rssEnd[i] ?? null,
        bytesPerConnection:
          before !== null && after !== null && nodeConnections
            ? Math.round((after - before) / nodeConnections)
            : null,
        heapBeforeBytes: heapBefore,
        heapAfterConnectBytes: heapAfter,
        heapBytesPerConnection:
          heapBefore !== null && heapAfter !== null && nodeConnections
            ? Math.round((heapAfter - heapBefore) / nodeConnections)
            : null,
        cpuSecondsConnect: round2(diff(cpuAfterConnect[i], cpuBefore[i])),
        cpuSecondsWrite: round2(cpuWrite),
        cpuPercentWrite: cpuWrite === null ? null : Math.round((cpuWrite / writeWallS) * 1000) / 10,
      };
    });
    const rssGrowth = serverFigures.reduce(
      (sum, f) =>
        sum === null || f.rssAfterConnectBytes === null || f.rssBeforeBytes === null
          ? null
          : sum + f.rssAfterConnectBytes - f.rssBeforeBytes,
      0 as number | null,
    );
    const heapGrowth = serverFigures.reduce(
      (sum, f) =>
        sum === null || f.heapAfterConnectBytes === null || f.heapBeforeBytes === null
          ? null
          : sum + f.heapAfterConnectBytes - f.heapBeforeBytes,
      0 as number | null,
    );
    const cpuWriteTotal = serverFigures.reduce(
      (sum, f) => (sum === null || f.cpuSecondsWrite === null ? null : sum + f.cpuSecondsWrite),
      0 as number | null,
    );
    // CPU the rest of the machine used meanwhile (other work on the same cores disturbs the figures).
    const benchCpu =
      (cpuWriteTotal ?? 0) +
      stats.reduce((sum, g) => sum + (g.cpuPercentWrite / 100) * writeWallS, 0) +
      (selfCpu.user + selfCpu.system) / 1e6;
    const otherCpuPercentWrite =
      machineBusy === null
        ? null
        : Math.max(0, Math.round(((machineBusy - benchCpu) / writeWallS) * 1000) / 10);
    if (otherCpuPercentWrite !== null && otherCpuPercentWrite > 20)
      log(`  note: other processes used ${otherCpuPercentWrite}% of a core meanwhile; figures are disturbed`);
    const result: RunResult = {
      bench: 'realtime-fanout',
      impl,
      mode,
      connections,
      connectionsReady,
      connectionsFailed,
      connectSeconds,
      client,
      loadgenCpuMsPerConnect,
      loadgenRssKbPerConnection,
      otherCpuPercentConnect,
      loadAverageConnect: [loadAverageConnectStart, loadAverageConnectEnd],
      loadAverageEnd: loadavg()[0]!,
      serverCpuMsPerConnect: (() => {
        const total = serverFigures.reduce<number | null>(
          (sum, f) => (sum === null || f.cpuSecondsConnect === null ? null : sum + f.cpuSecondsConnect),
          0,
        );
        return total === null || !connectionsReady
          ? null
          : Math.round((total / connectionsReady) * 1e5) / 100;
      })(),
      rate,
      seconds,
      commentsSent: write.sent,
      commentsAccepted: write.accepted,
      writerAchievedRate: write.achievedRate,
      writerMaxLagMs: write.maxLagMs,
      writerPostP50Ms: write.post.p50Ms,
      writerPostP99Ms: write.post.p99Ms,
      deliveriesExpected: expected,
      deliveriesReceived,
      losses: expected - deliveriesReceived,
      deliveriesOfUnconfirmedComments: nodes.reduce((sum, n) => sum + n.deliveriesOfUnconfirmedComments, 0),
      duplicates: nodes.reduce((sum, n) => sum + n.duplicates, 0),
      frames: nodes.reduce((sum, n) => sum + n.frames, 0),
      disconnects: nodes.reduce((sum, n) => sum + n.disconnects, 0),
      commentsNotFullyDelivered,
      deliveredPerSec: spanS > 0 ? Math.round(deliveriesReceived / spanS) : 0,
      drainMs: lastReceiveAt ? Math.round(lastReceiveAt - write.lastSendAt) : 0,
      ...latency,
      serverLatency: allServer.summary(),
      bytesPerConnection:
        rssGrowth !== null && connectionsReady ? Math.round(rssGrowth / connectionsReady) : null,
      heapBytesPerConnection:
        heapGrowth !== null && connectionsReady ? Math.round(heapGrowth / connectionsReady) : null,
      serverCpuPercentWrite:
        cpuWriteTotal === null ? null : Math.round((cpuWriteTotal / writeWallS) * 1000) / 10,
      serverCpuUsPerDelivery:
        cpuWriteTotal === null || deliveriesReceived === 0
          ? null
          : Math.round((cpuWriteTotal / (deliveriesReceived + unconfirmedDeliveries(nodes))) * 1e7) / 10,
      serverCpuMsPerCommentAlone: cpuPerComment === null ? null : Math.round(cpuPerComment * 1e4) / 10,
      fanoutCpuUsPerDelivery:
        cpuWriteTotal === null || cpuPerComment === null || deliveriesReceived === 0
          ? null
          : Math.round(
              ((cpuWriteTotal - cpuPerComment * write.accepted) /
                (deliveriesReceived + unconfirmedDeliveries(nodes))) *
                1e7,
            ) / 10,
      loadgens: loadgenCount,
      loadgenCpuPercentWrite: stats.map((s) => s.cpuPercentWrite),
      otherCpuPercentWrite,
      idle,
      servers: serverFigures,
      ...(servers.length > 1 ? { nodes } : {}),
      ...(write.errors.length ? { writerErrors: write.errors } : {}),
      ...(connectErrors.length ? { connectErrors } : {}),
    };
    return result;
  } finally {
    await Promise.all(loadgens.map((g) => g.stop()));
  }
}

/**
 * The idle window: viewers connected, nothing written, for IDLE_WINDOW_MS. What the servers spend
 * then is what holding the audience costs (presence ticks, keep-alives); in presence mode it first
 * waits (at most 20 s) until every viewer sees the right viewer count.
 */
async function measureIdle(
  servers: ServerProcess[],
  loadgens: Loadgen[],
  viewersConnected: number,
  setting: RunSetting,
): Promise<IdleFigures> {
  const askViewerCounts = async () => {
    for (const g of loadgens) g.send({ type: 'viewer-count', expected: viewersConnected });
    const answers = await Promise.all(loadgens.map((g) => g.next('viewer-count', 10_000)));
    const mins = answers.map((a) => a.min).filter((v): v is number => v !== null);
    const maxes = answers.map((a) => a.max).filter((v): v is number => v !== null);
    return {
      seeing: answers.reduce((sum, a) => sum + a.seeingExpected, 0),
      min: mins.length ? Math.min(...mins) : null,
      max: maxes.length ? Math.max(...maxes) : null,
      updates: answers.reduce((sum, a) => sum + a.updates, 0),
    };
  };
  const presence = setting.presenceEventId !== null && servers[0]?.impl === 'vitrine';
  let convergedSeconds: number | null = null;
  if (presence) {
    const began = performance.now();
    while (performance.now() - began < 20_000) {
      if ((await askViewerCounts()).seeing === viewersConnected) {
        convergedSeconds = Math.round((performance.now() - began) / 100) / 10;
        break;
      }
      await sleep(250);
    }
    await askViewerCounts(); // resets the update counters for the window
  }
  const cpuBefore = servers.map((s) => readCpuSeconds(s.child.pid!));
  const bytesBefore = setting.redisBytes?.() ?? null;
  const began = performance.now();
  await sleep(IDLE_WINDOW_MS);
  const seconds = (performance.now() - began) / 1000;
  const cpuAfter = servers.map((s) => readCpuSeconds(s.child.pid!));
  const bytesAfter = setting.redisBytes?.() ?? null;
  const cpu = servers.reduce<number | null>((sum, _, i) => {
    const used = diff(cpuAfter[i], cpuBefore[i]);
    return sum === null || used === null ? null : sum + used;
  }, 0);
  const figures: IdleFigures = {
    serverCpuMsPerSecond: cpu === null ? null : Math.round((cpu / seconds) * 1e4) / 10,
    redisBytesPerSecondOut:
      bytesBefore && bytesAfter ? Math.round((bytesAfter.toRedis - bytesBefore.toRedis) / seconds) : null,
    redisBytesPerSecondIn:
      bytesBefore && bytesAfter ? Math.round((bytesAfter.fromRedis - bytesBefore.fromRedis) / seconds) : null,
  };
  if (bytesBefore && bytesAfter)
    figures.redisBytesPerSecondByName = Object.fromEntries(
      Object.entries(bytesAfter.byName).map(([name, after]) => {
        const before = bytesBefore.byName[name] ?? { toRedis: 0, fromRedis: 0 };
        return [
          name,
          {
            out: Math.round((after.toRedis - before.toRedis) / seconds),
            in: Math.round((after.fromRedis - before.fromRedis) / seconds),
          },
        ];
      }),
    );
  if (!presence) return figures;
  const end = await askViewerCounts();
  return {
    ...figures,
    viewerCountConvergedSeconds: convergedSeconds,
    viewersSeeingTotal: end.seeing,
    viewerCountMin: end.min,
    viewerCountMax: end.max,
    viewerCountUpdatesPerSecond: Math.round((end.updates / seconds) * 10) / 10,
  };
}

const unconfirmedDeliveries = (nodes: NodeResult[]) =>
  nodes.reduce((sum, n) => sum + n.deliveriesOfUnconfirmedComments, 0);
const diff = (a: number | null | undefined, b: number | null | undefined) =>
  a === null || a === undefined || b === null || b === undefined ? null : a - b;
const round2 = (value: number | null) => (value === null ? null : Math.round(value * 100) / 100);

// ── Vitrine specifics ─────────────────────────────────────────────────────────

/**
 * Writers on `server` and the live show's campaign uid. A viewer may post at most
 * COMMENT_RATE_LIMIT comments per COMMENT_RATE_WINDOW_MS, so the comments are spread round-robin
 * over enough anonymous users that each stays at about 60 % of its limit, as in a real chat where
 * many viewers write.
 */
async function vitrineWriter(server: ServerProcess) {
  const events = await postJson<{ live?: Array<{ id: string; event: { campaignId: string } }> }>(
    `${server.baseUrl}/reads/liveEvents.shop`,
    { pageUid: DEMO_PAGE_UID },
  );
  const campaignUid = events.live?.[0]?.event.campaignId;
  const eventId = events.live?.[0]?.id ?? null;
  if (!campaignUid) throw new Error('The demo store has no live event (was the demo seeded?).');
  const perWriterPerSecond = (COMMENT_RATE_LIMIT * 1000) / COMMENT_RATE_WINDOW_MS;
  const writerCount = Math.max(1, Math.ceil(rate / (0.6 * perWriterPerSecond)));
  const writers: Array<Record<string, string>> = [];
  for (let i = 0; i < writerCount; i++) {
    const session = await postJson<{ idToken: string }>(
      `${server.baseUrl}/functions/auth/signInAnonymously`,
      {},
    );
    writers.push({ authorization: `Bearer ${session.idToken}` });
  }
  log(
    `vitrine: ${writerCount} anonymous writers (at most ${COMMENT_RATE_LIMIT} comments each per ${COMMENT_RATE_WINDOW_MS / 1000} s)`,
  );
  let turn = 0;
  const post = async (text: string) => {
    const headers = writers[turn++ % writers.length]!;
    await postJson(
      `${server.baseUrl}/shopapiv2/comment/playerComment`,
      { text, pageUid: DEMO_PAGE_UID, campaignUid },
      headers,
      WRITER_TIMEOUT_MS,
    );
  };
  return { campaignUid, eventId, post };
}

async function runVitrineSingle(): Promise<RunResult> {
  if (serverProcesses > 1) return runVitrineNodes();
  log('vitrine: starting the server (fresh embedded database, demo seed)…');
  const server = await startVitrine('A', {});
  try {
    const { campaignUid, eventId, post } = await vitrineWriter(server);
    lastCampaignUid = campaignUid;
    return await runOnce('vitrine', [server], post, campaignUid, {
      presenceEventId: args.presence ? eventId : null,
      redisBytes: null,
    });
  } finally {
    await stopServer(server);
  }
}

async function runSocketIo(): Promise<RunResult> {
  const servers: ServerProcess[] = [];
  let proxy: Awaited<ReturnType<typeof startCountingProxy>> | null = null;
  try {
    if (serverProcesses === 1) {
      log('socket.io: starting the baseline server…');
      servers.push(await startSocketIo());
    } else {
      const redisUrl = args['redis-url']!;
      await checkRedis(redisUrl);
      proxy = await startCountingProxy(redisUrl);
      // Its own channel: the shared Redis carries other sessions' traffic.
      const env = {
        REDIS_URL: proxy.url,
        BENCH_CHANNEL: `bench:socket.io:${randomBytes(8).toString('hex')}`,
      };
      for (let i = 0; i < serverProcesses; i++) {
        log(`socket.io: starting baseline process ${nodeLabel(i)} (broadcasts shared over Redis pub/sub)…`);
        servers.push(await startSocketIo(nodeLabel(i), env));
      }
    }
    const writeTo = servers[0]!;
    const campaignUid = lastCampaignUid;
    const post = async (text: string) => {
      await postJson(
        `${writeTo.baseUrl}/comment`,
        { text, pageUid: DEMO_PAGE_UID, campaignUid },
        undefined,
        WRITER_TIMEOUT_MS,
      );
    };
    return await runOnce('socket.io', servers, post, campaignUid, {
      presenceEventId: null,
      redisBytes: proxy ? proxy.bytes : null,
    });
  } finally {
    await Promise.all(servers.map(stopServer));
    await proxy?.close();
  }
}

let lastCampaignUid = DEFAULT_CAMPAIGN_UID;

// ── redis mode ────────────────────────────────────────────────────────────────

async function checkRedis(url: string) {
  const { hostname, port } = new URL(url);
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ host: hostname || '127.0.0.1', port: Number(port || 6379) });
    socket.setTimeout(3_000, () => socket.destroy(new Error(`no answer from Redis at ${url}`)));
    socket.on('connect', () => socket.write('*1\r\n$4\r\nPING\r\n'));
    socket.on('data', (data) => {
      socket.end();
      if (data.toString().startsWith('+PONG')) resolve();
      else reject(new Error(`Redis at ${url} answered ${data.toString().trim()}`));
    });
    socket.on('error', reject);
  });
}

/**
 * Vitrine on several nodes sharing Redis and PostgreSQL: redis mode, or a single-mode run that
 * does not fit in one process's open files. The nodes reach Redis through a counting proxy, so the
 * idle window can say what they send it.
 */
async function runVitrineNodes(): Promise<RunResult> {
  const redisUrl = args['redis-url']!;
  const databaseUrl = args['database-url']!;
  await checkRedis(redisUrl);
  log(`vitrine: recreating ${databaseUrl}…`);
  await freshDatabase(databaseUrl);
  const proxy = await startCountingProxy(redisUrl);
  const env = { DATABASE_URL: databaseUrl, REDIS_URL: proxy.url };
  const servers: ServerProcess[] = [];
  try {
    log('vitrine: starting node A (migrates and seeds the demo store)…');
    servers.push(await startVitrine('A', env));
    for (let i = 1; i < serverProcesses; i++) {
      log(`vitrine: starting node ${nodeLabel(i)}…`);
      servers.push(await startVitrine(nodeLabel(i), { ...env, VITRINE_SEED_DEMO: '0' }));
    }
    const { campaignUid, eventId, post } = await vitrineWriter(servers[0]!);
    lastCampaignUid = campaignUid;
    return await runOnce('vitrine', servers, post, campaignUid, {
      presenceEventId: args.presence ? eventId : null,
      redisBytes: proxy.bytes,
    });
  } finally {
    await Promise.all(servers.map(stopServer));
    await proxy.close();
    await freshDatabase(databaseUrl, false).catch((error: unknown) =>
      log(`redis: could not drop ${databaseUrl}: ${error instanceof Error ? error.message : String(error)}`),
    );
    await deleteRedisKeys(redisUrl, REDIS_PREFIX).catch((error: unknown) =>
      log(
        `redis: could not delete ${REDIS_PREFIX}* keys: ${error instanceof Error ? error.message : String(error)}`,
      ),
    );
  }
}

/** Deletes this run's keys (its own prefix only: the Redis is shared). */
async function deleteRedisKeys(url: string, prefix: string) {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for await (const batch of redis.scanStream({ match: `${prefix}*`, count: 1000 }))
      if ((batch as string[]).length > 0) await redis.del(...(batch as string[]));
  } finally {
    redis.disconnect();
  }
}

// ── report ────────────────────────────────────────────────────────────────────

const mb = (bytes: number | null) => (bytes === null ? '-' : (bytes / 1024 / 1024).toFixed(1));
const kb = (bytes: number | null) => (bytes === null ? '-' : (bytes / 1024).toFixed(1));
const num = (value: number | null) => (value === null ? '-' : value.toLocaleString('en-US'));

/** A plain-text table; the first column is left-aligned, the others right-aligned. */
function table(headers: string[], rows: string[][]) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const ms = (value: number | null | undefined) =>
  value === null || value === undefined ? '-' : value.toFixed(1);
const percent = (value: number | null | undefined) =>
  value === null || value === undefined ? '-' : `${value}%`;

/**
 * One column per implementation (and, in redis mode, one per node), one row per figure: the
 * figures read top to bottom, and the table stays narrow enough for a terminal and the README.
 */
function printReport(results: RunResult[]) {
  interface Column {
    title: string;
    result: RunResult;
    node?: NodeResult;
    servers: ServerFigures[];
  }
  const columns: Column[] = [];
  for (const r of results) {
    columns.push({
      title:
        (r.nodes ? `${r.impl} (${r.nodes.map((n) => n.node).join('+')})` : r.impl) +
        (clients.length > 1 ? `, ${r.client} client` : ''),
      result: r,
      servers: r.servers,
    });
    for (const node of r.nodes ?? [])
      columns.push({
        title: `node ${node.node}`,
        result: r,
        node,
        servers: r.servers.filter((s) => s.node === node.node),
      });
  }
  const sumOf = (servers: ServerFigures[], pick: (s: ServerFigures) => number | null) =>
    servers.reduce<number | null>((sum, s) => {
      const value = pick(s);
      return sum === null || value === null ? null : sum + value;
    }, 0);
  const rows: Array<[string, (c: Column) => string]> = [
    ['viewers connected', (c) => num(c.node ? c.node.connections : c.result.connectionsReady)],
    ['viewers failed', (c) => (c.node ? '' : num(c.result.connectionsFailed))],
    ['connect time s', (c) => (c.node ? '' : c.result.connectSeconds.toFixed(1))],
    [
      'load average (1 min) at connect start → end',
      (c) => (c.node ? '' : c.result.loadAverageConnect.map((l) => l.toFixed(1)).join(' → ')),
    ],
    ['other processes CPU % (connect)', (c) => (c.node ? '' : percent(c.result.otherCpuPercentConnect))],
    ['load generator CPU ms per connect', (c) => (c.node ? '' : numOrDash(c.result.loadgenCpuMsPerConnect))],
    ['load generator RSS KB per conn', (c) => (c.node ? '' : numOrDash(c.result.loadgenRssKbPerConnection))],
    [
      'comments accepted / sent',
      (c) => (c.node ? '' : `${num(c.result.commentsAccepted)} / ${num(c.result.commentsSent)}`),
    ],
    ['writer rate /s', (c) => (c.node ? '' : String(c.result.writerAchievedRate))],
    [
      'writer POST p50 / p99 ms',
      (c) => (c.node ? '' : `${ms(c.result.writerPostP50Ms)} / ${ms(c.result.writerPostP99Ms)}`),
    ],
    ['deliveries expected', (c) => num(c.node ? c.node.deliveriesExpected : c.result.deliveriesExpected)],
    ['deliveries received', (c) => num(c.node ? c.node.deliveriesReceived : c.result.deliveriesReceived)],
    ['lost', (c) => num(c.node ? c.node.losses : c.result.losses)],
    ['duplicates', (c) => num(c.node ? c.node.duplicates : c.result.duplicates)],
    ['disconnects', (c) => num(c.node ? c.node.disconnects : c.result.disconnects)],
    ['delivered msgs/s', (c) => (c.node ? '' : num(c.result.deliveredPerSec))],
    [
      'msgs per frame',
      (c) => {
        const frames = c.node ? c.node.frames : c.result.frames;
        // Deliveries of comments whose POST timed out travelled in frames too.
        const delivered = c.node
          ? c.node.deliveriesReceived + c.node.deliveriesOfUnconfirmedComments
          : c.result.deliveriesReceived + c.result.deliveriesOfUnconfirmedComments;
        return frames ? (delivered / frames).toFixed(2) : '-';
      },
    ],
    ['latency p50 ms', (c) => ms(c.node ? c.node.latency.p50Ms : c.result.p50Ms)],
    ['latency p95 ms', (c) => ms(c.node ? c.node.latency.p95Ms : c.result.p95Ms)],
    ['latency p99 ms', (c) => ms(c.node ? c.node.latency.p99Ms : c.result.p99Ms)],
    ['latency max ms', (c) => ms(c.node ? c.node.latency.maxMs : c.result.maxMs)],
    [
      'from server stamp p50 / p99 ms',
      (c) => {
        const l = c.node ? c.node.serverLatency : c.result.serverLatency;
        return `${ms(l.p50Ms)} / ${ms(l.p99Ms)}`;
      },
    ],
    ['server CPU s, connect', (c) => numOrDash(round2(sumOf(c.servers, (s) => s.cpuSecondsConnect)))],
    ['server CPU ms per connect', (c) => (c.node ? '' : numOrDash(c.result.serverCpuMsPerConnect))],
    ['server CPU s, write+drain', (c) => numOrDash(round2(sumOf(c.servers, (s) => s.cpuSecondsWrite)))],
    ['server CPU % of a core', (c) => c.servers.map((s) => percent(s.cpuPercentWrite)).join(' + ')],
    ['server CPU µs per msg', (c) => (c.node ? '' : numOrDash(c.result.serverCpuUsPerDelivery))],
    [
      'server CPU ms per comment alone',
      (c) => (c.node ? '' : numOrDash(c.result.serverCpuMsPerCommentAlone)),
    ],
    ['fan-out CPU µs per msg (est.)', (c) => (c.node ? '' : numOrDash(c.result.fanoutCpuUsPerDelivery))],
    ['server RSS idle MB', (c) => mb(sumOf(c.servers, (s) => s.rssBeforeBytes))],
    ['server RSS connected MB', (c) => mb(sumOf(c.servers, (s) => s.rssAfterConnectBytes))],
    ['server RSS peak MB', (c) => mb(sumOf(c.servers, (s) => s.rssPeakBytes))],
    [
      'server RSS KB per conn',
      (c) => kb(c.node ? (c.servers[0]?.bytesPerConnection ?? null) : c.result.bytesPerConnection),
    ],
    [
      'server heap KB per conn',
      (c) => kb(c.node ? (c.servers[0]?.heapBytesPerConnection ?? null) : c.result.heapBytesPerConnection),
    ],
    ['idle: server CPU ms per s', (c) => (c.node ? '' : numOrDash(c.result.idle.serverCpuMsPerSecond))],
    [
      'idle: Redis bytes/s out / in',
      (c) =>
        c.node
          ? ''
          : `${numOrDash(c.result.idle.redisBytesPerSecondOut)} / ${numOrDash(c.result.idle.redisBytesPerSecondIn)}`,
    ],
    [
      'idle: presence Redis bytes/s out / in',
      (c) => {
        const presence = c.result.idle.redisBytesPerSecondByName?.['vitrine-presence'];
        return c.node || !presence ? '' : `${presence.out} / ${presence.in}`;
      },
    ],
    [
      'viewer count right / converged s',
      (c) =>
        c.node || c.result.idle.viewersSeeingTotal === undefined
          ? ''
          : `${num(c.result.idle.viewersSeeingTotal)} / ${numOrDash(c.result.idle.viewerCountConvergedSeconds ?? null)}`,
    ],
    [
      'viewer count updates/s (idle)',
      (c) =>
        c.node || c.result.idle.viewerCountUpdatesPerSecond === undefined
          ? ''
          : String(c.result.idle.viewerCountUpdatesPerSecond),
    ],
    ['load generator CPU %', (c) => (c.node ? '' : c.result.loadgenCpuPercentWrite.map(percent).join(' + '))],
    ['other processes CPU %', (c) => (c.node ? '' : percent(c.result.otherCpuPercentWrite))],
    ['load average (1 min) at the end', (c) => (c.node ? '' : c.result.loadAverageEnd.toFixed(1))],
  ];
  process.stdout.write(
    `\nrealtime-fanout ${new Date().toISOString().slice(0, 16)}Z: ${num(connections)} viewers, ` +
      `${rate} comments/s for ${seconds} s, mode ${mode}\n` +
      `${table(
        ['', ...columns.map((c) => c.title)],
        rows.map(([label, cell]) => [label, ...columns.map(cell)]),
      )}\n`,
  );
}

const numOrDash = (value: number | null) => (value === null ? '-' : String(value));

// ── main ──────────────────────────────────────────────────────────────────────

const results: RunResult[] = [];
let exitCode = 0;
try {
  log(
    `realtime-fanout: ${connections} viewers, ${rate}/s × ${seconds} s, mode ${mode}, ` +
      `${loadgenCount} load generator(s), ${serverProcesses} server process(es) per implementation, ` +
      `open-file limit ${fdLimit}${fdLimitRaise?.ok ? ` (raised from ${inheritedFdLimit} with prlimit)` : ''}`,
  );
  if (fdLimitRaise && !fdLimitRaise.ok)
    log(
      `NOTE: ${serverFdNeeded} open files needed for one server process, the limit is ${inheritedFdLimit} and ` +
        `cannot be raised here (${fdLimitRaise.why}; raising the hard limit needs CAP_SYS_RESOURCE). ` +
        `Each implementation runs as ${serverProcesses} processes instead: Vitrine nodes on Redis + PostgreSQL ` +
        `(${args['database-url']}), Socket.IO processes sharing broadcasts over Redis pub/sub.`,
    );
  for (const impl of impls)
    for (const kind of clients) {
      client = kind;
      const result =
        mode === 'redis'
          ? await runVitrineNodes()
          : impl === 'vitrine'
            ? await runVitrineSingle()
            : await runSocketIo();
      results.push(result);
      process.stdout.write(`${JSON.stringify(result)}\n`);
      if (result.losses !== 0 || result.duplicates !== 0 || result.connectionsFailed !== 0) exitCode = 1;
      if (impls.length * clients.length > 1) await sleep(2_000);
    }
  printReport(results);
  for (const kind of clients) {
    const vitrine = results.find((r) => r.impl === 'vitrine' && r.client === kind);
    const socketIo = results.find((r) => r.impl === 'socket.io' && r.client === kind);
    if (!vitrine || !socketIo) continue;
    const ratio = (a: number | null, b: number | null) =>
      a === null || b === null || b === 0 ? null : Math.round((a / b) * 100) / 100;
    const ratios = {
      deliveredPerSec: ratio(vitrine.deliveredPerSec, socketIo.deliveredPerSec),
      p50: ratio(vitrine.p50Ms, socketIo.p50Ms),
      p99: ratio(vitrine.p99Ms, socketIo.p99Ms),
      bytesPerConnection: ratio(vitrine.bytesPerConnection, socketIo.bytesPerConnection),
      heapBytesPerConnection: ratio(vitrine.heapBytesPerConnection, socketIo.heapBytesPerConnection),
      serverCpuPerDelivery: ratio(vitrine.serverCpuUsPerDelivery, socketIo.serverCpuUsPerDelivery),
      fanoutCpuPerDelivery: ratio(vitrine.fanoutCpuUsPerDelivery, socketIo.fanoutCpuUsPerDelivery),
      connectSeconds: ratio(vitrine.connectSeconds, socketIo.connectSeconds),
      serverCpuPerConnect: ratio(vitrine.serverCpuMsPerConnect, socketIo.serverCpuMsPerConnect),
    };
    process.stdout.write(
      `\nVitrine / Socket.IO${clients.length > 1 ? ` (${kind} client)` : ''}: msgs/s ×${ratios.deliveredPerSec}, p50 ×${ratios.p50}, p99 ×${ratios.p99}, ` +
        `RSS per connection ×${ratios.bytesPerConnection}, heap per connection ×${ratios.heapBytesPerConnection}, server CPU per delivery ×${ratios.serverCpuPerDelivery}, fan-out CPU per delivery ×${ratios.fanoutCpuPerDelivery}, ` +
        `connect time ×${ratios.connectSeconds}, server CPU per connect ×${ratios.serverCpuPerConnect}\n`,
    );
    process.stdout.write(`${JSON.stringify({ bench: 'realtime-fanout', client: kind, ratio: ratios })}\n`);
  }
  for (const r of results.filter((result) => result.nodes)) {
    // Every node but A (where the writer posts) got its comments across Redis.
    const others = r.nodes!.filter((n) => n.node !== 'A');
    const ok =
      others.length > 0 &&
      others.every((n) => n.losses === 0 && n.duplicates === 0 && n.connections > 0) &&
      r.commentsAccepted > 0;
    const received = others.reduce((sum, n) => sum + n.deliveriesReceived, 0);
    const expected = others.reduce((sum, n) => sum + n.deliveriesExpected, 0);
    process.stdout.write(
      `\ncross-node (${r.impl}): ${ok ? 'OK' : 'FAILED'} — viewers on nodes ${others.map((n) => n.node).join(', ')} ` +
        `received ${num(received)} of ${num(expected)} deliveries of comments written on node A\n`,
    );
    process.stdout.write(
      `${JSON.stringify({ bench: 'realtime-fanout', mode, impl: r.impl, crossNodeOk: ok })}\n`,
    );
    if (!ok) exitCode = 1;
  }
  if (args.presence)
    for (const r of results.filter((result) => result.impl === 'vitrine'))
      if (r.idle.viewersSeeingTotal !== r.connectionsReady) {
        process.stdout.write(
          `\nviewer count: FAILED — ${num(r.idle.viewersSeeingTotal ?? 0)} of ${num(r.connectionsReady)} viewers saw ${num(r.connectionsReady)}\n`,
        );
        exitCode = 1;
      }
} catch (error) {
  process.stderr.write(`realtime-fanout failed: ${error instanceof Error ? error.message : String(error)}\n`);
  exitCode = 1;
}
agent.destroy();
process.exit(exitCode);
