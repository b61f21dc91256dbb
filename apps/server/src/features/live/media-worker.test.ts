import type { LiveStreamView } from '@vitrine/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test-support/live-publisher.ts';
import { liveTestApp } from '../../test-support/live-test-app.ts';
import { isAlive, packagerPids, pidsMatching } from '../../test-support/processes.ts';

/**
 * Live video in the media worker (LIVE_MEDIA=child, issue 29 item 1): the web server starts the
 * worker as its child; publishers reach the worker's RTMP ingest; the web server decides every
 * state and serves viewers through the media channel. Killed hard, the worker takes no ffmpeg
 * with it into the void and checkout never notices; the web server starts a new one, which takes
 * the publisher back into the same recording.
 */
const { app, host, pageUid, newShow, publishRtmp } = liveTestApp('vitrine-media-worker-', {
  LIVE_MEDIA: 'child',
  RTMP_PORT: '0',
  LIVE_RECONNECT_GRACE_MS: '120000',
  LOG_LEVEL: 'warn',
});

async function call(showUid: string, method: 'GET' | 'POST', suffix = '') {
  const response = await app().server.inject({
    method,
    url: `/staff/stores/${pageUid()}/shows/${showUid}/stream${suffix}`,
    headers: host().headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as LiveStreamView;
}

const get = (url: string) => app().server.inject({ method: 'GET', url });

/** This test process's media worker (its child running media.ts). */
const workerPids = () => pidsMatching('src/media\\.ts', process.pid);

const replaySegments = async (showUid: string) =>
  (await get(`/live/${showUid}/replay.m3u8`)).body.split('\n').filter((line) => line.endsWith('.m4s'));

beforeAll(async () => {
  await app().services.live.mediaReady();
});

describe('live video in a child media worker', () => {
  it('runs a show: the worker ingests, the web server decides and serves viewers, End writes the replay', async () => {
    expect(workerPids()).toHaveLength(1);
    // The web server itself listens for no publisher: the worker's port is the one offered.
    const showUid = await newShow('In the worker');
    const { streamKey, previewUrl, rtmpUrl } = await call(showUid, 'GET');
    expect(rtmpUrl).toMatch(/^rtmp:\/\/.+:\d+\/live$/);
    publishRtmp(streamKey);
    await waitFor('the preview through the web server', async () =>
      (await get(previewUrl)).body.includes('.m4s'),
    );
    expect((await call(showUid, 'GET')).state).toBe('receiving');
    // Viewers get nothing before Go live, not even by guessing a segment's name.
    expect((await get(`/live/${showUid}/live.m3u8`)).statusCode).toBe(404);
    const health = await waitFor(
      'the health the worker measures',
      async () => (await call(showUid, 'GET')).health,
    );
    expect(health.protocol).toBe('rtmp');

    await call(showUid, 'POST', '/go-live');
    const segments = await waitFor('live segments', async () => {
      const live = await get(`/live/${showUid}/live.m3u8`);
      const names = live.body.split('\n').filter((line) => line.endsWith('.m4s'));
      return live.statusCode === 200 && names.length >= 2 ? names : null;
    });
    const segment = await get(`/live/${showUid}/${segments[0]}`);
    expect(segment.statusCode).toBe(200);
    expect(segment.rawPayload.subarray(4, 8).toString('latin1')).toMatch(/styp|moof/);

    const ended = await call(showUid, 'POST', '/end');
    expect(ended.state).toBe('ended');
    const replay = await get(`/live/${showUid}/replay.m3u8`);
    expect(replay.body).toContain('#EXT-X-ENDLIST');
    const [event] = await app().services.events.eventsByIds([showUid]);
    expect(event?.event.currentStatus).toBe('vod');
  });

  it('is killed with SIGKILL mid-show: checkout goes on, no ffmpeg is left, a new worker takes the publisher back into the same recording', async () => {
    const showUid = await newShow('Worker killed');
    const { streamKey, previewUrl } = await call(showUid, 'GET');
    const first = publishRtmp(streamKey);
    await waitFor('the preview', async () => (await get(previewUrl)).body.includes('.m4s'));
    await call(showUid, 'POST', '/go-live');
    await waitFor('two recorded segments', async () => (await replaySegments(showUid)).length >= 2);
    const packagers = packagerPids(showUid);
    expect(packagers.length).toBeGreaterThan(0);
    const [worker] = workerPids();
    if (!worker) throw new Error('no media worker');

    process.kill(worker, 'SIGKILL');
    first.kill('SIGKILL');
    // Checkout and the shop do not depend on video: they answer while no worker runs.
    expect((await get('/healthz')).statusCode).toBe(200);
    const shows = await app().server.inject({
      method: 'GET',
      url: `/staff/stores/${pageUid()}/shows`,
      headers: host().headers,
    });
    expect(shows.statusCode).toBe(200);
    // The packagers die with their worker (parent-death signal): none is left under PID 1.
    await waitFor('the packagers gone', async () => packagers.every((pid) => !isAlive(pid)));

    const [next] = await waitFor('a new worker', async () => {
      const found = workerPids().filter((pid) => pid !== worker);
      return found.length === 1 && app().services.live.mediaReachable() ? found : null;
    });
    expect(next).not.toBe(worker);
    // The new worker holds no publisher: the web server moved the show to wait for its encoder.
    await waitFor('reconnecting', async () => (await call(showUid, 'GET')).state === 'reconnecting');
    const before = await replaySegments(showUid);

    publishRtmp(streamKey);
    await waitFor('live again', async () => (await call(showUid, 'GET')).state === 'live');
    // What the killed worker recorded is still served, by the new one, from the recording.
    expect(before.length).toBeGreaterThanOrEqual(2);
    const firstRun = before[0]?.split('-')[0];
    const after = await waitFor('segments of the second run', async () => {
      const names = await replaySegments(showUid);
      return names.filter((name) => !name.startsWith(`${firstRun}-`)).length >= 2 ? names : null;
    });
    // The same recording: what was recorded before the kill is still its beginning.
    expect(after.slice(0, before.length)).toEqual(before);
    expect((await get(`/live/${showUid}/replay.m3u8`)).body).toContain('#EXT-X-DISCONTINUITY');
    const ended = await call(showUid, 'POST', '/end');
    expect(ended.state).toBe('ended');
    expect((await get(`/live/${showUid}/replay.m3u8`)).body).toContain('#EXT-X-ENDLIST');
  });

  it('refuses the media channel without its token', async () => {
    const worker = app().services.live.mediaWorker();
    if (!worker) throw new Error('no media worker');
    for (const path of ['/media/events', '/media/read/x/live.m3u8']) {
      const response = await fetch(`${worker.url}${path}`, { headers: { 'x-vitrine-media-token': 'wrong' } });
      expect(response.status).toBe(401);
    }
    const command = await fetch(`${worker.url}/media/command`, {
      method: 'POST',
      headers: { ...worker.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'end', eventId: '../etc' }),
    });
    expect(command.status).toBe(400);
    expect(((await command.json()) as { error: string }).error).toBe('bad_command');
  });
});
