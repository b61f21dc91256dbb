import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PREMIERE_MAX_BYTES, parseMediaPlaylist } from '@vitrine/domain';
import type { LiveStreamView, PremiereInfo, Show } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import { TEST_H264_ENCODING, waitFor } from '../../test-support/live-publisher.ts';
import {
  createTestShow,
  createTestStore,
  signInStaff,
  type TestStaffMember,
} from '../../test-support/studio-staff.ts';
import { openTestApp, openTestDatabase } from '../../test-support/test-app.ts';
import { premiereReplayPath } from './premiere-replay.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;
let host: TestStaffMember;
let moderator: TestStaffMember;
let pageUid: string;
let workDir: string;
let liveDir: string;
let shortVideo: Buffer;

/** A real MP4 made by ffmpeg: a counter picture and a tone, H.264 with a keyframe each second. */
function makeVideo(name: string, args: string[]): Buffer {
  const path = join(workDir, name);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args, path]);
  return readFileSync(path);
}

const h264Video = (seconds: number) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc=size=320x240:rate=25:duration=${seconds}`,
  '-f',
  'lavfi',
  '-i',
  `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
  ...TEST_H264_ENCODING,
  '-c:a',
  'aac',
  '-shortest',
];

/** One GOP of h264Video (a keyframe every 25 frames at 25 fps): how far a seek or a segment's edge may round. */
const KEYFRAME_ROUNDING_SECONDS = 1;

const env = (dir: string) => ({ VITRINE_LIVE_DIR: dir, LIVE_RECONNECT_GRACE_MS: '30000' });

const newShow = (target: TestApp, name: string, store = pageUid, who = host) =>
  createTestShow(target, store, who, name, { schedule: { startsAt: '2026-12-01T19:00', timeZone: 'UTC' } });

/**
 * A premiere scheduled `startsInSeconds` ahead on an app over a database of its own, for the tests
 * that stop that app and start another on the same database. The caller closes the app and
 * disposes of the database; a failing set-up does both itself.
 */
async function premiereOnOwnApp(name: string, title: string, startsInSeconds: number) {
  const db: Database & { dispose(): Promise<void> } = await openTestDatabase();
  const dir = join(workDir, name);
  const first = await openTestApp({ db, env: env(dir) });
  try {
    pageUid = await createTestStore(first, `${name}-store`);
    host = await signInStaff(first, pageUid, 'host');
    const showUid = await newShow(first, title);
    expect((await upload(showUid, shortVideo, { target: first })).status).toBe(200);
    const startsAt = soon(startsInSeconds);
    expect((await schedule(showUid, startsAt, first)).status).toBe(200);
    return { db, dir, first, showUid, startsAt };
  } catch (error) {
    await first.close();
    await db.dispose();
    throw error;
  }
}

const premierePath = (showUid: string) => `/staff/stores/${pageUid}/shows/${showUid}/premiere`;

async function upload(
  showUid: string,
  bytes: Buffer,
  options: {
    contentType?: string;
    who?: TestStaffMember;
    target?: TestApp;
    headers?: Record<string, string>;
  } = {},
) {
  const response = await (options.target ?? app).server.inject({
    method: 'PUT',
    url: `${premierePath(showUid)}/video?fileName=${encodeURIComponent('my show.mp4')}`,
    headers: {
      ...(options.who ?? host).headers,
      'content-type': options.contentType ?? 'video/mp4',
      ...options.headers,
    },
    payload: bytes,
  });
  return { status: response.statusCode, body: response.json() as PremiereInfo & { message?: string } };
}

async function schedule(showUid: string, startsAt: number, target: TestApp = app, who = host) {
  const response = await target.server.inject({
    method: 'POST',
    url: `${premierePath(showUid)}/schedule`,
    headers: who.headers,
    // UTC's wall clock, to the second.
    payload: { startsAt: new Date(startsAt).toISOString().slice(0, 19), timeZone: 'UTC' },
  });
  return { status: response.statusCode, body: response.json() as PremiereInfo & { message?: string } };
}

