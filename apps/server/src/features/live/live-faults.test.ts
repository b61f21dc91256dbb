import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultLiveProfile } from '@vitrine/domain';
import type { LiveStreamView } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { publishTestStream, waitFor } from '../../test-support/live-publisher.ts';
import { liveTestApp } from '../../test-support/live-test-app.ts';
import { packagerPids } from '../../test-support/processes.ts';
import {
  createTestShow,
  createTestStore,
  signInStaff,
  type TestStaffMember,
} from '../../test-support/studio-staff.ts';
import { openTestApp } from '../../test-support/test-app.ts';
import { discoverFfmpeg } from './ffmpeg-binary.ts';
import { createDiskSegmentStore, type SegmentStore } from './segment-store.ts';
import { openShowRecording } from './show-recording.ts';

/**
 * The reconnect grace: long enough for a new encoder to start and connect on a busy machine (at
 * load 30, 5 s passed before ffmpeg was publishing again, and the show had ended by itself).
 */
const GRACE_MS = 15_000;
const { app, host, pageUid, rtmpPort, publishers, newShow, publishRtmp } = liveTestApp(
  'vitrine-live-faults-',
  {
    RTMP_PORT: '0',
    LIVE_RECONNECT_GRACE_MS: String(GRACE_MS),
    LOG_LEVEL: 'info',
  },
);

async function call(showUid: string, method: 'GET' | 'POST', suffix = '') {
  const response = await app().server.inject({
    method,
    url: `/staff/stores/${pageUid()}/shows/${showUid}/stream${suffix}`,
    headers: host().headers,
  });
  return response.json() as LiveStreamView;
}

async function text(url: string): Promise<string> {
  return (await app().server.inject({ method: 'GET', url })).body;
}

const segmentCount = async (showUid: string) =>
  (await text(`/live/${showUid}/replay.m3u8`)).split('\n').filter((line) => line.endsWith('.m4s')).length;

describe('a live show whose encoder drops', () => {
  it('waits reconnecting, resumes into the same recording, and ends by itself after the grace', async () => {
    const showUid = await newShow('Dropping');
    const { streamKey, previewUrl } = await call(showUid, 'GET');
    const first = publishRtmp(streamKey);
    await waitFor('the preview', async () => (await text(previewUrl)).includes('.m4s'));
    await call(showUid, 'POST', '/go-live');
    await waitFor('replay segments', async () => (await segmentCount(showUid)) >= 2);

    first.kill('SIGKILL');
    await waitFor('reconnecting', async () => (await call(showUid, 'GET')).state === 'reconnecting');
    const [event] = await app().services.events.eventsByIds([showUid]);
    expect(event?.event.currentStatus).toBe('live');

    publishRtmp(streamKey);
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
    // The stream is marked ended first (so it ends once); the event turns vod when the replay is finalised.
    await waitFor('the event to be the replay', async () => {
      const [ended] = await app().services.events.eventsByIds([showUid]);
      return ended?.event.currentStatus === 'vod';
    });
    expect(await text(`/live/${showUid}/replay.m3u8`)).toContain('#EXT-X-ENDLIST');
  });

  it('counts an encoder that stops sending without closing as gone', async () => {
    const showUid = await newShow('Frozen');
    const { streamKey, previewUrl } = await call(showUid, 'GET');
    const frozen = publishRtmp(streamKey);
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
    const publisher = publishRtmp(streamKey);
    await waitFor('the preview', async () => (await text(previewUrl)).includes('.m4s'));
    publisher.kill('SIGKILL');
    await waitFor('idle', async () => (await call(showUid, 'GET')).state === 'idle');
  });
});

describe('a publisher sending another codec than H.264', () => {
  it('is transcoded to H.264 into the same kind of HLS', async () => {
    const showUid = await newShow('FLV1 encoder');
    const { streamKey, previewUrl } = await call(showUid, 'GET');
    const publisher = publishRtmp(streamKey, { videoCodec: 'flv1' });
    await waitFor('the preview', async () => (await text(previewUrl)).includes('.m4s'));
    const health = await waitFor('health', async () => (await call(showUid, 'GET')).health);
    expect(health.videoPassthrough).toBe(false);
    const init = await app().server.inject({ method: 'GET', url: `/live/${showUid}/r1-init.mp4` });
    // The init segment describes H.264 video (an avc1 sample entry).
    expect(init.rawPayload.includes(Buffer.from('avc1'))).toBe(true);
    publisher.kill('SIGKILL');
  });
});

