import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { DEMO_LIVE_EVENT_ID } from './features/demo/seed-demo.ts';
import { startupReport, startupReportText } from './startup-report.ts';
import { waitFor } from './test-support/live-publisher.ts';
import { copyMigratedPgliteTemplate } from './test-support/pglite-template.ts';
import { releaseEntry } from './test-support/release-build.ts';

const STRONG_KEY = 'startup-report-admin-key-0123456789abcdef';
const dirs: string[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The server (`npm run serve`) with `env`, its output collected as it comes. */
function startMain(env: Record<string, string>) {
  // These servers describe the single-machine default (embedded database, in-process bus), also when
  // the suite runs against a PostgreSQL server: they must not start on the suite's shared database.
  const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;
  const child = spawn(process.execPath, [releaseEntry('main')], {
    env: {
      ...inherited,
      PORT: '0',
      HOST: '127.0.0.1',
      RTMP_PORT: 'off',
      VITRINE_DEMO_RETAILER_PORT: '-1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const listener of listeners) listener();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const listener of listeners) listener();
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    /** Resolves once `test` holds for the output; fails if the process exits first. */
    until(test: () => boolean, what: string): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (test()) {
            listeners.delete(check);
            resolve();
          }
        };
        listeners.add(check);
        child.once('exit', (code) => {
          if (!test()) reject(new Error(`exited (${code}) before ${what}:\n${stdout}\n${stderr}`));
        });
        check();
      });
    },
  };
}

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vitrine-report-'));
  dirs.push(dir);
  return dir;
}

/**
 * A data dir holding the run's migrated embedded database. The servers below are about their
 * report and banner, not a first start: creating and migrating a database was 27 of their 36 s at
 * load 10 (a newcomer's first start, creating its own, is the browser tests' `freshDatabase`).
 */
async function migratedDataDir(): Promise<string> {
  const dir = await dataDir();
  await copyMigratedPgliteTemplate(dir);
  return dir;
}

/** The server on the run's migrated database, with a strong admin key, logging at info. */
async function startInfoMain(env: Record<string, string>) {
  return startMain({
    VITRINE_ADMIN_KEY: STRONG_KEY,
    VITRINE_DATA_DIR: await migratedDataDir(),
    LOG_LEVEL: 'info',
    ...env,
  });
}

/** The whole banner is out: its setup link's line has arrived (a pipe may deliver the banner in parts). */
const bannerDone = (text: string) => text.includes('Set up your store') && /\/setup#\S+\n/.test(text);

describe('the start-up report', () => {
  it('names what the server runs with, no password in it, and what to act on', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://vitrine:s3cret-pw@db.internal:5432/shop',
      REDIS_URL: 'redis://:redis-pw@cache.internal:6379',
      SMTP_URL: 'smtp://mailer:smtp-pw@smtp.example.com:587',
      NODE_ENV: 'production',
      VITRINE_ADMIN_KEY: STRONG_KEY,
    });
    const report = startupReport(
      config,
      { available: false, missing: 'ffmpeg 5 or later is not installed: install it' },
      'http://127.0.0.1:3000',
    );
    expect(report).toMatchObject({
      publicUrl: 'http://127.0.0.1:3000',
      database: { kind: 'postgres', host: 'db.internal:5432', database: 'shop' },
      bus: { kind: 'redis', host: 'cache.internal:6379' },
      payments: [],
      mail: { kind: 'smtp', host: 'smtp.example.com:587' },
    });
    expect(report.warnings).toEqual([
      'VITRINE_PUBLIC_URL is not set: links in mails point at http://127.0.0.1:3000; set it to the address people reach this server at.',
      'No way to take payments: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (test payments are off in production).',
      'Live video is off: ffmpeg 5 or later is not installed: install it',
    ]);
    const everything = JSON.stringify(report) + startupReportText(report);
    for (const secret of ['s3cret-pw', 'redis-pw', 'smtp-pw', STRONG_KEY])
      expect(everything).not.toContain(secret);
    const text = startupReportText(report);
    expect(text).toContain('  Database    PostgreSQL shop on db.internal:5432\n');
    expect(text).toContain('  Payments    no way to take payments\n');
    expect(text).toContain('  Live video  off: no ffmpeg 5 or later\n');
  });

  it('says mail is kept in the outbox without SMTP_URL', () => {
    const config = loadConfig({ VITRINE_ADMIN_KEY: STRONG_KEY, VITRINE_DATA_DIR: '/srv/vitrine' });
    const report = startupReport(
      config,
      { available: true, path: '/usr/bin/ffmpeg', source: 'PATH', version: '6.1.1' },
      'http://127.0.0.1:3000',
    );
    expect(startupReportText(report)).toContain('  Mail        mail kept in the outbox\n');
    expect(startupReportText(report)).toContain('  Database    embedded PGlite in /srv/vitrine\n');
    expect(startupReportText(report)).toContain('  Live video  ffmpeg 6.1.1 (/usr/bin/ffmpeg)\n');
    expect(report.payments).toEqual(['test']);
  });
});

