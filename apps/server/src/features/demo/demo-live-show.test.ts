import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { activeProductUid, CONTROL_CENTER_CUE_SOURCE, streamClockPosition } from '@vitrine/domain';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_MEDIA_DIR } from '../../app.ts';
import { waitFor } from '../../test-support/live-publisher.ts';
import { openTestApp, TEST_ADMIN_KEY } from '../../test-support/test-app.ts';
import { type DemoLiveShow, feedDemoLiveShow } from './demo-live-show.ts';
import {
  DEMO_LIVE_EVENT_ID,
  DEMO_PAGE_UID,
  DEMO_SHOW_SCRIPT,
  DEMO_VIDEO_MS,
  seedDemoStoreIfEmpty,
} from './seed-demo.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
let app: TestApp;
let liveDir: string;
let demo: DemoLiveShow | null = null;
/** Short, so the resting demo show outlives it in the test below: the show waits, it does not end. */
const RECONNECT_GRACE_MS = 4000;

beforeAll(async () => {
  liveDir = mkdtempSync(join(tmpdir(), 'vitrine-demo-live-'));
  app = await openTestApp({
    env: { RTMP_PORT: '0', VITRINE_LIVE_DIR: liveDir, LIVE_RECONNECT_GRACE_MS: String(RECONNECT_GRACE_MS) },
  });
  await seedDemoStoreIfEmpty(app, TEST_ADMIN_KEY, Date.now());
  // Seeding makes the whole demo store through the admin API: slow on a busy machine.
}, 300_000);

/** The demo show's feed on this file's app, as main.ts starts it; `extra` adds what a test needs. */
function feedDemo(extra: Partial<Parameters<typeof feedDemoLiveShow>[0]> = {}) {
  return feedDemoLiveShow({
    live: app.services.live,
    events: app.services.events,
    log: app.server.log,
    pageUid: DEMO_PAGE_UID,
    video: join(DEMO_MEDIA_DIR, 'demo-show.mp4'),
    now: Date.now,
    ...extra,
  });
}

afterAll(async () => {
  await demo?.stop();
  await app?.close();
  rmSync(liveDir, { recursive: true, force: true });
});

it('feeds the demo live show from an encoder through the RTMP ingest: a true live stream', async () => {
  const encoderStartedAt = Date.now();
  demo = await feedDemo();
  expect(demo).not.toBeNull();
  const event = await waitFor('the demo show live on its stream', async () => {
    const [record] = await app.services.events.eventsByIds([DEMO_LIVE_EVENT_ID]);
    return record?.event.cdnMp4VideoUrl?.endsWith('.m3u8') ? record : null;
  });
  expect(event.event.currentStatus).toBe('live');
  expect(event.event.cdnMp4VideoUrl).toBe(`/live/${DEMO_LIVE_EVENT_ID}/ll.m3u8`);
  const playlist = await waitFor('segments', async () => {
    const response = await app.server.inject({
      method: 'GET',
      url: `/live/${DEMO_LIVE_EVENT_ID}/live.m3u8`,
    });
    return response.body.includes('.m4s') ? response.body : null;
  });
  expect(playlist).toContain('#EXT-X-PROGRAM-DATE-TIME:');
  // No ENDLIST: a live playlist, which players show without a seek bar.
  expect(playlist).not.toContain('ENDLIST');

  // The products follow the loop: on the stream clock, each loop shows them where the video does.
  if (!demo) throw new Error('no demo feed');
  await demo.scriptedThrough(1);
  const anchor = demo.loopAnchor();
  if (anchor === null) throw new Error('no loop anchor');
  // The loop starts with the encoder (its first segment may begin at the video's second 3).
  expect(anchor).toBeGreaterThanOrEqual(encoderStartedAt - 3000);
  expect(anchor).toBeLessThan(Date.now());
  const [record] = await app.services.events.eventsByIds([DEMO_LIVE_EVENT_ID]);
  if (!record) throw new Error('no demo event');
  const onScreenAt = async (playingDate: number) =>
    activeProductUid(
      await app.services.events.publishedEventProducts(DEMO_LIVE_EVENT_ID),
      record,
      streamClockPosition(playingDate, record),
    );
  for (const loop of [0, 1]) {
    for (const appearance of DEMO_SHOW_SCRIPT) {
      const middle = anchor + loop * DEMO_VIDEO_MS + (appearance.startMs + appearance.endMs) / 2;
      expect(await onScreenAt(middle), `loop ${loop}, ${appearance.productUid}`).toBe(appearance.productUid);
    }
    // The welcome, before the first product of each loop: none.
    expect(await onScreenAt(anchor + loop * DEMO_VIDEO_MS + 5000)).toBeNull();
  }

  // A product the host presents (the admin API's cue, as the studio sends) appears on the stream at its moment.
  const presented = DEMO_SHOW_SCRIPT[2]?.productUid as string;
  const stamped = Date.now();
  const response = await app.server.inject({
    method: 'POST',
    url: `/admin/events/${DEMO_LIVE_EVENT_ID}/products/${presented}/cues`,
    headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
    payload: { source: CONTROL_CENTER_CUE_SOURCE, presentationStartTimestamp: stamped },
  });
  expect(response.statusCode, response.body).toBeLessThan(300);
  const scriptedThen = await onScreenAt(stamped - 1);
  expect(await onScreenAt(stamped + 100)).toBe(presented);
  expect(scriptedThen).not.toBe(presented);
});

