import { createConnection } from 'node:net';
import { timeInVideo } from '@vitrine/domain';
import type { LiveStreamView } from '@vitrine/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test-support/live-publisher.ts';
import { liveTestApp } from '../../test-support/live-test-app.ts';
import { createTestStore, signInStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';

const { app, host, pageUid, get, rtmpPort, newShow, publishRtmp } = liveTestApp('vitrine-live-', {
  RTMP_PORT: '0',
  LIVE_RECONNECT_GRACE_MS: '4000',
});

async function send<T>(method: 'GET' | 'POST', url: string, who: TestStaffMember | null = host()) {
  const response = await app().server.inject({ method, url, headers: who?.headers ?? {} });
  return { status: response.statusCode, body: response.json() as T, headers: response.headers };
}

const streamPath = (showUid: string) => `/staff/stores/${pageUid()}/shows/${showUid}/stream`;
const stream = async (showUid: string) => (await send<LiveStreamView>('GET', streamPath(showUid))).body;
const segmentsOf = (playlist: string) => playlist.split('\n').filter((line) => line.includes('.m4s'));

beforeAll(() => {
  expect(rtmpPort()).toBeGreaterThan(0);
});

describe('a show streamed over RTMP', () => {
  let showUid: string;
  let view: LiveStreamView;
  /** A moment the host stamped during the show (a product held up), on the wall clock. */
  let stamped = 0;

  it('has a stream key and the OBS settings', async () => {
    showUid = await newShow('RTMP show');
    view = await stream(showUid);
    expect(view.state).toBe('idle');
    expect(view.streamKey).toMatch(/^live_[A-Za-z0-9_-]{32}$/);
    expect(view.rtmpUrl).toBe(`rtmp://localhost:${rtmpPort()}/live`);
    expect(view.packager.available).toBe(true);
    expect(view.health).toBeNull();
    expect(view.disk.freeBytes).toBeGreaterThan(0);
  });

  it('receives a publisher: the preview has a playlist with PDT within 5 s, viewers get nothing yet', async () => {
    const started = Date.now();
    publishRtmp(view.streamKey);
    const playlist = await waitFor(
      'the preview playlist',
      async () => {
        const answer = await get(view.previewUrl);
        return answer.status === 200 && segmentsOf(answer.text).length > 0 ? answer : null;
      },
      15_000,
    );
    // The goal is 5 s; the bound leaves room for a loaded machine.
    console.info(`first segment listed after ${Date.now() - started} ms`);
    expect(playlist.text).toContain('#EXT-X-PROGRAM-DATE-TIME:');
    expect(playlist.text).toMatch(/#EXT-X-MAP:URI="r1-init\.mp4"/);
    // The studio's preview is for the studio alone: no shared cache keeps it.
    expect(playlist.headers['cache-control']).toBe('private, no-cache');
    expect((await stream(showUid)).state).toBe('receiving');
    expect((await get(view.liveUrl)).status).toBe(404);

    const [first = ''] = segmentsOf(playlist.text);
    expect(first).toMatch(/^r1-00000\.m4s\?preview=/);
    const segment = await get(`/live/${showUid}/${first}`);
    expect(segment.status).toBe(200);
    // Without the studio's token the preview's segments are not served (viewers wait for Go live).
    expect((await get(`/live/${showUid}/r1-00000.m4s`)).status).toBe(404);
    const refused = await get(`/live/${showUid}/r1-00000.m4s?preview=guess`);
    expect(refused.status).toBe(404);
    // A miss is kept a second at most: what appears later is seen at once.
    expect(refused.headers['cache-control']).toBe('public, max-age=1, s-maxage=1');
    expect(segment.headers['cache-control']).toBe('private, no-cache');
    expect(segment.raw.subarray(4, 8).toString('latin1')).toMatch(/styp|moof/);
    const init = await get(`/live/${showUid}/r1-init.mp4`);
    expect(init.raw.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('reports the health of the incoming stream', async () => {
    const health = await waitFor('health figures', async () => {
      const current = (await stream(showUid)).health;
      return current?.bitrateKbps && current.framesPerSecond ? current : null;
    });
    expect(health.protocol).toBe('rtmp');
    expect(health.videoPassthrough).toBe(true);
    expect(health.keyframeIntervalSeconds).toBeGreaterThan(0.5);
    expect(health.keyframeIntervalSeconds).toBeLessThan(2.5);
  });

  it('refuses a wrong key and a second publisher at the protocol level', async () => {
    const wrong = publishRtmp('live_not-a-key');
    expect(await wrong.stopped).not.toBe(0);
    const second = publishRtmp(view.streamKey);
    expect(await second.stopped).not.toBe(0);
    expect((await stream(showUid)).state).toBe('receiving');
  });

  it('goes live: the event is live for viewers with the LL-HLS playlist, the regular one beside it', async () => {
    const live = await send<LiveStreamView>('POST', `${streamPath(showUid)}/go-live`);
    expect(live.status).toBe(200);
    expect(live.body.state).toBe('live');
    expect(live.body.liveStartTime).toBeGreaterThan(0);
    const [event] = await app().services.events.eventsByIds([showUid]);
    expect(event?.event.currentStatus).toBe('live');
    expect(event?.event.cdnMp4VideoUrl).toBe(`/live/${showUid}/ll.m3u8`);
    expect(event?.event.liveStartTime).toBe(live.body.liveStartTime);
    expect((await get(view.lowLatencyUrl)).status).toBe(200);
    expect((await get(view.liveUrl)).status).toBe(200);
    // What was previewed before Go live stays private; what follows is public.
    expect((await get(`/live/${showUid}/r1-00000.m4s`)).status).toBe(404);
    await waitFor('a replay segment', async () => segmentsOf((await get(view.replayUrl)).text).length >= 2);
    stamped = Date.now();
    await waitFor(
      'segments after the stamp',
      async () => segmentsOf((await get(view.replayUrl)).text).length >= 5,
    );
  });

  it('ends: the replay is a complete VOD playlist within 10 s, and the event is vod', async () => {
    const started = Date.now();
    const ended = await send<LiveStreamView>('POST', `${streamPath(showUid)}/end`);
    expect(ended.status).toBe(200);
    expect(ended.body.state).toBe('ended');
    const replay = await get(view.replayUrl);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(replay.text).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(replay.text.trim().endsWith('#EXT-X-ENDLIST')).toBe(true);
    // Final: a CDN keeps it a day, the players an hour.
    expect(replay.headers['cache-control']).toBe('public, max-age=3600, s-maxage=86400');
    for (const uri of segmentsOf(replay.text))
      expect((await get(`/live/${showUid}/${uri}`)).status).toBe(200);
    expect((await get(`/live/${showUid}/${segmentsOf(replay.text)[0]}`)).status).toBe(200);
    const firstPdt = Date.parse(/#EXT-X-PROGRAM-DATE-TIME:(\S+)/.exec(replay.text)?.[1] ?? '');
    const [event] = await app().services.events.eventsByIds([showUid]);
    expect(event?.event.currentStatus).toBe('vod');
    expect(event?.event.cdnMp4VideoUrl).toBe(`/live/${showUid}/replay.m3u8`);
    expect(event?.event.cdnVideoStartTime).toBe(firstPdt);
    expect(event?.event.liveEndTime).toBe(ended.body.liveEndTime);
    // The recording is the replay, on the same clock: the stamp lands where the replay's own
    // program date times put it (to the millisecond, as the replay's segments are contiguous).
    let offset = 0;
    let stampOffset: number | null = null;
    for (const [, pdt, duration] of replay.text.matchAll(
      /#EXT-X-PROGRAM-DATE-TIME:(\S+)\n#EXTINF:([\d.]+),/g,
    )) {
      const start = Date.parse(pdt ?? '');
      if (stampOffset === null && stamped < start + Number(duration) * 1000)
        stampOffset = offset + (stamped - start) / 1000;
      offset += Number(duration);
    }
    expect(stampOffset).not.toBeNull();
    if (event) expect(timeInVideo(stamped, event)).toBeCloseTo(stampOffset ?? 0, 1);
    // The encoder was disconnected, and the ended show takes no publisher.
    expect((await get(view.liveUrl)).text).toContain('#EXT-X-ENDLIST');
    expect(await publishRtmp(view.streamKey).stopped).not.toBe(0);
  });
});

describe('the studio calls', () => {
  it('rotate the key: the old one is refused at once', async () => {
    const showUid = await newShow('Rotated');
    const before = await stream(showUid);
    const rotated = await send<LiveStreamView>('POST', `${streamPath(showUid)}/key`);
    expect(rotated.body.streamKey).not.toBe(before.streamKey);
    expect(await publishRtmp(before.streamKey).stopped).not.toBe(0);
    expect((await stream(showUid)).state).toBe('idle');
  });

  it('refuse Go live without a stream and End before live, with a clear message', async () => {
    const showUid = await newShow('Not yet');
    const goLive = await send<{ message: string }>('POST', `${streamPath(showUid)}/go-live`);
    expect(goLive.status).toBe(409);
    expect(goLive.body.message).toMatch(/No stream is arriving/);
    expect((await send('POST', `${streamPath(showUid)}/end`)).status).toBe(409);
  });

  it("answer 404 for another store's show and refuse viewers", async () => {
    const other = await createTestStore(app());
    const otherHost = await signInStaff(app(), other, 'host');
    const showUid = await newShow('Mine');
    const response = await app().server.inject({
      method: 'GET',
      url: `/staff/stores/${other}/shows/${showUid}/stream`,
      headers: otherHost.headers,
    });
    expect(response.statusCode).toBe(404);
    expect((await send('GET', streamPath(showUid), null)).status).toBe(401);
  });

  it('serve no file outside a recording', async () => {
    for (const path of [
      '/live/x/..%2F..%2Fetc%2Fpasswd',
      '/live/x/segments.ndjson',
      '/live/..%2Fx/live.m3u8',
    ]) {
      expect((await get(path)).status).toBe(404);
    }
  });
});

describe('the RTMP port', () => {
  it('closes a connection sending garbage, and keeps serving', async () => {
    const garbage = createConnection(rtmpPort(), '127.0.0.1');
    await new Promise((resolve) => garbage.once('connect', resolve));
    garbage.on('error', () => {});
    garbage.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    garbage.write(Buffer.alloc(5000, 0xff));
    await new Promise((resolve) => garbage.once('close', resolve));
    const showUid = await newShow('After garbage');
    expect((await stream(showUid)).state).toBe('idle');
  });
});