async function premiere(showUid: string, target: TestApp = app) {
  const response = await target.server.inject({
    method: 'GET',
    url: premierePath(showUid),
    headers: host.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as PremiereInfo;
}

async function stream(showUid: string, target: TestApp = app) {
  const response = await target.server.inject({
    method: 'GET',
    url: `/staff/stores/${pageUid}/shows/${showUid}/stream`,
    headers: host.headers,
  });
  return response.json() as LiveStreamView;
}

async function playlist(
  showUid: string,
  name: 'live' | 'replay',
  target: TestApp = app,
  url = `/live/${showUid}/${name}.m3u8`,
) {
  const response = await target.server.inject({ method: 'GET', url });
  return response.statusCode === 200 ? response.body : null;
}

/**
 * The show's event once it is the replay. The premiere and the stream say "ended" as soon as the
 * publish ends; the event turns vod after the recording is finished, a moment later.
 */
const showBecameReplay = (target: TestApp, showUid: string) =>
  waitFor('the show to be the replay', async () => {
    const event = await target.services.events.streamEvent(showUid);
    return event?.currentStatus === 'vod' ? event : null;
  });

/** The show's replay once it is the premiere's file (packaged after the show ended). */
const fileReplay = (target: TestApp, showUid: string) =>
  waitFor('the file as the replay', async () => {
    const event = await target.services.events.anyEvent(pageUid, showUid);
    if (event?.event.cdnMp4VideoUrl !== premiereReplayPath(showUid)) return null;
    return playlist(showUid, 'replay', target, premiereReplayPath(showUid));
  });

/** The seconds ffprobe reads of a playlist served at `url` (it fetches every segment). */
const probedSeconds = (url: string) =>
  Number(
    execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', url], {
      encoding: 'utf8',
    }).trim(),
  );

/** The seconds of video in a playlist. */
const secondsOf = (text: string) => parseMediaPlaylist(text).reduce((sum, entry) => sum + entry.duration, 0);

/** The ffmpeg processes playing a show's premiere file. */
function premiereFfmpegPids(showUid: string): number[] {
  try {
    return execFileSync('pgrep', ['-f', `\\.premieres/${showUid}-`], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** A start a few seconds ahead, on a whole second (the schedule call takes seconds). */
const soon = (seconds: number) => Math.ceil((Date.now() + seconds * 1000) / 1000) * 1000;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'vitrine-premiere-test-'));
  liveDir = join(workDir, 'live');
  app = await openTestApp({ env: env(liveDir) });
  pageUid = await createTestStore(app);
  host = await signInStaff(app, pageUid, 'host');
  moderator = await signInStaff(app, pageUid, 'moderator');
  shortVideo = makeVideo('short.mp4', h264Video(12));
});

afterAll(async () => {
  await app?.close();
  rmSync(workDir, { recursive: true, force: true });
});

/*
 * The SIGKILL test's premiere plays a minute in real time in a server process of its own, mostly
 * waiting on the clock; it runs beside the tests on apps in this process (two concurrent groups),
 * so the file takes about as long as that test rather than the sum of both. The tests in this
 * process stay one after another (`describe.sequential`): their premieres share this process's
 * event loop, and side by side at load 15 one of them recorded segments late.
 */
