import type { LiveStreamView } from '@vitrine/protocol';
import * as HLS from 'hls-parser';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../test-support/live-publisher.ts';
import { liveTestApp } from '../../test-support/live-test-app.ts';

/**
 * A node whose LIVE_PROFILE has two renditions: an encoder publishes over RTMP with ffmpeg, and
 * viewers get an adaptive stream — a master playlist naming both media playlists, each of which
 * plays on the show's one clock, live and as the replay.
 */
HLS.setOptions({ strictMode: true });
const { app, host, pageUid, get, newShow, publishRtmp } = liveTestApp('vitrine-renditions-', {
  RTMP_PORT: '0',
  LIVE_PROFILE: 'segment=1,window=6,renditions=720p30+360p30',
});

async function studio<T>(url: string) {
  const response = await app().server.inject({ method: 'POST', url, headers: host().headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as T;
}

/** The variants of a master playlist: each EXT-X-STREAM-INF's attributes and the URI under it. */
function variantsOf(master: string) {
  const lines = master.split('\n');
  return lines.flatMap((line, index) => {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) return [];
    const attributes = Object.fromEntries(
      [...line.slice('#EXT-X-STREAM-INF:'.length).matchAll(/([A-Z-]+)=("[^"]*"|[^,]*)/g)].map(
        ([, key, value]) => [key, value?.replace(/^"|"$/g, '')],
      ),
    );
    return [{ attributes, uri: lines[index + 1] ?? '' }];
  });
}

const segmentsOf = (playlist: string) => playlist.split('\n').filter((line) => line.includes('.m4s'));
const programDateTimes = (playlist: string) =>
  [...playlist.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(\S+)/g)].map(([, time]) => Date.parse(time ?? ''));

describe('a show in two renditions', () => {
  let showUid: string;
  let view: LiveStreamView;

  it('is published with ffmpeg and goes live with an adaptive master playlist', async () => {
    showUid = await newShow('Two renditions');
    const streamPath = `/staff/stores/${pageUid()}/shows/${showUid}/stream`;
    view = (
      await app().server.inject({ method: 'GET', url: streamPath, headers: host().headers })
    ).json() as LiveStreamView;
    // 640×480 H.264: copied into the main rendition, transcoded to 480×360 for the lower one.
    publishRtmp(view.streamKey, { size: '640x480' });
    await waitFor(
      'the preview playlist',
      async () => segmentsOf((await get(view.previewUrl)).text).length > 0,
    );
    // The master playlist is for viewers: none before Go live.
    expect((await get(`/live/${showUid}/master.m3u8`)).status).toBe(404);
    await studio<LiveStreamView>(`${streamPath}/go-live`);
    const [event] = await app().services.events.eventsByIds([showUid]);
    // Viewers play the LL-HLS master (the profile's default); the regular one is served beside it.
    expect(event?.event.cdnMp4VideoUrl).toBe(`/live/${showUid}/ll-master.m3u8`);

    const master = await waitFor('both renditions in the master playlist', async () => {
      const answer = await get(`/live/${showUid}/master.m3u8`);
      return answer.status === 200 && variantsOf(answer.text).length === 2 ? answer : null;
    });
    expect(master.headers['content-type']).toContain('application/vnd.apple.mpegurl');
    expect(master.text.startsWith('#EXTM3U\n')).toBe(true);
    const [main, low] = variantsOf(master.text);
    expect(main?.uri).toBe('live.m3u8');
    expect(low?.uri).toBe('360p-live.m3u8');
    expect(main?.attributes.RESOLUTION).toBe('640x480');
    expect(low?.attributes.RESOLUTION).toBe('480x360');
    for (const variant of [main, low]) {
      expect(Number(variant?.attributes.BANDWIDTH)).toBeGreaterThan(10_000);
      expect(variant?.attributes.CODECS).toMatch(/^avc1\.[0-9a-f]{6},mp4a\.40\.2$/);
    }

    // Each media playlist lists its own segments, which play; both run on the show's clock.
    const playlists = await Promise.all(
      ['live.m3u8', '360p-live.m3u8'].map((uri) =>
        waitFor(`segments in ${uri}`, async () => {
          const answer = await get(`/live/${showUid}/${uri}`);
          return answer.status === 200 && segmentsOf(answer.text).length >= 2 ? answer.text : null;
        }),
      ),
    );
    const [mainText = '', lowText = ''] = playlists;
    expect(segmentsOf(mainText).every((uri) => /^r\d+-\d+\.m4s$/.test(uri))).toBe(true);
    expect(segmentsOf(lowText).every((uri) => /^360p-r\d+-\d+\.m4s$/.test(uri))).toBe(true);
    expect(lowText).toMatch(/#EXT-X-MAP:URI="360p-r1-init\.mp4"/);
    expect(lowText).toContain('#EXT-X-TARGETDURATION:');
    const mainSpan = programDateTimes(mainText);
    const lowSpan = programDateTimes(lowText);
    // The same moments, from the same ingest clock: their live edges are at most a few segments apart.
    expect(Math.abs((mainSpan.at(-1) ?? 0) - (lowSpan.at(-1) ?? 0))).toBeLessThan(5000);
    for (const text of [mainText, lowText]) {
      const [uri = ''] = segmentsOf(text).slice(-1);
      const segment = await get(`/live/${showUid}/${uri}`);
      expect(segment.status).toBe(200);
      expect(segment.raw.subarray(4, 8).toString('latin1')).toMatch(/styp|moof/);
    }
    const lowInit = await get(`/live/${showUid}/360p-r1-init.mp4`);
    expect(lowInit.raw.subarray(4, 8).toString('latin1')).toBe('ftyp');

    // LL-HLS: its master names each rendition's LL playlist, which passes hls-parser's strict mode.
    const llMaster = await get(`/live/${showUid}/ll-master.m3u8`);
    expect(llMaster.status).toBe(200);
    expect(variantsOf(llMaster.text).map((variant) => variant.uri)).toEqual(['ll.m3u8', '360p-ll.m3u8']);
    for (const uri of ['ll.m3u8', '360p-ll.m3u8']) {
      const answer = await get(`/live/${showUid}/${uri}`);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('#EXT-X-PART:');
      HLS.parse(answer.text);
    }
    expect(HLS.parse(llMaster.text).isMasterPlaylist).toBe(true);
  });

  it('ends into an adaptive replay: a master playlist of both VOD playlists, from the store', async () => {
    const streamPath = `/staff/stores/${pageUid()}/shows/${showUid}/stream`;
    await studio<LiveStreamView>(`${streamPath}/end`);
    const [event] = await app().services.events.eventsByIds([showUid]);
    expect(event?.event.cdnMp4VideoUrl).toBe(`/live/${showUid}/replay-master.m3u8`);
    const master = await get(`/live/${showUid}/replay-master.m3u8`);
    expect(master.status).toBe(200);
    expect(variantsOf(master.text).map((variant) => variant.uri)).toEqual([
      'replay.m3u8',
      '360p-replay.m3u8',
    ]);
    for (const uri of ['replay.m3u8', '360p-replay.m3u8']) {
      const replay = await get(`/live/${showUid}/${uri}`);
      expect(replay.text).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
      expect(replay.text.trim().endsWith('#EXT-X-ENDLIST')).toBe(true);
      const [first = ''] = segmentsOf(replay.text);
      expect((await get(`/live/${showUid}/${first}`)).status).toBe(200);
    }
    // A rendition the profile does not have is no file of the show.
    expect((await get(`/live/${showUid}/240p-live.m3u8`)).status).toBe(404);
  });
});