describe('a weak admin key', () => {
  it.each([
    ['too short', 'sixteen-chars-ok', /too short: 16 characters, at least 32/],
    ['too few different characters', 'a'.repeat(40), /only 1 different characters, at least 10/],
  ])('stops the server before anything starts (%s)', { timeout: 300_000 }, async (_case, key, reason) => {
    const server = startMain({ VITRINE_ADMIN_KEY: key, VITRINE_DATA_DIR: await dataDir() });
    const [code] = await once(server.child, 'exit');
    expect(code).toBe(1);
    expect(server.stderr()).toMatch(/^Refusing to start: VITRINE_ADMIN_KEY /);
    expect(server.stderr()).toMatch(reason);
    expect(server.stdout()).not.toContain('Vitrine storefront');
  });
});

describe('a started server', () => {
  it('logs the report as one JSON line, ends with the banner, and prints it again on SIGUSR2', {
    timeout: 300_000,
  }, async () => {
    const server = await startInfoMain({ VITRINE_SEED_DEMO: '0', NODE_ENV: 'production', LOG_PRETTY: '0' });
    await server.until(() => bannerDone(server.stdout()), 'the banner');
    const lines = server
      .stdout()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map(
        (line) => JSON.parse(line) as { msg: string; level: number; startupReport?: Record<string, unknown> },
      );
    const reports = lines.filter((line) => line.startupReport);
    expect(reports).toHaveLength(1);
    const [report] = reports;
    expect(report?.msg).toBe('Vitrine started');
    expect(report?.level).toBe(40); // warn: there is something to act on
    expect(report?.startupReport).toMatchObject({
      database: { kind: 'pglite' },
      bus: { kind: 'memory' },
      payments: [],
      mail: { kind: 'outbox' },
      ffmpeg: { available: true },
    });
    const firstLink = /(http\S+\/setup#\S+)/.exec(server.stdout())?.[1];
    expect(
      server
        .stdout()
        .trimEnd()
        .endsWith(firstLink ?? '?'),
    ).toBe(true);

    const printed = server.stdout().length;
    server.child.kill('SIGUSR2');
    await server.until(() => bannerDone(server.stdout().slice(printed)), 'the banner again');
    const secondLink = /(http\S+\/setup#\S+)/.exec(server.stdout().slice(printed))?.[1];
    expect(secondLink).toBeDefined();
    expect(secondLink).not.toBe(firstLink);
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
  });

  it('stops cleanly while the demo show is live, its media worker with it (npm start, Ctrl-C)', {
    timeout: 300_000,
  }, async () => {
    const server = await startInfoMain({ RTMP_PORT: '0', LOG_PRETTY: '0' });
    await server.until(() => /"publicUrl":"http[^"]+"/.test(server.stdout()), 'the start-up report');
    const origin = /"publicUrl":"(http[^"]+?)\/?"/.exec(server.stdout())?.[1];
    // The demo encoder publishes into the child media worker, and viewers get the show's parts.
    const playlistUrl = `${origin}/live/${DEMO_LIVE_EVENT_ID}/ll.m3u8`;
    const playlist = await waitFor('the demo show live with parts', async () => {
      const answer = await fetch(playlistUrl).catch(() => null);
      const text = answer?.status === 200 ? await answer.text() : '';
      return text.includes('#EXT-X-PART:') ? text : null;
    });
    // A viewer's blocking reload is in flight (the segment after the open one: about a second's
    // wait on the worker) when the server is told to stop, as it is on a busy show.
    const firstListed = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1]);
    const nextSegment =
      firstListed + playlist.split('\n').filter((line) => line.startsWith('#EXTINF')).length + 1;
    const blocking = fetch(`${playlistUrl}?_HLS_msn=${nextSegment}`).catch(() => null);
    server.child.kill('SIGTERM');
    await blocking;
    const [code] = await once(server.child, 'exit');
    // Not by its 10 s bound, which exits 1: the worker used to wait for a connection of the web
    // server's that was still open, and the web server's stop waited for the worker.
    expect(server.stdout()).not.toContain('shutdown took too long');
    expect(code).toBe(0);
  });

  it('on a terminal: the report as a block, no line per request, the banner last', {
    timeout: 300_000,
  }, async () => {
    const server = await startInfoMain({ VITRINE_SEED_DEMO: '0', LOG_PRETTY: '1' });
    await server.until(() => bannerDone(server.stdout()), 'the banner');
    expect(server.stdout()).toContain('Vitrine is running with');
    expect(server.stdout()).toMatch(/ {2}Mail {8}mail kept in the outbox/);
    const address = /Vitrine storefront: (http\S+?)\/?$/m.exec(server.stdout())?.[1];
    const before = server.stdout();
    for (let request = 0; request < 5; request++)
      expect((await fetch(`${address}/healthz`)).status).toBe(200);
    // A failing request would be logged at warn; answered ones are debug on a terminal.
    const health = await fetch(`${address}/readyz`);
    expect(health.status).toBe(200);
    server.child.kill('SIGTERM');
    await once(server.child, 'exit');
    const after = server.stdout().slice(before.length);
    expect(after).not.toContain('/healthz');
    expect(before.trimEnd().split('\n').at(-1)).toMatch(/^\s+http\S+\/setup#\S+$/);
  });
});