describe.concurrent('on apps in this test process', () => {
  describe.sequential('uploading a premiere', () => {
    it('takes an MP4, reads it with ffprobe and says what it found', async () => {
      const showUid = await newShow(app, 'Upload');
      const before = await premiere(showUid);
      expect(before).toMatchObject({ premiere: null, available: true, maxBytes: PREMIERE_MAX_BYTES });
      const uploaded = await upload(showUid, shortVideo);
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
      expect(uploaded.body.premiere).toMatchObject({
        state: 'ready',
        startsAt: null,
        media: { fileName: 'my show.mp4', width: 320, height: 240, videoCodec: 'h264', audioCodec: 'aac' },
      });
      expect(uploaded.body.premiere?.media.durationSeconds).toBeCloseTo(12, 0);
      expect(uploaded.body.premiere?.media.sizeBytes).toBe(shortVideo.length);
    });

    it('refuses a file that is no video (415), as its own type or as another', async () => {
      const showUid = await newShow(app, 'Not a video');
      const text = await upload(showUid, Buffer.from('<html>not a video</html>'.repeat(100)));
      expect(text.status).toBe(415);
      expect(text.body.message).toMatch(/not a video the server can play/);
      const json = await upload(showUid, Buffer.from('{"a":1}'), { contentType: 'application/json' });
      expect(json.status).toBe(415);
      const webm = makeVideo('clip.webm', [
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=64x64:rate=5:duration=1',
        '-c:v',
        'libvpx',
      ]);
      const wrongContainer = await upload(showUid, webm);
      expect(wrongContainer.status).toBe(415);
      expect(wrongContainer.body.message).toMatch(/not MP4 or QuickTime/);
      expect((await premiere(showUid)).premiere).toBeNull();
    });

    it('refuses a video without picture or longer than 4 hours (422)', async () => {
      const showUid = await newShow(app, 'Wrong videos');
      const audioOnly = makeVideo('sound.mp4', ['-f', 'lavfi', '-i', 'sine=duration=2', '-c:a', 'aac']);
      const noPicture = await upload(showUid, audioOnly);
      expect(noPicture.status).toBe(422);
      expect(noPicture.body.message).toMatch(/no picture/);
      const long = makeVideo('long.mp4', [
        '-f',
        'lavfi',
        '-i',
        'color=c=black:s=16x16:r=1:d=14500',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-g',
        '600',
      ]);
      const tooLong = await upload(showUid, long);
      expect(tooLong.status).toBe(422);
      expect(tooLong.body.message).toMatch(/4 h 01 min long; a premiere may last at most 4 h 00 min/);
    });

    it('refuses a file declared larger than 512 MiB before reading it (413)', async () => {
      const showUid = await newShow(app, 'Too big');
      const response = await upload(showUid, shortVideo, {
        headers: { 'content-length': String(PREMIERE_MAX_BYTES + 1) },
      });
      expect(response.status).toBe(413);
      expect(response.body.message).toMatch(/larger than 512 MiB/);
    });

    it('is for hosts: a moderator may neither upload nor schedule nor look (403)', async () => {
      const showUid = await newShow(app, 'Hosts only');
      expect((await upload(showUid, shortVideo, { who: moderator })).status).toBe(403);
      expect((await schedule(showUid, soon(60), app, moderator)).status).toBe(403);
      const look = await app.server.inject({
        method: 'GET',
        url: premierePath(showUid),
        headers: moderator.headers,
      });
      expect(look.statusCode).toBe(403);
      expect((await premiere(showUid)).premiere).toBeNull();
    });

    it("is refused for another store's show: its staff get 403, a show of theirs by another path 404", async () => {
      const showUid = await newShow(app, 'Not yours');
      const otherStore = await createTestStore(app, 'other-premiere-store');
      const otherHost = await signInStaff(app, otherStore, 'host');
      expect((await upload(showUid, shortVideo, { who: otherHost })).status).toBe(403);
      const sideways = await app.server.inject({
        method: 'PUT',
        url: `/staff/stores/${otherStore}/shows/${showUid}/premiere/video`,
        headers: { ...otherHost.headers, 'content-type': 'video/mp4' },
        payload: shortVideo,
      });
      expect(sideways.statusCode).toBe(404);
      expect((await premiere(showUid)).premiere).toBeNull();
    });

    it('says what is missing without ffmpeg (503) and stores nothing', async () => {
      // A second app on this file's database (no premiere is scheduled yet): only ffmpeg differs.
      const bare = await openTestApp({
        db: app.db,
        env: { ...env(join(workDir, 'bare')), FFMPEG_PATH: '/nonexistent/ffmpeg' },
      });
      try {
        const bareStore = await createTestStore(bare, 'bare-store');
        const bareHost = await signInStaff(bare, bareStore, 'host');
        const showUid = await newShow(bare, 'No ffmpeg', bareStore, bareHost);
        const url = `/staff/stores/${bareStore}/shows/${showUid}/premiere`;
        const info = (await bare.server.inject({ method: 'GET', url, headers: bareHost.headers })).json();
        expect(info).toMatchObject({ available: false, missing: expect.stringMatching(/FFMPEG_PATH/) });
        const refused = await bare.server.inject({
          method: 'PUT',
          url: `${url}/video`,
          headers: { ...bareHost.headers, 'content-type': 'video/mp4' },
          payload: shortVideo,
        });
        expect(refused.statusCode).toBe(503);
        expect(refused.json().message).toMatch(/FFMPEG_PATH names \/nonexistent\/ffmpeg/);
      } finally {
        await bare.close();
      }
    });
  });

  describe.sequential('scheduling a premiere', () => {
    it('needs the video first, and a time to come', async () => {
      const showUid = await newShow(app, 'Schedule rules');
      const early = await schedule(showUid, soon(60));
      expect(early.status).toBe(409);
      expect(early.body.message).toMatch(/Upload the premiere video first/);
      expect((await upload(showUid, shortVideo)).status).toBe(200);
      const past = await schedule(showUid, Date.now() - 60_000);
      expect(past.status).toBe(400);
      expect(past.body.message).toMatch(/startsAt: must be in the future/);
      const bad = await app.server.inject({
        method: 'POST',
        url: `${premierePath(showUid)}/schedule`,
        headers: host.headers,
        payload: { startsAt: 'tomorrow', timeZone: 'UTC' },
      });
      expect(bad.statusCode).toBe(400);
      const later = Date.UTC(2030, 0, 2, 18, 30, 15);
      const scheduled = await schedule(showUid, later);
      expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(200);
      expect(scheduled.body.premiere).toMatchObject({ state: 'scheduled', startsAt: later });
      // The show starts then too (at the minute), so its countdown and calendar agree.
      const show = await app.server.inject({
        method: 'GET',
        url: `/staff/stores/${pageUid}/shows/${showUid}`,
        headers: host.headers,
      });
      expect((show.json() as Show).startsAt).toBe(Date.UTC(2030, 0, 2, 18, 30));
    });
  });

  describe.sequential('a premiere playing', () => {
    let showUid: string;
    let startsAt: number;
    /** When the test killed the premiere's ffmpeg (the second test). */
    let killedAt: number;

    it('goes live at its time, and a late viewer starts at the current point', async () => {
      showUid = await newShow(app, 'Premiere');
      expect((await upload(showUid, shortVideo)).status).toBe(200);
      startsAt = soon(2);
      expect((await schedule(showUid, startsAt)).status).toBe(200);
      expect((await playlist(showUid, 'live')) ?? '').not.toContain('.m4s');

      const first = await waitFor('the premiere live', async () => {
        const text = await playlist(showUid, 'live');
        return text?.includes('.m4s') ? text : null;
      });
      expect(Date.now()).toBeGreaterThanOrEqual(startsAt);
      expect(first).toContain('#EXT-X-PROGRAM-DATE-TIME:');
      const view = await stream(showUid);
      expect(view).toMatchObject({
        state: 'live',
        liveStartTime: startsAt,
        health: { protocol: 'premiere' },
      });
      expect(view.health?.videoPassthrough).toBe(true);
      const event = await app.services.events.streamEvent(showUid);
      expect(event).toMatchObject({ currentStatus: 'live', liveStartTime: startsAt });

      // A viewer joining 5 s in gets the live edge: its newest segment is the current moment.
      await waitFor('5 s into the premiere', () => Date.now() > startsAt + 5000, 20_000);
      const late = await waitFor('a live window 5 s in', async () => {
        const text = await playlist(showUid, 'live');
        const entries = text ? parseMediaPlaylist(text) : [];
        const last = entries.at(-1);
        return last?.programDateTime && last.programDateTime > startsAt + 3000 ? entries : null;
      });
      const edge = late.at(-1);
      const edgeEnd = (edge?.programDateTime ?? 0) + (edge?.duration ?? 0) * 1000;
      console.info(
        `live edge ${Date.now() - edgeEnd} ms behind the clock, ${(edgeEnd - startsAt) / 1000} s in`,
      );
      expect(Math.abs(Date.now() - edgeEnd)).toBeLessThan(3500);
      const info = await premiere(showUid);
      expect(info.premiere?.state).toBe('playing');
      expect(info.premiere?.position).toBeGreaterThan(4.5);
    });

    it('resumes at the right point when ffmpeg is killed', async () => {
      const [pid] = await waitFor('the premiere ffmpeg', () => {
        const pids = premiereFfmpegPids(showUid);
        return pids.length ? pids : null;
      });
      killedAt = Date.now();
      process.kill(pid as number, 'SIGKILL');
      const resumed = await waitFor('a segment of the restarted ffmpeg', async () => {
        const text = await playlist(showUid, 'replay');
        const entry = text
          ? parseMediaPlaylist(text).find((candidate) => candidate.uri.startsWith('r2-'))
          : null;
        return entry ?? null;
      });
      expect(resumed.programDateTime ?? 0).toBeGreaterThanOrEqual(killedAt - 1000);
      expect((await stream(showUid)).state).toBe('live');
    });

    it('ends into the replay when the file has played out, at the scheduled end', async () => {
      const ended = await waitFor('the premiere ended', async () => {
        const info = await premiere(showUid);
        return info.premiere?.state === 'ended' ? info : null;
      });
      expect(ended.premiere?.error).toBeNull();
      const view = await stream(showUid);
      expect(view.state).toBe('ended');
      const event = await showBecameReplay(app, showUid);
      // Resumed at the right point: it ends about 12 s after its start, and before a premiere
      // restarted from the beginning at the kill could have (12 s after the kill). How late a
      // loaded machine's `-re` ffmpeg runs is no part of the claim (15.3 s seen at load 10); the
      // replay's length below is the sharper test, and does not depend on it.
      const runSeconds = ((event?.liveEndTime ?? 0) - startsAt) / 1000;
      console.info(`premiere of 12 s ended ${runSeconds} s after its start`);
      expect(runSeconds).toBeGreaterThan(11);
      expect(runSeconds).toBeLessThan((killedAt - startsAt) / 1000 + 12);
      const replay = (await playlist(showUid, 'replay')) ?? '';
      expect(replay).toContain('#EXT-X-ENDLIST');
      // The replay holds the file once (give or take the keyframe before each seek), less what the
      // clock passed between the killed run's last whole segment and the restarted run's first: the
      // restart resumes at the clock's point. How much that is depends on the machine's load (a
      // `-re` ffmpeg runs behind the clock, the killed segment is lost, a restart takes a while:
      // 9.8 s of replay seen beside the browser tests, 8 s at load 9), so the bound is what this
      // run's own playlist says it skipped, not a figure.
      const entries = parseMediaPlaylist(replay);
      const killedRun = entries.filter((entry) => entry.uri.startsWith('r1-'));
      const resumedRun = entries.filter((entry) => entry.uri.startsWith('r2-'));
      expect(killedRun.length, replay).toBeGreaterThan(0);
      expect(resumedRun.length, replay).toBeGreaterThan(0);
      const killedFirst = killedRun[0]?.programDateTime ?? Number.NaN;
      const killedLast = killedRun.at(-1);
      const killedEnd = (killedLast?.programDateTime ?? Number.NaN) + (killedLast?.duration ?? 0) * 1000;
      const resumedFirst = resumedRun[0]?.programDateTime ?? Number.NaN;
      expect(killedFirst).toBeGreaterThanOrEqual(startsAt);
      expect(resumedFirst).toBeGreaterThanOrEqual(killedEnd);
      // The file's point at the restart is at most the clock's time since the start; the killed run
      // had played its segments' seconds from the file's start, which it began late by
      // `killedFirst - startsAt`: so the part skipped is at most the wall-clock gap plus that lateness.
      const skippedAtMost = (resumedFirst - killedEnd + (killedFirst - startsAt)) / 1000;
      const replaySeconds = entries.reduce((sum, entry) => sum + entry.duration, 0);
      console.info(`premiere replay: ${replaySeconds} s, at most ${skippedAtMost} s skipped at the kill`);
      expect(replaySeconds).toBeGreaterThan(12 - skippedAtMost - KEYFRAME_ROUNDING_SECONDS);
      expect(replaySeconds).toBeLessThan(14.5);
      const [first] = entries;
      const segment = await app.server.inject({ method: 'GET', url: `/live/${showUid}/${first?.uri}` });
      expect(segment.statusCode).toBe(200);
      // Then viewers get the file itself as the replay, on the premiere's clock.
      const whole = parseMediaPlaylist(await fileReplay(app, showUid));
      expect(whole[0]?.programDateTime).toBe(startsAt);
      expect(whole.reduce((sum, entry) => sum + entry.duration, 0)).toBeCloseTo(12, 0);
      const fileSegment = await app.server.inject({
        method: 'GET',
        url: premiereReplayPath(showUid, whole[0]?.uri),
      });
      expect(fileSegment.statusCode).toBe(200);
      expect(fileSegment.headers['access-control-allow-origin']).toBe('*');
      // Only the replay's own files: no path out of its folder.
      for (const name of ['..%2F..%2Fpremieres.mp4', 'ffmpeg.m3u8', 'x.m4s'])
        expect(
          (await app.server.inject({ method: 'GET', url: premiereReplayPath(showUid, name) })).statusCode,
        ).toBe(404);
      // Nothing plays any more.
      await app.services.premieres.replaysSettled();
      expect(premiereFfmpegPids(showUid)).toEqual([]);
    });
  });

  describe.sequential('a server down at the scheduled time', () => {
    it('starts the premiere late at the point it has reached, live since its scheduled start', async () => {
      const scheduled = await premiereOnOwnApp('late', 'Late premiere', 3);
      const { db, dir, showUid, startsAt } = scheduled;
      let first: TestApp | null = scheduled.first;
      let second: TestApp | null = null;
      try {
        // Down before the start, back 5 s after it.
        await first.close();
        first = null;
        await waitFor('5 s past the start', () => Date.now() > startsAt + 5000, 20_000);
        const returnedAt = Date.now();
        second = await openTestApp({ db, env: env(dir) });
        const target = second;
        const [entry] = await waitFor('the premiere live', async () => {
          const text = await playlist(showUid, 'live', target);
          const entries = text ? parseMediaPlaylist(text) : [];
          return entries.length ? entries : null;
        });
        // Its first picture is the current moment, and the show counts as live since its time.
        expect((entry?.programDateTime ?? 0) - startsAt).toBeGreaterThan(4500);
        expect(await target.services.events.streamEvent(showUid)).toMatchObject({
          currentStatus: 'live',
          liveStartTime: startsAt,
        });
        await waitFor(
          'the premiere ended',
          async () => (await premiere(showUid, target)).premiere?.state === 'ended',
        );
        const event = await showBecameReplay(target, showUid);
        const runSeconds = ((event?.liveEndTime ?? 0) - startsAt) / 1000;
        console.info(`late premiere of 12 s ended ${runSeconds} s after its start`);
        // At its scheduled end, give or take a loaded machine's ffmpeg running behind (13.9 s seen
        // beside the browser tests); started from the beginning at the server's return it would
        // end 12 s after that (17+ s after its start). The recording's length below is the sharper test.
        expect(runSeconds).toBeLessThan((returnedAt - startsAt) / 1000 + 12);
        // The recording holds what was played, the file from about 5 s in; the replay is the whole file.
        const recordedSeconds = secondsOf((await playlist(showUid, 'replay', target)) ?? '');
        expect(recordedSeconds).toBeGreaterThan(4);
        expect(recordedSeconds).toBeLessThan(9);
        expect(secondsOf(await fileReplay(target, showUid))).toBeCloseTo(12, 0);
      } finally {
        await first?.close();
        await second?.close();
        await db.dispose();
      }
    });
  });

  describe.sequential('a server restart during a premiere', () => {
    it('publishes the premiere again at the current point', async () => {
      const scheduled = await premiereOnOwnApp('restart', 'Restarted premiere', 2);
      const { db, dir, showUid, startsAt } = scheduled;
      let first: TestApp | null = scheduled.first;
      let second: TestApp | null = null;
      try {
        await waitFor('the premiere live', async () =>
          (await playlist(showUid, 'live', first ?? app))?.includes('.m4s'),
        );
        await waitFor('3 s into it', () => Date.now() > startsAt + 3000);
        await first.close();
        first = null;
        expect(premiereFfmpegPids(showUid)).toEqual([]);

        const restartedAt = Date.now();
        second = await openTestApp({ db, env: env(dir) });
        const target = second;
        const resumed = await waitFor('the premiere playing again', async () => {
          const text = await playlist(showUid, 'live', target);
          const entry = text
            ? parseMediaPlaylist(text).find((candidate) => candidate.uri.startsWith('r2-'))
            : null;
          return entry ?? null;
        });
        expect((resumed.programDateTime ?? 0) - startsAt).toBeGreaterThan(3000);
        const ended = await waitFor('the premiere ended', async () => {
          const info = await premiere(showUid, target);
          return info.premiere?.state === 'ended' ? info : null;
        });
        expect(ended.premiere?.state).toBe('ended');
        const event = await showBecameReplay(target, showUid);
        const runSeconds = ((event?.liveEndTime ?? 0) - startsAt) / 1000;
        console.info(`restarted premiere of 12 s ended ${runSeconds} s after its start`);
        // Played on, not from the start again (that would end 12 s after the restart, 15+ s after
        // its start); how late a loaded machine's `-re` ffmpeg runs is no part of the claim (15.6 s
        // seen at load 10). The replay's length below is the sharper test, and does not depend on it.
        expect(runSeconds).toBeLessThan((restartedAt - startsAt) / 1000 + 12);
        // Played from where it was: the replay holds the file once, not its first seconds twice.
        expect(secondsOf((await playlist(showUid, 'replay', target)) ?? '')).toBeLessThan(14);
      } finally {
        await first?.close();
        await second?.close();
        await db.dispose();
      }
    });
  });
});

