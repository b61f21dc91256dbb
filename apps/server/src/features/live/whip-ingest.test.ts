import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import type { LiveStreamView } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../test-support/live-publisher.ts';
import { liveTestApp } from '../../test-support/live-test-app.ts';
import { publishOverWhip, type WhipTestPublisher } from '../../test-support/whip-test-publisher.ts';

// A real libwebrtc publisher (@roamhq/wrtc, the engine inside Chrome) publishes over WHIP into
// the real app: werift answers, ffmpeg packages, the live routes serve the HLS.

const { app, host, pageUid, newShow } = liveTestApp('vitrine-whip-', {
  RTMP_PORT: 'off',
  LIVE_RECONNECT_GRACE_MS: '20000',
});
let origin: string;
let whipUrl: string;
const publishers: WhipTestPublisher[] = [];

async function call<T>(method: 'GET' | 'POST', url: string) {
  const response = await app().server.inject({ method, url, headers: host().headers });
  return { status: response.statusCode, body: response.json() as T };
}

const streamPath = (showUid: string) => `/staff/stores/${pageUid()}/shows/${showUid}/stream`;
const stream = async (showUid: string) => (await call<LiveStreamView>('GET', streamPath(showUid))).body;
const segmentsOf = (playlist: string) => playlist.split('\n').filter((line) => line.includes('.m4s'));
const publish = async (options: Parameters<typeof publishOverWhip>[0]) => {
  const publisher = await publishOverWhip(options);
  publishers.push(publisher);
  return publisher;
};

beforeAll(async () => {
  origin = await app().server.listen({ host: '127.0.0.1', port: 0 });
  whipUrl = `${origin}/whip`;
});

afterAll(() => {
  for (const publisher of publishers) publisher.stop();
});

describe('a show published over WHIP', () => {
  let showUid: string;
  let view: LiveStreamView;
  let publisher: WhipTestPublisher;

  it('offers the WHIP URL in the studio', async () => {
    showUid = await newShow('WHIP show');
    view = await stream(showUid);
    expect(view.whipUrl).toMatch(/\/whip$/);
    expect(view.state).toBe('idle');
  });

  it('receives a libwebrtc publisher: the preview playlist has PDT within 5 s', async () => {
    publisher = await publish({ url: whipUrl, key: view.streamKey });
    expect(publisher.status, publisher.body).toBe(201);
    expect(publisher.location).toMatch(/^\/whip\/sessions\/[\w-]{22}$/);
    const started = Date.now();
    await publisher.connected();
    const playlist = await waitFor(
      'the preview playlist',
      async () => {
        const answer = await app().server.inject({ method: 'GET', url: view.previewUrl });
        return answer.statusCode === 200 && segmentsOf(answer.body).length > 0 ? answer.body : null;
      },
      15_000,
    );
    const elapsed = Date.now() - started;
    console.info(`whip: first segment listed ${elapsed} ms after the peer connected`);
    expect(playlist).toContain('#EXT-X-PROGRAM-DATE-TIME:');
    // The goal is 5 s from a connected publisher; the bound leaves room for a loaded machine.
    expect(elapsed).toBeLessThan(10_000);
    expect((await stream(showUid)).state).toBe('receiving');
    const health = await waitFor('health figures', async () => {
      const current = (await stream(showUid)).health;
      return current?.framesPerSecond ? current : null;
    });
    expect(health.protocol).toBe('whip');
    // libwebrtc as built into @roamhq/wrtc has no H.264 encoder (no OpenH264): it offers VP8,
    // which the packager transcodes; Chrome and OBS offer H.264, which is passed through.
    expect(health.videoPassthrough).toBe(false);
  });

  it('refuses a second publisher (409) and a wrong or missing key (401)', async () => {
    const second = await publish({ url: whipUrl, key: view.streamKey });
    expect(second.status).toBe(409);
    expect(JSON.parse(second.body)).toMatchObject({ error: 'busy' });
    const wrong = await publish({ url: whipUrl, key: 'live_not-a-key' });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body)).toMatchObject({ error: 'unknown_key' });
    const missing = await publish({ url: whipUrl, key: null });
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body)).toMatchObject({ error: 'missing_key' });
    expect((await stream(showUid)).state).toBe('receiving');
  });

  it('shrugs off garbage sent to its media ports: the stream goes on', async () => {
    // The answer names the UDP ports werift listens on; anyone on the network can reach them.
    const ports = [...publisher.body.matchAll(/^a=candidate:\S+ \d+ udp \d+ \S+ (\d+) typ host()/gim)].map(
      (match) => Number(match[1]),
    );
    expect(ports.length).toBeGreaterThan(0);
    const socket = createSocket('udp4');
    for (let i = 0; i < 2000; i += 1) {
      const junk = randomBytes(1 + (i % 1400));
      // Some look like STUN, DTLS and RTP/RTCP (their first bytes), the rest is noise.
      junk[0] = [0x00, 0x01, 0x16, 0x17, 0x80, 0x81, 0xff][i % 7] ?? 0;
      await new Promise<void>((resolve) =>
        socket.send(junk, ports[i % ports.length], '127.0.0.1', () => resolve()),
      );
    }
    socket.close();
    // Segments written so far: the window's first sequence number plus its length.
    const count = async () => {
      const playlist = (await app().server.inject({ method: 'GET', url: view.previewUrl })).body;
      return Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1] ?? 0) + segmentsOf(playlist).length;
    };
    const before = await count();
    await waitFor('two more segments', async () => (await count()) >= before + 2, 15_000);
    expect((await stream(showUid)).state).toBe('receiving');
  });

  it('DELETE ends the publish; a new publish within the grace continues the same live show', async () => {
    expect((await call<LiveStreamView>('POST', `${streamPath(showUid)}/go-live`)).body.state).toBe('live');
    const ended = await fetch(new URL(publisher.location ?? '', origin), { method: 'DELETE' });
    expect(ended.status).toBe(200);
    publisher.stop();
    await waitFor('reconnecting', async () => (await stream(showUid)).state === 'reconnecting');
    expect((await fetch(new URL(publisher.location ?? '', origin), { method: 'DELETE' })).status).toBe(404);

    const again = await publish({ url: whipUrl, key: view.streamKey });
    expect(again.status, again.body).toBe(201);
    await waitFor('live again', async () => (await stream(showUid)).state === 'live');
    // The same show's recording continues with the new publish.
    await waitFor('replay segments', async () => {
      const replay = (await app().server.inject({ method: 'GET', url: view.replayUrl })).body;
      return segmentsOf(replay).length > 0;
    });
    expect((await call<LiveStreamView>('POST', `${streamPath(showUid)}/end`)).body.state).toBe('ended');
    // The ended show takes no publisher.
    const late = await publish({ url: whipUrl, key: view.streamKey });
    expect(late.status).toBe(409);
    expect(JSON.parse(late.body)).toMatchObject({ error: 'ended' });
  });
});