it('rests its encoder while nobody watches and runs it again when a viewer comes, its recording bounded', {
  timeout: 300_000,
}, async () => {
  await demo?.stop();
  // Watched at first, so the recording grows past what a restart keeps.
  let viewers = 1;
  const KEPT = 4;
  demo = await feedDemo({
    viewers: async () => viewers,
    timings: { startGraceMs: 2000, idleStopMs: 1000, checkMs: 100, keptSegments: KEPT },
  });
  if (!demo) throw new Error('no demo feed');
  const feed = demo;
  const state = async () =>
    (await app.services.live.stream(DEMO_PAGE_UID, DEMO_LIVE_EVENT_ID, 'http://localhost')).state;
  const recordingDir = join(liveDir, DEMO_LIVE_EVENT_ID);
  const segmentsOnDisk = () => readdirSync(recordingDir).filter((name) => name.endsWith('.m4s')).length;
  expect(feed.encoderRunning()).toBe(true);
  await waitFor('the demo live again', async () => ((await state()) === 'live' ? true : null));
  await waitFor('more segments than a restart keeps', () => (segmentsOnDisk() > KEPT + 1 ? true : null));
  viewers = 0;

  // Nobody watches: after the start's grace and the idle time, the encoder rests.
  await waitFor('the encoder to rest', async () => (feed.encoderRunning() ? null : true));
  await waitFor('the show to wait for it', async () => ((await state()) === 'reconnecting' ? true : null));
  const restedAt = Date.now();
  expect(segmentsOnDisk()).toBeGreaterThan(KEPT);
  // Past the reconnect grace, the resting show has not ended.
  await waitFor('twice the reconnect grace', async () =>
    Date.now() - restedAt > 2 * RECONNECT_GRACE_MS ? true : null,
  );
  expect(await state()).toBe('reconnecting');

  // A viewer comes: the old recording goes but the newest segments, and the show is live again.
  const before = await app.server.inject({ method: 'GET', url: `/live/${DEMO_LIVE_EVENT_ID}/live.m3u8` });
  viewers = 1;
  await waitFor('the encoder to run again', async () => (feed.encoderRunning() ? true : null));
  expect(segmentsOnDisk()).toBeLessThanOrEqual(KEPT + 1);
  await waitFor('the show live again', async () => ((await state()) === 'live' ? true : null));
  const after = await waitFor('new segments', async () => {
    const response = await app.server.inject({
      method: 'GET',
      url: `/live/${DEMO_LIVE_EVENT_ID}/live.m3u8`,
    });
    return response.body !== before.body && response.body.includes('#EXT-X-DISCONTINUITY')
      ? response.body
      : null;
  });
  expect(after).not.toContain('ENDLIST');

  // While watched, it keeps running past the idle time; once nobody watches, it rests again.
  const watchedSince = Date.now();
  await waitFor('the idle time to pass while watched', async () =>
    Date.now() - watchedSince > 2000 ? true : null,
  );
  expect(feed.encoderRunning()).toBe(true);
  viewers = 0;
  await waitFor('the encoder to rest again', async () => (feed.encoderRunning() ? null : true));
});