describe('ffmpeg crashing mid-show', () => {
  it('is restarted into the same recording; the show stays live', async () => {
    const showUid = await newShow('Crashing packager');
    const { streamKey, previewUrl } = await call(showUid, 'GET');
    publishRtmp(streamKey);
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
  it('finds none on an empty PATH, and says what to install', () => {
    const found = discoverFfmpeg(null, { PATH: '/nonexistent' });
    expect(found.available).toBe(false);
    if (!found.available) expect(found.missing).toMatch(/ffmpeg 5 or later is not installed: install it/);
  });

  it('finds the system ffmpeg on PATH with its version', () => {
    const found = discoverFfmpeg(null, { PATH: '/usr/local/bin:/usr/bin' });
    expect(found).toMatchObject({ available: true, source: 'PATH' });
    if (found.available) expect(found.version).toMatch(/^n?\d+\.\d+/);
  });

  it('refuses an ffmpeg older than 5 (the 2018 static builds), naming its version', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-old-ffmpeg-'));
    try {
      // What `ffmpeg -version` of the 2018 static build answers; live needs options it lacks.
      const old = join(dir, 'ffmpeg');
      writeFileSync(
        old,
        '#!/bin/sh\necho "ffmpeg version 4.1.4-static https://johnvansickle.com/ffmpeg/"\n',
        {
          mode: 0o755,
        },
      );
      const found = discoverFfmpeg(old);
      expect(found.available).toBe(false);
      if (!found.available)
        expect(found.missing).toBe(
          `${old} is ffmpeg 4.1.4-static; live video needs ffmpeg 5 or later: install it (Debian/Ubuntu: apt-get install ffmpeg; macOS: brew install ffmpeg) or set FFMPEG_PATH to an ffmpeg binary, then restart the server.`,
        );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the rest working: the stream call says what is missing, and publishers are refused', async () => {
    const noFfmpegDir = mkdtempSync(join(tmpdir(), 'vitrine-live-none-'));
    const bare = await openTestApp({
      env: { RTMP_PORT: '0', VITRINE_LIVE_DIR: noFfmpegDir, FFMPEG_PATH: '/nonexistent/ffmpeg' },
    });
    try {
      const store = await createTestStore(bare);
      const staff = await signInStaff(bare, store, 'host');
      const showUid = await createTestShow(bare, store, staff, 'No ffmpeg', { visibility: 'draft' });
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

/** ffmpeg publishing a file over RTMP as it is (`-c copy`), in real time, in a loop. */
function publishFile(file: string, key: string) {
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
      ...['-stream_loop', '-1', '-i', file],
      ...['-c', 'copy', '-f', 'flv', `rtmp://127.0.0.1:${rtmpPort()}/live/${key}`],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const stopped = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const publisher = Object.assign(child, { stopped });
  publishers.push(publisher);
  return publisher;
}

/** Encodes ffmpeg's synthetic 3840×2160 60 fps picture (short, low bitrate, ultrafast) into an FLV file. */
function syntheticUhd(file: string, video: string[], seconds: number) {
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=size=3840x2160:rate=60:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', 'sine=sample_rate=48000', '-shortest'],
    ...video,
    ...['-c:a', 'aac', '-f', 'flv', file],
  ]);
}

/** CPU seconds a process used so far (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

describe('a 4K 60 fps publisher', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vitrine-uhd-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('in a codec this node would have to transcode is refused, with why in the studio and the log', async () => {
    const file = join(dir, 'flv1-uhd.flv');
    syntheticUhd(file, ['-c:v', 'flv1', '-g', '60', '-b:v', '2M'], 1);
    const showUid = await newShow('4K60 FLV1');
    const { streamKey } = await call(showUid, 'GET');
    const warn = vi.spyOn(app().server.log, 'warn');
    try {
      const publisher = publishFile(file, streamKey);
      // The encoder is told at the protocol level (NetStream.Publish.BadName) and disconnected:
      // it publishes a loop, so it stops only so.
      await publisher.stopped;
      const view = await waitFor('the refusal in the stream view', async () => {
        const current = await call(showUid, 'GET');
        return current.refusal ? current : null;
      });
      expect(view.refusal?.message).toBe(
        'This 3840×2160 at 60 fps stream is not H.264, so this node would have to transcode it, and it transcodes at most 1920×1080 at 30 fps. Send H.264 (passed through at any size), or lower the resolution or frame rate.',
      );
      expect(view.state).toBe('idle');
      expect(view.health).toBeNull();
      // No packager was started for it.
      expect(packagerPids(showUid)).toEqual([]);
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ eventId: showUid, reason: 'beyond-transcode-budget' }),
        expect.stringMatching(/^live publish refused: This 3840×2160 at 60 fps stream/),
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('in H.264 is passed through, costing the packager little CPU', async () => {
    const file = join(dir, 'h264-uhd.flv');
    syntheticUhd(
      file,
      ['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '60', '-b:v', '3M'],
      2,
    );
    const showUid = await newShow('4K60 H.264');
    const { streamKey, previewUrl } = await call(showUid, 'GET');
    const publisher = publishFile(file, streamKey);
    try {
      await waitFor('the preview', async () => (await text(previewUrl)).includes('.m4s'));
      const view = await call(showUid, 'GET');
      expect(view.refusal).toBeNull();
      expect(view.health?.videoPassthrough).toBe(true);
      const [pid] = packagerPids(showUid);
      const before = { cpu: cpuSeconds(pid as number), at: performance.now() };
      const segmentsNow = (await text(previewUrl)).split('.m4s').length;
      // Measured over four more segments (seconds) of 4K60 stream.
      await waitFor(
        'four more segments',
        async () => (await text(previewUrl)).split('.m4s').length >= segmentsNow + 4,
      );
      const used = cpuSeconds(pid as number) - before.cpu;
      const wall = (performance.now() - before.at) / 1000;
      // Copying 3 Mbit/s of H.264 is cheap; decoding and encoding 4K60 would take several cores.
      console.info(`4K60 passthrough: the packager used ${Math.round((used / wall) * 100)}% of a core`);
      expect(used / wall).toBeLessThan(0.5);
    } finally {
      publisher.kill('SIGKILL');
    }
  });
});

/** Whether this process may mount a file system (root on Linux): the full-disk test needs one. */
function canMount(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'vitrine-mount-probe-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe]).status === 0;
  if (mounted) spawnSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
  return mounted;
}

describe.runIf(canMount())('a recordings disk that fills up', () => {
  let diskDir: string;
  let small: Awaited<ReturnType<typeof openTestApp>>;
  let smallHost: TestStaffMember;
  let smallPage: string;

  beforeAll(async () => {
    // A real, small file system for the recordings: 24 MB.
    diskDir = mkdtempSync(join(tmpdir(), 'vitrine-small-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', diskDir]);
    small = await openTestApp({
      env: { RTMP_PORT: '0', VITRINE_LIVE_DIR: diskDir },
    });
    smallPage = await createTestStore(small);
    smallHost = await signInStaff(small, smallPage, 'host');
  });

  afterAll(async () => {
    await small?.close();
    spawnSync('umount', ['-l', diskDir]);
    rmSync(diskDir, { recursive: true, force: true });
  });

  const stream = async (showUid: string, suffix = '', method: 'GET' | 'POST' = 'GET') =>
    (
      await small.server.inject({
        method,
        url: `/staff/stores/${smallPage}/shows/${showUid}/stream${suffix}`,
        headers: smallHost.headers,
      })
    ).json() as LiveStreamView;
  const get = (url: string) => small.server.inject({ method: 'GET', url });
  const listed = (playlist: string) => playlist.split('\n').filter((line) => /^r\d+-\d+\.m4s/.test(line));

  it('is warned about before, then the show goes on from memory and what was recorded stays whole', async () => {
    const showUid = await createTestShow(small, smallPage, smallHost, 'Full disk', { visibility: 'draft' });
    const { streamKey, previewUrl } = await stream(showUid);
    const publisher = publishTestStream(
      `rtmp://127.0.0.1:${small.services.live.ingestPorts().rtmpPort}/live/${streamKey}`,
    );
    publishers.push(publisher);
    await waitFor('the preview', async () => (await get(previewUrl)).body.includes('.m4s'));
    await stream(showUid, '/go-live', 'POST');
    await waitFor(
      'three recorded segments',
      async () => listed((await get(`/live/${showUid}/replay.m3u8`)).body).length >= 3,
    );

    // Before it happens: the studio sees the free space, the minutes left at this bitrate, a warning.
    const before = await waitFor('a bitrate', async () => {
      const view = await stream(showUid);
      return view.health?.bitrateKbps ? view : null;
    });
    expect(before.disk.freeBytes).toBeLessThanOrEqual(24 * 1024 ** 2);
    expect(before.disk.minutesLeft).toBeGreaterThanOrEqual(0);
    expect(before.disk).toMatchObject({ low: true, full: false });

    // Something else fills the disk to the last byte.
    const error = vi.spyOn(small.server.log, 'error');
    const ballast = fillDisk(join(diskDir, 'ballast'));
    try {
      const full = await waitFor('the studio told the disk is full', async () => {
        const view = await stream(showUid);
        return view.disk.full ? view : null;
      });
      expect(full.state).toBe('live');
      expect(full.disk.low).toBe(true);
      expect(error).toHaveBeenCalledWith(
        expect.objectContaining({ eventId: showUid }),
        'the recordings disk is full: the show goes on for viewers from memory, and its recording pauses until space is freed',
      );
      const recorded = listed((await get(`/live/${showUid}/replay.m3u8`)).body);

      // Viewers keep getting new segments: from memory, not the disk.
      const fromMemory = await waitFor('a live segment packaged in memory', async () => {
        const live = listed((await get(`/live/${showUid}/live.m3u8`)).body);
        return live.find((uri) => !recorded.includes(uri) && !existsSync(join(diskDir, showUid, uri)));
      });
      const served = await get(`/live/${showUid}/${fromMemory}`);
      expect(served.statusCode).toBe(200);
      expect(served.rawPayload.length).toBeGreaterThan(1000);
      // The replay lists only what is on the disk: segments kept in memory are not in it.
      const replayNow = listed((await get(`/live/${showUid}/replay.m3u8`)).body);
      expect(replayNow).not.toContain(fromMemory);

      // Every recorded segment decodes, and the segment list has only whole lines.
      await expectWholeRecording(diskDir, showUid, replayNow);

      // Space again: the recording resumes on the disk, after a discontinuity.
      for (const file of ballast) rmSync(file);
      await waitFor('the disk no longer full', async () => !(await stream(showUid)).disk.full);
      const resumed = await waitFor('a segment recorded on the disk again', async () => {
        const replay = (await get(`/live/${showUid}/replay.m3u8`)).body;
        return listed(replay).length > replayNow.length ? replay : null;
      });
      expect(resumed).toContain('#EXT-X-DISCONTINUITY');
    } finally {
      error.mockRestore();
      for (const file of ballast) rmSync(file, { force: true });
    }
    const ended = await stream(showUid, '/end', 'POST');
    expect(ended.state).toBe('ended');
    const replay = (await get(`/live/${showUid}/replay.m3u8`)).body;
    expect(replay).toContain('#EXT-X-ENDLIST');
    await expectWholeRecording(diskDir, showUid, listed(replay));
    publisher.kill('SIGKILL');
  });

  it('keeps its segment list whole lines and its replay playlist in memory when writes fail', async () => {
    // The journal and the replay playlist on the small disk; the segments in a roomy store (as with
    // a bucket), so that the segments are stored while the journal's line and the replay are not.
    const folder = join(diskDir, 'a-recording');
    const roomy = mkdtempSync(join(tmpdir(), 'vitrine-roomy-store-'));
    const small = createDiskSegmentStore(diskDir);
    const segments = createDiskSegmentStore(roomy);
    const store: SegmentStore = {
      ...small,
      put: (key, bytes, contentType) =>
        (key.endsWith('.m3u8') ? small : segments).put(key, bytes, contentType),
      get: async (key) => (key.endsWith('.m3u8') ? small : segments).get(key),
    };
    const media = { store, prefix: 'a-recording/', profile: defaultLiveProfile(2) };
    const recording = await openShowRecording(folder, media);
    const segment = (index: number) => ({
      uri: `r1-${String(index).padStart(5, '0')}.m4s`,
      initUri: 'r1-init.mp4',
      duration: 1,
      programDateTime: Date.UTC(2026, 9, 1, 19) + index * 1000,
      discontinuity: false,
    });
    // A long show: its replay playlist is larger than what a file system's accounting lets slip.
    const SEGMENTS = 5000;
    await recording.add(segment(0), Buffer.alloc(100), Buffer.alloc(100));
    for (let index = 1; index < SEGMENTS; index += 1)
      await recording.add(segment(index), Buffer.alloc(1), null);
    const refused = await openShowRecording(join(diskDir, 'b-recording'), {
      store: small,
      prefix: 'b-recording/',
      profile: defaultLiveProfile(2),
    });
    const filler = fillDisk(join(diskDir, 'filler'));
    try {
      // A list line longer than what is left is written only in part by the file system.
      const long = { ...segment(SEGMENTS), note: 'x'.repeat(2 * 1024 ** 2) };
      await recording.add(long, Buffer.alloc(100), null);
      const lines = readFileSync(join(folder, 'segments.ndjson'), 'utf8').split('\n').filter(Boolean);
      expect(lines).toHaveLength(SEGMENTS);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();

      const { notWritten } = await recording.finish(null);
      expect((notWritten as NodeJS.ErrnoException).code).toBe('ENOSPC');
      expect(existsSync(join(folder, 'replay.m3u8'))).toBe(false);
      const replay = (await recording.file('replay.m3u8'))?.bytes.toString('utf8');
      expect(replay).toContain(`${segment(SEGMENTS).uri}\n`);
      expect(replay).toContain('#EXT-X-ENDLIST');

      // A segment the store refuses (its disk is full too) plays at the live edge, never in the replay.
      const { storeError } = await refused.add(segment(0), Buffer.alloc(64 * 1024), Buffer.alloc(100));
      expect((storeError as NodeJS.ErrnoException).code).toBe('ENOSPC');
      expect((await refused.file(segment(0).uri))?.bytes.length).toBe(64 * 1024);
      expect(refused.replayPlaylist(null)).not.toContain(segment(0).uri);
      expect(existsSync(join(diskDir, 'b-recording', segment(0).uri))).toBe(false);
    } finally {
      for (const file of filler) rmSync(file, { force: true });
      rmSync(roomy, { recursive: true, force: true });
    }
    // Space again: the waiting line is written with the next.
    await recording.add(segment(SEGMENTS + 1), Buffer.alloc(100), null);
    const reopened = await openShowRecording(folder, media);
    expect(
      reopened
        .segments()
        .slice(-3)
        .map((listed) => listed.uri),
    ).toEqual([SEGMENTS - 1, SEGMENTS, SEGMENTS + 1].map((index) => segment(index).uri));
    rmSync(folder, { recursive: true, force: true });
  });
});

/** Fills the file system of `prefix` to its last page; answers the files written. */
function fillDisk(prefix: string): string[] {
  const files: string[] = [];
  const chunk = Buffer.alloc(256 * 1024, 1);
  const fd = openSync(`${prefix}-big`, 'w');
  files.push(`${prefix}-big`);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (thrown) {
    expect((thrown as NodeJS.ErrnoException).code).toBe('ENOSPC');
  } finally {
    closeSync(fd);
  }
  // The last pages, one at a time.
  try {
    for (let index = 0; ; index += 1) {
      writeFileSync(`${prefix}-${index}`, Buffer.alloc(4096, 1));
      files.push(`${prefix}-${index}`);
    }
  } catch (thrown) {
    expect((thrown as NodeJS.ErrnoException).code).toBe('ENOSPC');
  }
  return files;
}

/**
 * Each listed segment is on the disk, whole, and decodes after its init segment (ffmpeg reports
 * no error); every line of the recording's segment list is whole JSON.
 */
async function expectWholeRecording(diskDir: string, showUid: string, segments: string[]) {
  const folder = join(diskDir, showUid);
  const scratch = mkdtempSync(join(tmpdir(), 'vitrine-decode-'));
  try {
    expect(segments.length).toBeGreaterThan(0);
    for (const uri of segments) {
      const run = /^r(\d+)-/.exec(uri)?.[1];
      const joined = join(scratch, 'joined.mp4');
      writeFileSync(
        joined,
        Buffer.concat([readFileSync(join(folder, `r${run}-init.mp4`)), readFileSync(join(folder, uri))]),
      );
      const decoded = spawnSync('ffmpeg', ['-v', 'error', '-i', joined, '-f', 'null', '-'], {
        encoding: 'utf8',
      });
      expect({ uri, status: decoded.status, errors: decoded.stderr }).toEqual({ uri, status: 0, errors: '' });
    }
    const lines = readFileSync(join(folder, 'segments.ndjson'), 'utf8').split('\n').filter(Boolean);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
