import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMediaPlaylist, type RecordedSegment, replayMediaPlaylist } from '@vitrine/domain';
import { FIRST_ANSWERS_ELEMENT_ID, firstAnswerKey, type StudioClip } from '@vitrine/protocol';
import { Window } from 'happy-dom';
import { structuredDataTestHtml } from 'structured-data-testing-tool';
import { schemas as schemaOrgTypes } from 'structured-data-testing-tool/lib/schemas.js';
import { Facebook, Twitter } from 'structured-data-testing-tool/presets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';

const ORIGIN = 'https://shop.example.com';
const SHOP = 'clip-shop';
const SHOW = 'clip-show';
const LIVE_SHOW = 'clip-live';
/** A show that ended before clips were cut (an older show, or a server stopped at End). */
const OLD_SHOW = 'clip-old';
/** Go live of the recorded show, on the stream clock; segments are one second each from here. */
const T0 = Date.UTC(2026, 10, 28, 18, 0, 0);
const SECONDS = 20;
/** The chapters: the lamp from 2.4 s to 8.6 s, the speaker from 10.2 s to the end. */
const LAMP = { start: T0 + 2_400, end: T0 + 8_600 };
const SPEAKER_START = T0 + 10_200;

const dist = mkdtempSync(join(tmpdir(), 'vitrine-clips-web-'));
writeFileSync(join(dist, 'index.html'), readFileSync(new URL('../../../../web/index.html', import.meta.url)));
const liveDir = mkdtempSync(join(tmpdir(), 'vitrine-clips-live-'));
const clock = T0 + 3_600_000;
let app: Awaited<ReturnType<typeof openTestApp>>;
let host: TestStaffMember;
let moderator: TestStaffMember;
let viewer: TestStaffMember;

async function admin(url: string, payload: object) {
  const response = await app.server.inject({ method: 'PUT', url, headers: adminHeaders, payload });
  if (response.statusCode >= 300) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
}

/**
 * A recording as the live packager leaves it: fMP4 HLS, a keyframe and a segment each second
 * (r1-init.mp4, r1-00000.m4s…), and the finished replay playlist with program date times.
 */
function writeRecording(eventId: string) {
  const work = mkdtempSync(join(tmpdir(), 'vitrine-clips-rec-'));
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc=size=320x240:rate=25:duration=${SECONDS}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${SECONDS}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25', '-keyint_min', '25', '-sc_threshold', '0'],
    ...['-c:a', 'aac', '-f', 'hls', '-hls_time', '1', '-hls_playlist_type', 'vod'],
    ...['-hls_segment_type', 'fmp4', '-hls_fmp4_init_filename', 'r1-init.mp4'],
    ...['-hls_segment_filename', join(work, 'r1-%05d.m4s'), join(work, 'ffmpeg.m3u8')],
  ]);
  const entries = parseMediaPlaylist(readFileSync(join(work, 'ffmpeg.m3u8'), 'utf8'));
  const folder = join(liveDir, eventId);
  mkdirSync(folder, { recursive: true });
  let at = T0;
  const segments: RecordedSegment[] = entries.map((entry, sequence) => {
    const segment = {
      sequence,
      uri: entry.uri,
      initUri: 'r1-init.mp4',
      duration: entry.duration,
      programDateTime: Math.round(at),
      discontinuity: false,
    };
    at += entry.duration * 1000;
    return segment;
  });
  for (const name of readdirSync(work).filter((file) => file.startsWith('r1-')))
    renameSync(join(work, name), join(folder, name));
  writeFileSync(join(folder, 'replay.m3u8'), replayMediaPlaylist(segments, true, 1));
  rmSync(work, { recursive: true, force: true });
}

const probe = (path: string, args: string[]) =>
  execFileSync('ffprobe', ['-v', 'error', ...args, '-of', 'csv=p=0', path], { encoding: 'utf8' }).trim();