describe.concurrent('a server killed (SIGKILL) during a premiere', () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  });

  /** The premiere's server in a process of its own, on a database and recordings kept on disk. */
  function startServer(dataDir: string, setup: string[] = []) {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, '../../test-support/premiere-child-server.ts'),
        dataDir,
        ...setup,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    const ready = new Promise<{
      origin: string;
      pageUid?: string;
      showUid?: string;
      headers?: Record<string, string>;
      startsAt?: number;
    }>((resolve, reject) => {
      let text = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        const line = text.split('\n').find((candidate) => candidate.includes('"ready":true'));
        if (line && text.includes(`${line}\n`)) resolve(JSON.parse(line));
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return { child, ready, exited };
  }

  it('plays on at the current point after a restart, and the replay is the whole file', async () => {
    // Long enough that a restart on a busy machine (tens of seconds) still finds it playing.
    const seconds = 60;
    const video = join(workDir, 'crash.mp4');
    writeFileSync(video, makeVideo('crash-source.mp4', h264Video(seconds)));
    const dataDir = join(workDir, 'crash');
    const first = startServer(dataDir, [video, '3']);
    const { showUid, headers, pageUid: store, startsAt } = await first.ready;
    if (!showUid || !headers || !store || !startsAt) throw new Error('the first server set up no premiere');
    const firstOrigin = (await first.ready).origin;
    const live = (origin: string) => fetch(`${origin}/live/${showUid}/live.m3u8`);
    await waitFor('the premiere live', async () => (await (await live(firstOrigin)).text()).includes('.m4s'));
    await waitFor('6 s into the premiere', () => Date.now() > startsAt + 6000, 20_000);
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    // Down for a while: what plays meanwhile is never recorded.
    await waitFor('4 s down', () => Date.now() > killedAt + 4000, 10_000);

    const second = startServer(dataDir);
    const { origin } = await second.ready;
    const resumed = await waitFor('the premiere playing again', async () => {
      const text = await (await live(origin)).text();
      // A segment of a later run than the first server's (`r<run>-<n>.m4s`).
      return (
        parseMediaPlaylist(text).find((entry) => Number(/^r(\d+)-/.exec(entry.uri)?.[1] ?? 1) > 1) ?? null
      );
    });
    // At the current point: its first new picture is the moment it resumed, not where it was killed.
    expect((resumed.programDateTime ?? 0) - startsAt).toBeGreaterThan(killedAt + 3000 - startsAt);
    const info = (await (
      await fetch(`${origin}/staff/stores/${store}/shows/${showUid}/premiere`, { headers })
    ).json()) as PremiereInfo;
    expect(info.premiere?.state).toBe('playing');
    const wallClock = (Date.now() - startsAt) / 1000;
    console.info(`resumed: position ${info.premiere?.position} s, wall clock ${wallClock} s since the start`);
    expect(Math.abs((info.premiere?.position ?? 0) - wallClock)).toBeLessThan(1.5);
    const view = (await (
      await fetch(`${origin}/staff/stores/${store}/shows/${showUid}/stream`, { headers })
    ).json()) as LiveStreamView;
    expect(view.state).toBe('live');

    // The host ends the show now, rather than the test waiting out the file's last half minute:
    // however a premiere ends (played out, as the tests above see, or ended by its host), its
    // replay is the whole file.
    const ended = await fetch(`${origin}/staff/stores/${store}/shows/${showUid}/stream/end`, {
      method: 'POST',
      headers,
    });
    expect(ended.status).toBe(200);
    // The recording has the hole of the crash; the replay viewers get is the whole file.
    const replayUrl = `${origin}${premiereReplayPath(showUid)}`;
    await waitFor('the whole file as the replay', async () => (await fetch(replayUrl)).ok);
    const recorded = secondsOf(await (await fetch(`${origin}/live/${showUid}/replay.m3u8`)).text());
    const probed = probedSeconds(replayUrl);
    console.info(`premiere of ${seconds} s killed 6 s in: recording ${recorded} s, replay ${probed} s`);
    expect(recorded).toBeLessThan(seconds - 3);
    expect(Math.abs(probed - seconds)).toBeLessThan(0.5);
    second.child.kill('SIGTERM');
    await second.exited;
  });
});
