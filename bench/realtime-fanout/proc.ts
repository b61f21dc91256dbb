import { type ChildProcess, execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import pg from 'pg';

/** Wall-clock milliseconds with sub-millisecond precision, comparable across processes of one machine. */
export const clock = () => performance.timeOrigin + performance.now();

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resident set size of a process in bytes (VmRSS), or null once it has exited. */
export function readRss(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

let clockTicks: number | undefined;
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** User + system CPU seconds a process has used so far (/proc/PID/stat), or null once it has exited. */
export function readCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
  } catch {
    return null;
  }
}

/** CPU seconds the whole machine has been busy (all cores, /proc/stat), or null when unknown. */
export function readMachineBusySeconds(): number | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [, ...fields] = line.trim().split(/\s+/);
    const ticks = fields.map(Number);
    const total = ticks.slice(0, 8).reduce((sum, t) => sum + t, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
    return (total - idle) / ticksPerSecond();
  } catch {
    return null;
  }
}

/** The soft limit on open files of this process (children inherit it). */
export function openFileLimit(): number {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'));
    if (match?.[1] === 'unlimited') return Number.MAX_SAFE_INTEGER;
    if (match?.[1]) return Number(match[1]);
  } catch {
    // Not Linux: assume enough.
  }
  return Number.MAX_SAFE_INTEGER;
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

// ── children ──────────────────────────────────────────────────────────────────

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

/** Registers a temporary directory to delete when the benchmark exits (however it exits). */
export function trackTempDir(path: string): string {
  tempDirs.add(path);
  return path;
}

export function removeTempDir(path: string) {
  rmSync(path, { recursive: true, force: true });
  tempDirs.delete(path);
}

/** Registers a child so it is stopped when the benchmark exits, fails or is interrupted. */
export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function running(child: ChildProcess) {
  return child.exitCode === null && child.signalCode === null;
}

/** SIGTERM, then SIGKILL if the child has not exited after `graceMs`. Resolves once it has exited. */
export async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (!running(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => {
    if (running(child)) child.kill('SIGKILL');
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child, 5_000)));
}

/** Stops every tracked child on SIGINT / SIGTERM, and kills what is left when the process exits. */
export function installCleanup() {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    process.stderr.write(`\n${signal}: stopping ${children.size} child process(es)…\n`);
    void stopAll().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', () => {
    for (const child of children) if (running(child)) child.kill('SIGKILL');
    for (const path of tempDirs) rmSync(path, { recursive: true, force: true });
  });
}

/** Keeps the last lines a child wrote, for the error message when it fails. */
export class OutputTail {
  private lines: string[] = [];
  constructor(
    private readonly label: string,
    private readonly echo: (line: string) => boolean = () => false,
  ) {}

  attach(stream: NodeJS.ReadableStream | null) {
    if (!stream) return;
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) this.push(line);
    });
  }

  private push(line: string) {
    if (!line.trim()) return;
    this.lines.push(line);
    if (this.lines.length > 40) this.lines.shift();
    if (this.echo(line)) process.stderr.write(`[${this.label}] ${line}\n`);
  }

  text() {
    return this.lines.map((line) => `  [${this.label}] ${line}`).join('\n');
  }
}

/**
 * Drops the benchmark's own database and, unless `recreate` is false, creates it afresh, so every
 * run starts from the same state and leaves nothing behind.
 */
export async function freshDatabase(url: string, recreate = true) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name "${name}"`);
  if (name === 'postgres' || name === 'test')
    throw new Error(`refusing to drop "${name}": give the benchmark a database of its own`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    if (recreate) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}

/**
 * A TCP proxy in front of Redis that counts the bytes each way, so the benchmark can say what the
 * servers send to Redis (the shared Redis's own INFO counts every other client too).
 */
export interface RedisBytes {
  toRedis: number;
  fromRedis: number;
  /** The same per connection name (CLIENT SETNAME, e.g. `vitrine-presence`), `-` for unnamed ones. */
  byName: Record<string, { toRedis: number; fromRedis: number }>;
}

export async function startCountingProxy(redisUrl: string): Promise<{
  url: string;
  bytes(): RedisBytes;
  close(): Promise<void>;
}> {
  const target = new URL(redisUrl);
  let toRedis = 0;
  let fromRedis = 0;
  const byName: RedisBytes['byName'] = {};
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect({ host: target.hostname || '127.0.0.1', port: Number(target.port || 6379) });
    // ioredis names its connection first thing (connectionName): its bytes go under that name.
    const countsOf = (name: string) => (byName[name] ??= { toRedis: 0, fromRedis: 0 });
    let counts = countsOf('-');
    let named = false;
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk: Buffer) => {
      if (!named) {
        const name = /setname\r\n\$\d+\r\n([^\r]+)\r\n/i.exec(chunk.toString('latin1'))?.[1];
        if (name) {
          named = true;
          counts = countsOf(name);
        }
      }
      toRedis += chunk.length;
      counts.toRedis += chunk.length;
    });
    upstream.on('data', (chunk: Buffer) => {
      fromRedis += chunk.length;
      counts.fromRedis += chunk.length;
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (typeof address === 'object' && address) resolve(address.port);
      else reject(new Error('no port'));
    });
  });
  const url = new URL(redisUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    bytes: () => ({ toRedis, fromRedis, byName: structuredClone(byName) }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