const call = (method: 'GET' | 'POST', url: string, who: TestStaffMember | null, payload?: unknown) =>
  app.server.inject({
    method,
    url,
    ...(who ? { headers: who.headers } : {}),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

const clipsUrl = (eventId = SHOW) => `/staff/stores/${SHOP}/shows/${eventId}/clips`;

async function listClips(): Promise<StudioClip[]> {
  const response = await call('GET', clipsUrl(), host);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { clips: StudioClip[] }).clips;
}

async function clipOf(productUid: string): Promise<StudioClip> {
  const clip = (await listClips()).find((candidate) => candidate.eventProductUid === productUid);
  if (!clip) throw new Error(`no clip of ${productUid}`);
  return clip;
}

/** The clip's MP4, written out for ffprobe. */
async function clipFile(clip: StudioClip): Promise<string> {
  const response = await app.server.inject({ method: 'GET', url: clip.videoUrl ?? '' });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('video/mp4');
  const path = join(liveDir, `${clip.uid}-probe.mp4`);
  writeFileSync(path, response.rawPayload);
  return path;
}

beforeAll(async () => {
  app = await openTestApp({
    now: () => clock,
    env: {
      VITRINE_LIVE_DIR: liveDir,
      VITRINE_WEB_DIST: dist,
      VITRINE_PUBLIC_URL: ORIGIN,
      VITRINE_DEFAULT_PAGE: SHOP,
    },
  });
  await admin(`/admin/pages/${SHOP}`, {
    name: 'Lys & Lyd',
    language: 'en',
    languages: ['da'],
    currency: 'DKK',
  });
  await admin(`/staff/stores/${SHOP}/products/lamp`, {
    name: 'Desk lamp',
    sku: 'LAMP-1',
    images: ['/media/lamp.jpg'],
    prices: { DKK: 49_900 },
    stock: 3,
  });
  await admin(`/staff/stores/${SHOP}/products/speaker`, {
    name: 'Speaker',
    sku: 'SPK-1',
    prices: { DKK: 129_900 },
  });
  for (const campaign of ['evening', 'night'])
    await admin(`/admin/pages/${SHOP}/campaigns/${campaign}`, { name: campaign });
  await admin(`/admin/events/${SHOW}`, {
    pageUid: SHOP,
    campaignId: 'evening',
    currentStatus: 'vod',
    eventName: 'Evening lights',
    eventStartTimestamp: T0,
    liveStartTime: T0,
    liveEndTime: T0 + SECONDS * 1000,
    cdnVideoStartTime: T0,
  });
  const cue = (start: number, end: number | null) => ({
    source: 'control-center',
    presentationStartTimestamp: start,
    presentationEndTimestamp: end,
  });
  await admin(`/admin/events/${SHOW}/products/lamp`, {
    productUid: 'lamp',
    sorting: 1,
    cues: [cue(LAMP.start, LAMP.end)],
  });
  await admin(`/admin/events/${SHOW}/products/speaker`, {
    productUid: 'speaker',
    sorting: 2,
    cues: [cue(SPEAKER_START, null)],
  });
  await admin(`/admin/events/${LIVE_SHOW}`, {
    pageUid: SHOP,
    campaignId: 'night',
    currentStatus: 'live',
    eventName: 'Night sale',
    eventStartTimestamp: clock - 60_000,
    liveStartTime: clock - 60_000,
  });
  await admin(`/admin/events/${LIVE_SHOW}/products/lamp`, {
    productUid: 'lamp',
    cues: [cue(clock - 30_000, null)],
  });
  await admin(`/admin/events/${OLD_SHOW}`, {
    pageUid: SHOP,
    campaignId: 'evening',
    currentStatus: 'vod',
    eventName: 'Older lights',
    eventStartTimestamp: T0,
    liveStartTime: T0,
    liveEndTime: T0 + SECONDS * 1000,
  });
  await admin(`/admin/events/${OLD_SHOW}/products/lamp`, {
    productUid: 'lamp',
    cues: [cue(LAMP.start, LAMP.end)],
  });
  host = await signInStaff(app, SHOP, 'host');
  moderator = await signInStaff(app, SHOP, 'moderator');
  viewer = await signInStaff(app, SHOP, null);
  writeRecording(SHOW);
  writeRecording(OLD_SHOW);
  // What the live service calls when End has put the replay in the store.
  await app.services.clips.showEnded(SHOW);
}, 120_000);

afterAll(async () => {
  await app.close();
  rmSync(dist, { recursive: true, force: true });
  rmSync(liveDir, { recursive: true, force: true });
});

describe('clips cut when a show ends', () => {
  it('gives each presented product a clip, cut on keyframes, as long as its chapter', async () => {
    const clips = await listClips();
    expect(clips.map((clip) => [clip.productName, clip.kind, clip.state, clip.hidden])).toEqual([
      ['Desk lamp', 'chapter', 'ready', false],
      ['Speaker', 'chapter', 'ready', false],
    ]);
    const lamp = await clipOf('lamp');
    const path = await clipFile(lamp);
    // Whole segments: from the keyframe at 2 s to the one after 8.6 s (9 s), 7 s, within a second
    // of the chapter at each end.
    const duration = Number(probe(path, ['-show_entries', 'format=duration']));
    expect(duration).toBeGreaterThan((LAMP.end - LAMP.start) / 1000 - 0.1);
    expect(duration).toBeLessThan((LAMP.end - LAMP.start) / 1000 + 2);
    expect(Math.abs(duration - 7)).toBeLessThan(0.2);
    expect(lamp.durationSeconds).toBeCloseTo(7, 1);
    // Copied, not encoded: H.264 and AAC as recorded, and the first frame is a keyframe.
    expect(probe(path, ['-select_streams', 'v:0', '-show_entries', 'stream=codec_name'])).toBe('h264');
    expect(probe(path, ['-select_streams', 'a:0', '-show_entries', 'stream=codec_name'])).toBe('aac');
    const firstPacket = probe(path, [
      ...['-select_streams', 'v:0', '-read_intervals', '%+#1'],
      ...['-show_entries', 'packet=pts_time,flags'],
    ]).split('\n')[0];
    expect(firstPacket).toMatch(/^0(\.0+)?,K/);
    // The speaker's chapter runs to the end of the show: 10 s to 20 s.
    const speaker = await clipOf('speaker');
    expect(speaker.durationSeconds).toBeCloseTo(10, 0);
    // Beside the recording, in the same store, each with its poster.
    expect(readdirSync(join(liveDir, SHOW, 'clips')).sort()).toEqual(
      [`${lamp.uid}-v0.mp4`, `${lamp.uid}-v0.jpg`, `${speaker.uid}-v0.mp4`, `${speaker.uid}-v0.jpg`].sort(),
    );
  });

  it("serves each clip's poster: its first frame as a JPEG at the video's size", async () => {
    const lamp = await clipOf('lamp');
    expect(lamp.posterUrl).toBe(lamp.videoUrl?.replace(/\.mp4$/, '.jpg'));
    const response = await app.server.inject({ method: 'GET', url: lamp.posterUrl ?? '' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    const path = join(liveDir, `${lamp.uid}-poster.jpg`);
    writeFileSync(path, response.rawPayload);
    const video = await clipFile(lamp);
    const size = (file: string) =>
      probe(file, ['-select_streams', 'v:0', '-show_entries', 'stream=width,height']);
    expect(probe(path, ['-select_streams', 'v:0', '-show_entries', 'stream=codec_name'])).toBe('mjpeg');
    expect(size(path)).toBe(size(video));
    // A name that is neither the clip's video nor its poster is no file.
    const other = lamp.posterUrl?.replace(/\.jpg$/, '.png') ?? '';
    expect((await app.server.inject({ method: 'GET', url: other })).statusCode).toBe(404);
  });

  it('serves byte ranges of a clip, as browsers ask for video', async () => {
    const lamp = await clipOf('lamp');
    const response = await app.server.inject({
      method: 'GET',
      url: lamp.videoUrl ?? '',
      headers: { range: 'bytes=0-99' },
    });
    expect(response.statusCode).toBe(206);
    expect(response.rawPayload.length).toBe(100);
    expect(response.headers['content-range']).toMatch(/^bytes 0-99\/\d+$/);
  });

  it('cuts nothing again when the show ends twice', async () => {
    await app.services.clips.showEnded(SHOW);
    expect(await listClips()).toHaveLength(2);
  });
});

describe('trimming and hiding', () => {
  it('re-cuts a trimmed clip within its chapter', async () => {
    const lamp = await clipOf('lamp');
    const response = await call('POST', `${clipsUrl()}/${lamp.uid}/trim`, host, {
      startOffsetMs: 1_000,
      endOffsetMs: 4_000,
    });
    expect(response.statusCode, response.body).toBe(200);
    const trimmed = response.json() as StudioClip;
    expect(trimmed.state).toBe('ready');
    expect(trimmed.startAt).toBe(LAMP.start + 1_000);
    expect(trimmed.videoUrl).not.toBe(lamp.videoUrl);
    // 3.4 s to 6.4 s of the show: the segments from 3 s to 7 s.
    const duration = Number(probe(await clipFile(trimmed), ['-show_entries', 'format=duration']));
    expect(Math.abs(duration - 4)).toBeLessThan(0.2);
    // The old cut's addresses are gone; the new poster is the new cut's.
    expect((await app.server.inject({ method: 'GET', url: lamp.videoUrl ?? '' })).statusCode).toBe(404);
    expect((await app.server.inject({ method: 'GET', url: lamp.posterUrl ?? '' })).statusCode).toBe(404);
    expect(trimmed.posterUrl).toBe(trimmed.videoUrl?.replace(/\.mp4$/, '.jpg'));
    expect((await app.server.inject({ method: 'GET', url: trimmed.posterUrl ?? '' })).statusCode).toBe(200);
  });

  it('refuses a trim outside the chapter (422) and a malformed one (400)', async () => {
    const lamp = await clipOf('lamp');
    const url = `${clipsUrl()}/${lamp.uid}/trim`;
    const outside = await call('POST', url, host, { startOffsetMs: 0, endOffsetMs: 60_000 });
    expect(outside.statusCode).toBe(422);
    expect(outside.json()).toMatchObject({ message: expect.stringContaining('chapter') });
    for (const payload of [
      { startOffsetMs: 3_000, endOffsetMs: 1_000 },
      { startOffsetMs: 'soon', endOffsetMs: 1_000 },
      { startOffsetMs: 0, endOffsetMs: 1_000, extra: true },
      {},
    ]) {
      const response = await call('POST', url, host, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(
      (await call('POST', `${clipsUrl()}/no-such-clip/trim`, host, { startOffsetMs: 0, endOffsetMs: 3_000 }))
        .statusCode,
    ).toBe(404);
  });

  it('lets only hosts trim, hide and list: a viewer, a moderator and nobody are refused', async () => {
    const lamp = await clipOf('lamp');
    const trim = { startOffsetMs: 0, endOffsetMs: 3_000 };
    for (const who of [viewer, moderator]) {
      expect((await call('POST', `${clipsUrl()}/${lamp.uid}/trim`, who, trim)).statusCode).toBe(403);
      expect(
        (await call('POST', `${clipsUrl()}/${lamp.uid}/visibility`, who, { hidden: true })).statusCode,
      ).toBe(403);
      expect((await call('GET', clipsUrl(), who)).statusCode).toBe(403);
      expect((await call('POST', `${clipsUrl(LIVE_SHOW)}/highlights`, who, {})).statusCode).toBe(403);
    }
    expect((await call('POST', `${clipsUrl()}/${lamp.uid}/trim`, null, trim)).statusCode).toBe(401);
    expect((await clipOf('lamp')).startAt).toBe(LAMP.start + 1_000);
  });

  it('hides a clip: its page, file and API answer 404 and the sitemap leaves it out', async () => {
    const speaker = await clipOf('speaker');
    const lamp = await clipOf('lamp');
    const getClip = (clipUid: string) =>
      app.server.inject({ method: 'POST', url: '/functions/clips/get', payload: { pageUid: SHOP, clipUid } });
    expect((await getClip(speaker.uid)).statusCode).toBe(200);
    const hidden = await call('POST', `${clipsUrl()}/${speaker.uid}/visibility`, host, { hidden: true });
    expect(hidden.statusCode).toBe(200);
    expect((hidden.json() as StudioClip).hidden).toBe(true);
    expect((await getClip(speaker.uid)).statusCode).toBe(404);
    expect((await app.server.inject({ method: 'GET', url: speaker.videoUrl ?? '' })).statusCode).toBe(404);
    const page = await app.server.inject({ method: 'GET', url: speaker.pagePath });
    expect(page.body).not.toContain('og:video');
    const sitemap = (await app.server.inject({ method: 'GET', url: '/sitemap.xml' })).body;
    expect(sitemap).toContain(`<loc>${ORIGIN}${lamp.pagePath}</loc>`);
    expect(sitemap).not.toContain(speaker.uid);
    expect(
      (await call('POST', `${clipsUrl()}/${speaker.uid}/visibility`, host, { hidden: 'yes' })).statusCode,
    ).toBe(400);
  });
});

describe('a clip page', () => {
  it('has a head chat apps and search engines read: og:video, a player card, valid JSON-LD', async () => {
    const lamp = await clipOf('lamp');
    const response = await app.server.inject({ method: 'GET', url: lamp.pagePath });
    expect(response.statusCode).toBe(200);
    const document = new new Window().DOMParser().parseFromString(response.body, 'text/html');
    const meta = (key: string) =>
      document.querySelector(`meta[property="${key}"], meta[name="${key}"]`)?.getAttribute('content') ?? null;
    const pageUrl = `${ORIGIN}${lamp.pagePath}`;
    expect(meta('og:type')).toBe('video.other');
    expect(meta('og:url')).toBe(pageUrl);
    expect(meta('og:title')).toBe('Desk lamp | Lys & Lyd');
    expect(meta('og:video')).toBe(`${ORIGIN}${lamp.videoUrl}`);
    expect(meta('og:video:type')).toBe('video/mp4');
    // The clip's own first frame, which the page also fetches first (its largest paint on a phone).
    expect(meta('og:image')).toBe(`${ORIGIN}${lamp.posterUrl}`);
    const preload = document.querySelector('link[rel="preload"][as="image"]');
    expect(preload?.getAttribute('href')).toBe(lamp.posterUrl);
    expect(preload?.getAttribute('fetchpriority')).toBe('high');
    // The clip comes in the page, as the app would have asked for it: no round trip before it paints.
    const answers = JSON.parse(document.getElementById(FIRST_ANSWERS_ELEMENT_ID)?.textContent ?? '{}');
    const asked = await app.server.inject({
      method: 'POST',
      url: '/functions/clips/get',
      payload: { pageUid: SHOP, clipUid: lamp.uid },
    });
    expect(answers[firstAnswerKey('getClip', { pageUid: SHOP, clipUid: lamp.uid })]).toEqual(asked.json());
    expect(meta('og:description')).toBe('Desk lamp, seen live in “Evening lights” with Lys & Lyd.');
    const result = await structuredDataTestHtml(response.body, {
      presets: [Twitter, Facebook],
      tests: [
        { test: 'VideoObject[0].contentUrl', type: 'jsonld', expect: `${ORIGIN}${lamp.videoUrl}` },
        { test: 'VideoObject[0].embedUrl', type: 'jsonld', expect: pageUrl },
        { test: 'VideoObject[0].thumbnailUrl[0]', type: 'jsonld', expect: `${ORIGIN}${lamp.posterUrl}` },
        { test: 'VideoObject[0].duration', type: 'jsonld', expect: 'PT4S' },
        { test: 'VideoObject[0].hasPart[0]."@type"', type: 'jsonld', expect: 'Clip' },
        {
          test: 'VideoObject[0].isPartOf.url',
          type: 'jsonld',
          expect: `${ORIGIN}/widget/${SHOP}/campaign/evening/event/${SHOW}`,
        },
        { test: 'Product[0].name', type: 'jsonld', expect: 'Desk lamp' },
        { test: 'Product[0].offers.price', type: 'jsonld', expect: '499.00' },
        { test: 'Product[0].offers.priceCurrency', type: 'jsonld', expect: 'DKK' },
        { test: '"og:video"', type: 'metatag' },
      ],
    }).catch((error: { res?: { failed: { test: string; error?: { message?: string } }[] } }) => {
      throw new Error(
        `structured data failed: ${error.res?.failed.map((test) => `${test.test}: ${test.error?.message}`).join('; ') ?? String(error)}`,
      );
    });
    expect(result.failed).toEqual([]);
    const types = JSON.stringify(result.structuredData.jsonld).match(/"@type":"(\w+)"/g) ?? [];
    for (const type of types.map((entry) => entry.slice(9, -1)))
      expect(type in schemaOrgTypes || type === 'OnlineStore', type).toBe(true);
  });

  it("finds a product's newest clip by the retailer's SKU for the SDK, and nothing for another", async () => {
    const lamp = await clipOf('lamp');
    const find = (product: string) =>
      app.server.inject({
        method: 'POST',
        url: '/functions/clips/forProduct',
        payload: { pageUid: SHOP, product },
      });
    const found = (await find('LAMP-1')).json() as { clip: { uid: string; product: { productUid: string } } };
    expect(found.clip.uid).toBe(lamp.uid);
    // The replay's first frame is Go live here: the trimmed clip begins 3 s into it.
    expect((found.clip as unknown as { showOffsetSeconds: number | null }).showOffsetSeconds).toBe(3);
    expect(found.clip.product.productUid).toBe('lamp');
    // The speaker's clip is hidden.
    expect(((await find('SPK-1')).json() as { clip: unknown }).clip).toBeNull();
    expect((await find('')).statusCode).toBe(400);
  });
});

describe('highlights', () => {
  it('are marked by the host while the show is live, with the product on screen, and cut at its end', async () => {
    const response = await call('POST', `${clipsUrl(LIVE_SHOW)}/highlights`, host, {});
    expect(response.statusCode, response.body).toBe(201);
    const highlight = response.json() as StudioClip;
    expect(highlight).toMatchObject({
      kind: 'highlight',
      state: 'pending',
      eventProductUid: 'lamp',
      endAt: clock + 10_000,
    });
    expect(highlight.startAt).toBe(clock - 15_000);
    // A show that is not live takes none.
    expect((await call('POST', `${clipsUrl()}/highlights`, host, {})).statusCode).toBe(409);
  });
});

describe('a show that ended without clips', () => {
  it('gets them cut when the studio lists its clips', async () => {
    const listOld = async () => {
      const response = await call('GET', clipsUrl(OLD_SHOW), host);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { clips: StudioClip[] }).clips;
    };
    expect((await listOld()).map((clip) => clip.eventProductUid)).toEqual(['lamp']);
    await app.services.clips.settled();
    expect((await listOld()).map((clip) => [clip.state, clip.durationSeconds])).toEqual([['ready', 7]]);
  });
});
