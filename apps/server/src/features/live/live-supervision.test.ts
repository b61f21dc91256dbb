import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGER_FEED_LIMITS } from '@vitrine/domain';
import type { LiveStreamView } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { publishTestStream, waitFor } from '../../test-support/live-publisher.ts';
import {
  createTestShow,
  createTestStore,
  signInStaff,
  type TestStaffMember,
} from '../../test-support/studio-staff.ts';
import { openTestApp } from '../../test-support/test-app.ts';
import { publishOverWhip, type WhipTestPublisher } from '../../test-support/whip-test-publisher.ts';
import { createProcessRegistry } from './packager-processes.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-live-supervision-'));
  dirs.push(dir);
  return dir;
};

afterAll(() => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Whether a process runs (a zombie, killed but not yet collected by its new parent, does not). */
const running = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
};

/** The ffmpeg runs of a show: their upload place is named by it, http://127.0.0.1:<port>/<showUid>/<secret>/. */
function packagerPids(showUid: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', `127.0.0.1:[0-9]+/${showUid}/`], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

describe('a packager slower than real time (a slow consumer)', () => {
  let app: Awaited<ReturnType<typeof openTestApp>>;
  let host: TestStaffMember;
  let pageUid: string;
  beforeAll(async () => {
    app = await openTestApp({ env: { RTMP_PORT: '0', VITRINE_LIVE_DIR: folder() } });
    pageUid = await createTestStore(app);
    host = await signInStaff(app, pageUid, 'host');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('never buffers without bound: frames are dropped, then the publish ends with the reason in the studio', async () => {
    const showUid = await createTestShow(app, pageUid, host, 'Slow packager', { visibility: 'draft' });
    const stream = async (suffix = '', method: 'GET' | 'POST' = 'GET') =>
      (
        await app.server.inject({
          method,
          url: `/staff/stores/${pageUid}/shows/${showUid}/stream${suffix}`,
          headers: host.headers,
        })
      ).json() as LiveStreamView;
    const { streamKey, previewUrl } = await stream();
    const publisher = publishTestStream(
      `rtmp://127.0.0.1:${app.services.live.ingestPorts().rtmpPort}/live/${streamKey}`,
    );
    children.push(publisher);
    await waitFor('the preview', async () =>
      (await app.server.inject({ method: 'GET', url: previewUrl })).body.includes('.m4s'),
    );
    expect((await stream('/go-live', 'POST')).state).toBe('live');

    // The packager stops reading (as a transcode beyond the CPU would, only more so).
    const [pid] = await waitFor('the packager process', () => {
      const pids = packagerPids(showUid);
      return pids.length ? pids : null;
    });
    const warn = vi.spyOn(app.server.log, 'warn');
    const error = vi.spyOn(app.server.log, 'error');
    try {
      process.kill(pid as number, 'SIGSTOP');
      const ended = await waitFor(
        'the publish ended for a packager behind real time',
        async () => {
          // Once its packager is stopped (SIGKILL, after the grace a stopped process ignores).
          const view = await stream();
          return view.refusal && view.state === 'reconnecting' ? view : null;
        },
        PACKAGER_FEED_LIMITS.dropLagMs + PACKAGER_FEED_LIMITS.giveUpMs + 20_000,
      );
      expect(ended.refusal?.message).toMatch(/could not package the stream as fast as it arrived/);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ eventId: showUid, kind: 'dropping' }),
        'the live packager fell behind; frames are dropped up to a keyframe',
      );
      const gaveUp = error.mock.calls.find(
        (call: unknown[]) => call[1] === 'the live packager stayed behind real time; the publish ends',
      );
      const figures = gaveUp?.[0] as { waitingBytes: number; lagMs: number; dropped: number };
      // What waited for the stopped packager stayed within the bound, and frames were dropped.
      expect(figures.waitingBytes).toBeLessThan(PACKAGER_FEED_LIMITS.dropBytes);
      expect(figures.dropped).toBeGreaterThan(10);
      // The encoder was disconnected (OBS then reconnects, to a fresh packager).
      await waitFor('the encoder disconnected', () => publisher.exitCode !== null);
    } finally {
      warn.mockRestore();
      error.mockRestore();
      if (running(pid as number)) process.kill(pid as number, 'SIGKILL');
    }
    expect((await stream('/end', 'POST')).state).toBe('ended');
  }, 90_000);
});

describe('ffmpeg runs of a server killed hard', () => {
  it('end with it: a WHIP packager is gone right after a SIGKILL', async () => {
    const dir = folder();
    const server = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, '../../test-support/live-child-server.ts'), dir],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(server);
    const ready = await new Promise<{
      showUid: string;
      streamKey: string;
      previewUrl: string;
      whipUrl: string;
    }>((resolve, reject) => {
      let text = '';
      server.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        // Its log lines are JSON too: the answer is the whole line with the stream key.
        const line = text.split('\n').find((candidate) => candidate.includes('"streamKey"'));
        if (line && text.includes(`${line}\n`)) resolve(JSON.parse(line));
      });
      server.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
    });
    let whip: WhipTestPublisher | null = null;
    try {
      whip = await publishOverWhip({ url: ready.whipUrl, key: ready.streamKey });
      expect(whip.status).toBe(201);
      await waitFor(
        'the preview',
        async () => (await (await fetch(ready.previewUrl)).text()).includes('.m4s'),
        30_000,
      );
      const packagers = packagerPids(ready.showUid);
      expect(packagers.length).toBeGreaterThan(0);
      // Its own child, ffmpeg itself (setpriv became it).
      for (const pid of packagers) {
        expect(execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { encoding: 'utf8' }).trim()).toBe(
          String(server.pid),
        );
      }

      server.kill('SIGKILL');
      await waitFor('no packager left', () => packagers.every((pid) => !running(pid)), 5_000);
    } finally {
      whip?.stop();
    }
  }, 240_000);
});

describe('a node starting', () => {
  it('reaps the ffmpeg runs a killed process of it recorded, and spares a process that took a recorded pid', async () => {
    const dir = folder();
    // A run recorded by an earlier process (its registry), left running.
    const earlier = createProcessRegistry({ dir, env: { PATH: '' } });
    const marker = `http://127.0.0.1:1/show-x/${'s'.repeat(32)}/`;
    const orphan = earlier.spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'anullsrc',
        '-metadata',
        `comment=${marker}`,
        '-f',
        'null',
        '-',
      ],
      { marker, stdio: 'ignore' },
    );
    children.push(orphan);
    const orphanPid = orphan.pid as number;
    // A pid file whose process is another program now (the pid was used again), and one of a dead run.
    const bystander = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(bystander);
    writeFileSync(
      join(dir, `${bystander.pid}.json`),
      JSON.stringify({ pid: bystander.pid, marker, startedAt: 0 }),
    );
    writeFileSync(join(dir, '999999.json'), JSON.stringify({ pid: 999_999, marker, startedAt: 0 }));
    await waitFor('the orphan running', () => running(orphanPid));

    const reaped = await createProcessRegistry({ dir }).reap();
    expect(reaped).toEqual([orphanPid]);
    await waitFor('the orphan gone', () => orphan.exitCode !== null || orphan.signalCode !== null);
    expect(orphan.signalCode).toBe('SIGKILL');
    expect(running(bystander.pid as number)).toBe(true);
    // Every record was read and removed: the next start has nothing to reap.
    expect(await createProcessRegistry({ dir }).reap()).toEqual([]);
  });
});
