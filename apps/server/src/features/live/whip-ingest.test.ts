import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishOverWhip } from '../../test-support/whip-test-publisher.ts';
import type { BeginPublish } from './publish-session.ts';
import { registerWhipRoutes } from './whip-routes.ts';

// A real libwebrtc publisher (@roamhq/wrtc) publishes over WHIP into a real ffmpeg writing HLS.
// The target stands in for the show pipeline: one key, one publisher at a time.

const KEY = 'test-stream-key-0001';
let app: FastifyInstance;
let url: string;
let workDir: string;
const running = new Map<string, ChildProcess>();
/** The video codec of each publish begun: libwebrtc should send H.264 when the answer asks for it. */
const codecs: string[] = [];

/** Stands in for the live service's `beginPublish`: one show, one publisher, ffmpeg → HLS. */
const beginPublish: BeginPublish = async (request) => {
  const key = request.streamKey;
  if (key !== KEY) return { ok: false, reason: 'unknown-key', message: 'Unknown stream key.' };
  if (running.has(key)) return { ok: false, reason: 'already-publishing', message: 'Someone is publishing.' };
  const input = request.input.open();
  const ffmpeg = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', ...input.args],
      ...(request.input.videoCodec === 'h264'
        ? ['-c:v', 'copy']
        : ['-c:v', 'libx264', '-preset', 'veryfast', '-g', '30']),
      ...['-c:a', 'aac', '-f', 'hls', '-hls_time', '1', '-hls_segment_type', 'fmp4'],
      ...['-hls_flags', 'program_date_time+independent_segments', join(workDir, 'index.m3u8')],
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  running.set(key, ffmpeg);
  codecs.push(request.input.videoCodec);
  return {
    ok: true,
    session: {
      eventId: 'event-1',
      end() {
        if (running.get(key) !== ffmpeg) return;
        running.delete(key);
        ffmpeg.kill('SIGKILL');
      },
      onEnded() {},
    },
  };
};

async function waitFor<T>(read: () => T | null | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'vitrine-whip-'));
  app = Fastify();
  registerWhipRoutes(app, { beginPublish, extraHostAddresses: ['127.0.0.1'] });
  url = `${await app.listen({ host: '127.0.0.1', port: 0 })}/whip`;
});

afterAll(async () => {
  await app.close();
  for (const ffmpeg of running.values()) ffmpeg.kill('SIGKILL');
  rmSync(workDir, { recursive: true, force: true });
});

describe('WHIP ingest', () => {
  it('publishes a libwebrtc stream into HLS with program date-times; refuses a second publisher; DELETE ends it', async () => {
    const publisher = await publishOverWhip({ url, key: KEY });
    expect(publisher.status, publisher.body).toBe(201);
    expect(publisher.location).toMatch(/^\/whip\/sessions\/[\w-]{22}$/);
    const started = Date.now();
    await publisher.connected();
    const playlist = await waitFor(() => {
      const path = join(workDir, 'index.m3u8');
      const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
      return text.includes('#EXT-X-PROGRAM-DATE-TIME') ? text : null;
    }, 5000);
    expect(playlist).toContain('#EXT-X-MAP');
    // libwebrtc as built into @roamhq/wrtc has no H.264 encoder (no OpenH264): it offers VP8 and
    // the packager transcodes; Chrome and OBS offer H.264, which is copied.
    expect(codecs).toEqual(['vp8']);
    console.info(`whip: first playlist with PDT ${Date.now() - started} ms after connecting`);

    const second = await publishOverWhip({ url, key: KEY });
    expect(second.status).toBe(409);
    expect(JSON.parse(second.body)).toMatchObject({ error: 'busy' });

    const ended = await fetch(new URL(publisher.location ?? '', url), { method: 'DELETE' });
    expect(ended.status).toBe(200);
    expect(running.has(KEY)).toBe(false);
    publisher.stop();
    const again = await fetch(new URL(publisher.location ?? '', url), { method: 'DELETE' });
    expect(again.status).toBe(404);
  }, 30_000);

  it('refuses a wrong or missing key with 401 before any WebRTC work', async () => {
    const wrong = await publishOverWhip({ url, key: 'not-the-key' });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.body)).toMatchObject({ error: 'unknown_key' });
    const missing = await publishOverWhip({ url, key: null });
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.body)).toMatchObject({ error: 'missing_key' });
  }, 20_000);

  it('refuses an offer without video, garbage and a non-SDP body with 400/415, and PATCH with 405', async () => {
    const audioOnly = await publishOverWhip({ url, key: KEY, video: false });
    expect(audioOnly.status).toBe(400);
    expect(JSON.parse(audioOnly.body)).toMatchObject({ error: 'no_video' });

    const post = (body: string | Uint8Array, type = 'application/sdp') =>
      fetch(url, { method: 'POST', headers: { 'content-type': type, authorization: `Bearer ${KEY}` }, body });
    const garbage = await post(new Uint8Array([0, 255, 13, 10, 1, 2, 3]));
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toMatchObject({ error: 'bad_offer' });
    // Looks like SDP, but nothing WebRTC can negotiate (no ICE, no DTLS fingerprint).
    const broken = await post(
      'v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=rtpmap:96 H264/90000\r\n',
    );
    expect(broken.status).toBe(400);
    const json = await post('{"sdp":"v=0"}', 'application/json');
    expect(json.status).toBe(400);
    const huge = await post(`v=0\r\n${'a=x\r\n'.repeat(20_000)}`);
    expect(huge.status).toBe(413);

    const patch = await fetch(`${url}/sessions/whatever`, { method: 'PATCH' });
    expect(patch.status).toBe(405);
    const preflight = await fetch(url, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
    expect(preflight.headers.get('access-control-expose-headers')).toContain('location');

    // The server is still serving after all that.
    const after = await publishOverWhip({ url, key: 'still-wrong' });
    expect(after.status).toBe(401);
  }, 20_000);
});