describe('a WHIP publisher that vanishes without DELETE', () => {
  it('is counted gone when its media stops: the show returns to idle and takes a new publisher', async () => {
    const showUid = await newShow('Vanishing');
    const { streamKey } = await stream(showUid);
    const first = await publish({ url: whipUrl, key: streamKey });
    expect(first.status).toBe(201);
    await first.connected();
    await waitFor('receiving', async () => (await stream(showUid)).health?.framesPerSecond);
    // The encoder process dies: no DELETE, no RTCP BYE from it, just silence.
    first.stop();
    const silent = Date.now();
    await waitFor('idle', async () => (await stream(showUid)).state === 'idle', 20_000);
    // WHIP_MEDIA_TIMEOUT_MS (5 s) after the media stopped, not ICE's ~30 s.
    expect(Date.now() - silent).toBeLessThan(12_000);
    const next = await publish({ url: whipUrl, key: streamKey });
    expect(next.status, next.body).toBe(201);
    await waitFor('receiving again', async () => (await stream(showUid)).state === 'receiving');
    next.stop();
  });
});

describe('bad WHIP input', () => {
  let key: string;
  let showUid: string;
  beforeAll(async () => {
    showUid = await newShow('Bad input');
    key = (await stream(showUid)).streamKey;
  });
  const post = (body: string | Uint8Array, type = 'application/sdp') =>
    fetch(whipUrl, {
      method: 'POST',
      headers: { 'content-type': type, authorization: `Bearer ${key}` },
      body,
    });

  it('refuses an offer without video with a clear message', async () => {
    const audioOnly = await publish({ url: whipUrl, key, video: false });
    expect(audioOnly.status).toBe(400);
    expect(JSON.parse(audioOnly.body)).toMatchObject({
      error: 'no_video',
      message: expect.stringMatching(/no video/),
    });
  });

  it('refuses garbage, an SDP it cannot negotiate, a non-SDP body and an oversized body; the show stays idle', async () => {
    const garbage = await post(new Uint8Array([0, 255, 13, 10, 1, 2, 3]));
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ error: 'bad_offer' });
    // Looks like SDP, but nothing WebRTC can negotiate (no ICE credentials, no DTLS fingerprint).
    const broken = await post(
      'v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=rtpmap:96 H264/90000\r\n',
    );
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ error: 'bad_offer' });
    expect((await post('{"sdp":"v=0"}', 'application/json')).status).toBe(415);
    const text = await post('v=0', 'text/plain');
    expect(text.status).toBe(415);
    expect(await text.json()).toMatchObject({ error: 'unsupported_media_type' });
    expect((await post(`v=0\r\n${'a=x\r\n'.repeat(20_000)}`)).status).toBe(413);
    await waitFor('the show idle again', async () => (await stream(showUid)).state === 'idle');
  });

  it('answers PATCH (trickle ICE) with 405 and a CORS preflight with 204', async () => {
    const patch = await fetch(`${whipUrl}/sessions/whatever`, { method: 'PATCH' });
    expect(patch.status).toBe(405);
    const preflight = await fetch(whipUrl, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(preflight.headers.get('access-control-expose-headers')).toContain('location');
    expect(preflight.headers.get('accept-post')).toBe('application/sdp');
  });
});
