import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveStreamView, Show } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishTestStream, waitFor } from '../../test-support/live-publisher.ts';
import { createTestStore, signInStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';
import { openTestApp } from '../../test-support/test-app.ts';
import { discoverFfmpeg } from './ffmpeg-binary.ts';
import { packagerOutputArgs } from './hls-packager.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
const GRACE_MS = 5000;
let app: TestApp;
let host: TestStaffMember;
let pageUid: string;
let liveDir: string;
let rtmpPort: number;
const publishers: ReturnType<typeof publishTestStream>[] = [];

async function call(showUid: string, method: 'GET' | 'POST', suffix = '') {
  const response = await app.server.inject({
    method,
    url: `/staff/stores/${pageUid}/shows/${showUid}/stream${suffix}`,
    headers: host.headers,
  });
  return response.json() as LiveStreamView;
}

async function text(url: string): Promise<string> {
  return (await app.server.inject({ method: 'GET', url })).body;
}

async function newShow(name: string): Promise<string> {
  const created = await app.server.inject({
    method: 'POST',
    url: `/staff/stores/${pageUid}/shows`,
    headers: host.headers,
    payload: { name, startsAt: '2026-10-01T19:00', timeZone: 'Europe/Copenhagen', visibility: 'public' },
  });
  return (created.json() as Show).uid;
}

function publish(key: string) {
  const publisher = publishTestStream(`rtmp://127.0.0.1:${rtmpPort}/live/${key}`);
  publishers.push(publisher);
  return publisher;
}

/** The packager ffmpeg of a show: the process writing into its recording folder. */
function packagerPids(showUid: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', join(liveDir, showUid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

const segmentCount = async (showUid: string) =>
  (await text(`/live/${showUid}/replay.m3u8`)).split('\n').filter((line) => line.endsWith('.m4s')).length;

beforeAll(async () => {
  liveDir = mkdtempSync(join(tmpdir(), 'vitrine-live-faults-'));
  app = await openTestApp({
    env: { RTMP_PORT: '0', VITRINE_LIVE_DIR: liveDir, LIVE_RECONNECT_GRACE_MS: String(GRACE_MS) },
  });
  pageUid = await createTestStore(app);
  host = await signInStaff(app, pageUid, 'host');
  rtmpPort = app.services.live.ingestPorts().rtmpPort ?? 0;
});

afterAll(async () => {
  for (const publisher of publishers) publisher.kill('SIGKILL');
  await app?.close();
  rmSync(liveDir, { recursive: true, force: true });
});

describe('a live show whose encoder drops', () => {
  it('waits reconnecting, resumes into the same recording, and ends by itself after the grace', async () => {
    const showUid = await newShow('Dropping');
    const { streamKey, previewUrl } = await call(showUid, 'GET');
    const first = publish(streamKey);
    await waitFor('the preview', async () => (await text(previewUrl)).includes('.m4s'));
    await call(showUid, 'POST', '/go-live');
    await waitFor('replay segments', async () => (await segmentCount(showUid)) >= 2);

    first.kill('SIGKILL');
    await waitFor('reconnecting', async () => (await call(showUid, 'GET')).state === 'reconnecting');
    const [event] = await app.services.events.eventsByIds([showUid]);
    expect(event?.event.currentStatus).toBe('live');

    publish(streamKey);
    await waitFor('live again', async () => (await call(showUid, 'GET')).state === 'live');
    const resumed = await waitFor('a segment of the second run', async () => {
      const replay = await text(`/live/${showUid}/replay.m3u8`);
      return replay.includes('r2-') ? replay : null;
    });
    // One recording: the second run follows the first after a discontinuity, on the same clock.
    expect(resumed).toMatch(/r1-\d+\.m4s[\s\S]*#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI="r2-init\.mp4"/);
    const times = [...resumed.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(\S+)/g)].map((match) =>
      Date.parse(match[1] ?? ''),
    );
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const live = await text(`/live/${showUid}/live.m3u8`);
    expect(live).toMatch(/#EXT-X-MEDIA-SEQUENCE:\d+/);

    publishers.at(-1)?.kill('SIGKILL');
    await waitFor('reconnecting again', async () => (await call(showUid, 'GET')).state === 'reconnecting');
    await waitFor(
      'the end after the grace',
      async () => (await call(showUid, 'GET')).state === 'ended',
      GRACE_MS + 15_000,
    );
    const [ended] = await app.services.events.eventsByIds([showUid]);
    expect(ended?.event.currentStatus).toBe('vod');
    expect(await text(`/live/${showUid}/replay.m3u8`)).toContain('#EXT-X-ENDLIST');
  });

  it('counts an encoder that stops sending without closing as gone', async () => {
    const showUid = await newShow('Frozen');
    const { streamKey, previewUrl } = await call(showUid, 'GET');
    const frozen = publish(streamKey);
    await waitFor('the preview', async () => (await text(previewUrl)).includes('.m4s'));
    await call(showUid, 'POST', '/go-live');
    frozen.kill('SIGSTOP');
    try {
      await waitFor(
        'reconnecting',
        async () => (await call(showUid, 'GET')).state === 'reconnecting',
        20_000,
      );
    } finally {
      frozen.kill('SIGKILL');
    }
    await call(showUid, 'POST', '/end');
  });

  it('forgets a preview whose encoder stops before Go live', async () => {
    const showUid = await newShow('Preview only');
    const { streamKey, previewUrl } = await call(showUid, 'GET');
    const publisher = publish(streamKey);
    await waitFor('the preview', async () => (await text(previewUrl)).includes('.m4s'));
    publisher.kill('SIGKILL');
    await waitFor('idle', async () => (await call(showUid, 'GET')).state === 'idle');
  });
});

describe('a publisher sending another codec than H.264', () => {
  it('is transcoded to H.264 into the same kind of HLS', async () => {
    const showUid = await newShow('FLV1 encoder');
    const { streamKey, previewUrl } = await call(showUid, 'GET');
    const publisher = publishTestStream(`rtmp://127.0.0.1:${rtmpPort}/live/${streamKey}`, {
      videoCodec: 'flv1',
    });
    publishers.push(publisher);
    await waitFor('the preview', async () => (await text(previewUrl)).includes('.m4s'), 30_000);
    const health = await waitFor('health', async () => (await call(showUid, 'GET')).health);
    expect(health.videoPassthrough).toBe(false);
    const init = await app.server.inject({ method: 'GET', url: `/live/${showUid}/r1-init.mp4` });
    // The init segment describes H.264 video (an avc1 sample entry).
    expect(init.rawPayload.includes(Buffer.from('avc1'))).toBe(true);
    publisher.kill('SIGKILL');
  });
});

describe('ffmpeg crashing mid-show', () => {
  it('is restarted into the same recording; the show stays live', async () => {
    const showUid = await newShow('Crashing packager');
    const { streamKey, previewUrl } = await call(showUid, 'GET');
    publish(streamKey);
    await waitFor('the preview', async () => (await text(previewUrl)).includes('.m4s'));
    await call(showUid, 'POST', '/go-live');
    const [pid] = await waitFor('the packager process', () => {
      const pids = packagerPids(showUid);
      return pids.length ? pids : null;
    });
    process.kill(pid as number, 'SIGKILL');
    await waitFor('a segment of the restarted packager', async () =>
      (await text(`/live/${showUid}/replay.m3u8`)).includes('r2-'),
    );
    expect((await call(showUid, 'GET')).state).toBe('live');
    await call(showUid, 'POST', '/end');
  });
});

describe('without ffmpeg', () => {
  it('finds none on an empty PATH without the npm package, and says what to install', () => {
    const found = discoverFfmpeg(null, { PATH: '/nonexistent' }, []);
    expect(found.available).toBe(false);
    if (!found.available) expect(found.missing).toMatch(/ffmpeg is not installed: install it/);
  });

  it.runIf(process.platform === 'linux' && process.arch === 'x64')(
    'falls back to the binary shipped in the npm package, which writes fMP4 HLS with PDT',
    () => {
      const found = discoverFfmpeg(null, { PATH: '/nonexistent' });
      expect(found).toMatchObject({ available: true, source: 'npm' });
      if (!found.available) return;
      const dir = mkdtempSync(join(tmpdir(), 'vitrine-npm-ffmpeg-'));
      try {
        execFileSync(found.path, [
          ...[
            '-hide_banner',
            '-loglevel',
            'error',
            '-f',
            'lavfi',
            '-i',
            'testsrc=size=320x240:rate=25:duration=3',
          ],
          ...['-c:v', 'libx264', '-g', '25', '-pix_fmt', 'yuv420p', '-f', 'flv', join(dir, 'in.flv')],
        ]);
        execFileSync(found.path, [
          ...['-hide_banner', '-loglevel', 'error', '-f', 'flv', '-i', join(dir, 'in.flv')],
          ...packagerOutputArgs('h264', dir, 1, false),
        ]);
        const playlist = readFileSync(join(dir, 'r1.m3u8'), 'utf8');
        expect(playlist).toContain('#EXT-X-MAP:URI="r1-init.mp4"');
        expect(playlist).toContain('#EXT-X-PROGRAM-DATE-TIME:');
        expect(playlist).toMatch(/r1-00002\.m4s/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('keeps the rest working: the stream call says what is missing, and publishers are refused', async () => {
    const noFfmpegDir = mkdtempSync(join(tmpdir(), 'vitrine-live-none-'));
    const bare = await openTestApp({
      env: { RTMP_PORT: '0', VITRINE_LIVE_DIR: noFfmpegDir, FFMPEG_PATH: '/nonexistent/ffmpeg' },
    });
    try {
      const store = await createTestStore(bare);
      const staff = await signInStaff(bare, store, 'host');
      const created = await bare.server.inject({
        method: 'POST',
        url: `/staff/stores/${store}/shows`,
        headers: staff.headers,
        payload: { name: 'No ffmpeg', startsAt: '2026-10-01T19:00', timeZone: 'Europe/Copenhagen' },
      });
      const showUid = (created.json() as Show).uid;
      const response = await bare.server.inject({
        method: 'GET',
        url: `/staff/stores/${store}/shows/${showUid}/stream`,
        headers: staff.headers,
      });
      const view = response.json() as LiveStreamView;
      expect(view.packager).toEqual({
        available: false,
        ffmpeg: null,
        missing: 'FFMPEG_PATH names /nonexistent/ffmpeg, which is not an executable file.',
      });
      const port = bare.services.live.ingestPorts().rtmpPort;
      const publisher = publishTestStream(`rtmp://127.0.0.1:${port}/live/${view.streamKey}`);
      publishers.push(publisher);
      expect(await publisher.stopped).not.toBe(0);
    } finally {
      await bare.close();
      rmSync(noFfmpegDir, { recursive: true, force: true });
    }
  });
});
