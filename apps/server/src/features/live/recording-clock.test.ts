import type { LiveStreamView } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishClockStampedStream, readClockStamps } from '../../test-support/clock-stamp.ts';
import { waitFor } from '../../test-support/live-publisher.ts';
import { liveTestApp } from '../../test-support/live-test-app.ts';
import { publishOverWhip, type WhipTestPublisher } from '../../test-support/whip-test-publisher.ts';

// The recording clock: a segment's EXT-X-PROGRAM-DATE-TIME must be the moment its first frame
// was made. The encoders burn their wall clock into every frame (clock-stamp.ts); each segment's
// frames are decoded and their stamps compared with the segment's PDT. Everything stamped on the
// stream clock (cues, the viewers' delay) is only as right as this.

/**
 * How far a PDT may be from the burnt-in moment: the encoder's own encode and send time, which
 * the ingest cannot see, plus a loaded machine's scheduling. ffmpeg's clock (the packager's wall
 * clock when it writes, main before the ingest clock) was over a second late.
 */
const PDT_ERROR_BOUND_MS = 250;
/** Segments checked per publish (the first ones too: they carry the startup delays). */
const SEGMENTS_CHECKED = 4;

const { app, host, pageUid, rtmpPort, newShow } = liveTestApp('vitrine-clock-', {
  RTMP_PORT: '0',
  LIVE_RECONNECT_GRACE_MS: '30000',
});
const stops: (() => void)[] = [];

async function stream(showUid: string): Promise<LiveStreamView> {
  const response = await app().server.inject({
    method: 'GET',
    url: `/staff/stores/${pageUid()}/shows/${showUid}/stream`,
    headers: host().headers,
  });
  return response.json() as LiveStreamView;
}

/** The preview playlist's segments of run `run`, with their PDT and init segment. */
function runSegments(playlist: string, run: number) {
  const found: { uri: string; init: string; pdt: number }[] = [];
  let init = '';
  let pdt = Number.NaN;
  for (const line of playlist.split('\n')) {
    const map = /^#EXT-X-MAP:URI="([^"]+)"/.exec(line);
    if (map?.[1]) init = map[1];
    if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) pdt = Date.parse(line.slice(25));
    if (line.startsWith(`r${run}-`) && line.includes('.m4s')) found.push({ uri: line, init, pdt });
  }
  return found;
}

async function bytes(showUid: string, uri: string): Promise<Buffer> {
  const response = await app().server.inject({ method: 'GET', url: `/live/${showUid}/${uri}` });
  expect(response.statusCode, uri).toBe(200);
  return response.rawPayload;
}

/** Waits for `SEGMENTS_CHECKED` segments of run `run` and answers each one's PDT − burnt-in moment. */
async function pdtErrors(showUid: string, run: number, base: number, size = { width: 320, height: 240 }) {
  const view = await stream(showUid);
  const segments = await waitFor(
    `${SEGMENTS_CHECKED} segments of run ${run}`,
    async () => {
      const answer = await app().server.inject({ method: 'GET', url: view.previewUrl });
      const listed = answer.statusCode === 200 ? runSegments(answer.body, run) : [];
      return listed.length >= SEGMENTS_CHECKED ? listed.slice(0, SEGMENTS_CHECKED) : null;
    },
    20_000,
  );
  const errors: number[] = [];
  for (const segment of segments) {
    const frames = await readClockStamps(
      await bytes(showUid, segment.init),
      await bytes(showUid, segment.uri),
      base,
      size,
    );
    expect(frames.length, `clock-stamped frames in ${segment.uri}`).toBeGreaterThan(0);
    // Each frame's moment on the PDT's clock, less the moment burnt into its picture. A picture
    // the transcoder repeated while the publisher stalled was made earlier than the moment its
    // frame stands for, and only ever adds to this (a segment began on one at load 9: 611 ms);
    // the frames made fresh give the PDT's own error. So the smallest one is the segment's: a PDT
    // late by any amount is late in every frame, and an early one is earlier still in the fresh ones.
    errors.push(Math.min(...frames.map((frame) => segment.pdt + frame.afterFirstMs - frame.madeMs)));
  }
  return errors;
}

beforeAll(async () => {
  await app().server.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(() => {
  for (const stop of stops) stop();
});

describe('the recording clock', () => {
  it('stamps RTMP segments with the moment their first frame was made, and again after a reconnect', async () => {
    const showUid = await newShow('Clock over RTMP');
    const { streamKey } = await stream(showUid);
    const base = Date.now();
    const url = `rtmp://127.0.0.1:${rtmpPort()}/live/${streamKey}`;
    const first = publishClockStampedStream(url, base);
    stops.push(() => first.kill('SIGKILL'));
    const errors = await pdtErrors(showUid, 1, base);
    console.info(`rtmp: PDT − burnt-in moment per segment: ${errors.join(', ')} ms`);
    for (const error of errors) expect(Math.abs(error)).toBeLessThanOrEqual(PDT_ERROR_BOUND_MS);

    // The encoder drops and comes back: a new connection, timestamps from 0 again, the same show.
    first.kill('SIGKILL');
    // Not live yet, so the show goes back to idle and waits for its encoder.
    await waitFor('the publisher gone', async () => (await stream(showUid)).state === 'idle');
    const second = publishClockStampedStream(url, base);
    stops.push(() => second.kill('SIGKILL'));
    const after = await pdtErrors(showUid, 2, base);
    console.info(`rtmp after a reconnect: PDT − burnt-in moment per segment: ${after.join(', ')} ms`);
    for (const error of after) expect(Math.abs(error)).toBeLessThanOrEqual(PDT_ERROR_BOUND_MS);
    second.kill('SIGKILL');
  });

  it('stamps WHIP segments with the moment their first frame was made', async () => {
    const showUid = await newShow('Clock over WHIP');
    const { streamKey } = await stream(showUid);
    const base = Date.now();
    const address = app().server.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const publisher: WhipTestPublisher = await publishOverWhip({
      url: `http://127.0.0.1:${port}/whip`,
      key: streamKey,
      clockStampBase: base,
    });
    stops.push(() => publisher.stop());
    expect(publisher.status, publisher.body).toBe(201);
    await publisher.connected();
    const errors = await pdtErrors(showUid, 1, base);
    console.info(`whip: PDT − burnt-in moment per segment: ${errors.join(', ')} ms`);
    for (const error of errors) expect(Math.abs(error)).toBeLessThanOrEqual(PDT_ERROR_BOUND_MS);
    publisher.stop();
  });
});
