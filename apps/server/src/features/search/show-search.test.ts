import { CONTROL_CENTER_CUE_SOURCE, SEARCH_TEXT_MAX_LENGTH } from '@vitrine/domain';
import type { ShowSearchResults } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';
import { SEARCH_DOCUMENT } from '../catalog/catalog-service.ts';
import { SEARCH_LIMIT_PER_ADDRESS } from './show-search-service.ts';

const NOW = Date.UTC(2026, 10, 28, 18, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const SHOP = 'search-shop';
const OTHER = 'search-other';
const SEARCH = '/functions/search/shows';

let app: Awaited<ReturnType<typeof openTestApp>>;

async function admin(url: string, payload: object): Promise<void> {
  const response = await app.server.inject({ method: 'PUT', url, headers: adminHeaders, payload });
  if (response.statusCode >= 300) throw new Error(`PUT ${url}: ${response.statusCode} ${response.body}`);
}

const show = (id: string, pageUid: string, campaignId: string, fields: Record<string, unknown>) =>
  admin(`/admin/events/${id}`, { pageUid, campaignId, ...fields });

/** A recorded show named `eventName`: live for an hour from `hoursAgo` hours before NOW. */
const recording = (eventName: string, hoursAgo: number) => ({
  currentStatus: 'vod',
  eventName,
  eventStartTimestamp: NOW - hoursAgo * HOUR,
  liveStartTime: NOW - hoursAgo * HOUR,
  liveEndTime: NOW - (hoursAgo - 1) * HOUR,
});

async function search(payload: object, address = '10.0.0.1') {
  return app.server.inject({ method: 'POST', url: SEARCH, payload, remoteAddress: address });
}

async function found(payload: object): Promise<ShowSearchResults> {
  const response = await search(payload);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

beforeAll(async () => {
  // Abuse limits on: the search is counted per address like the other public actions.
  app = await openTestApp({ now: () => NOW, env: { VITRINE_ABUSE_LIMITS: 'on' } });
  for (const [uid, name] of [
    [SHOP, 'Search shop'],
    [OTHER, 'Other shop'],
  ] as const)
    await admin(`/admin/pages/${uid}`, { name, language: 'da', currency: 'DKK' });
  await admin(`/staff/stores/${SHOP}/products/mug`, {
    name: 'Blue stoneware mug',
    description: 'Glazed by hand in Aarhus.',
    sku: 'STW7731',
    images: ['/media/mug.jpg'],
    prices: { DKK: 19_900 },
  });
  await admin(`/staff/stores/${SHOP}/products/teapot`, { name: 'Teapot', prices: { DKK: 39_900 } });
  // Only in a draft and in a private show: never found.
  await admin(`/staff/stores/${SHOP}/products/prototype`, {
    name: 'Prototype mugwarmer',
    prices: { DKK: 9_900 },
  });
  // In no show at all: never found either.
  await admin(`/staff/stores/${SHOP}/products/loose`, { name: 'Loose mug', prices: { DKK: 9_900 } });
  await admin(`/staff/stores/${OTHER}/products/other-mug`, { name: 'Red mug', prices: { DKK: 9_900 } });
  for (const [page, campaign, deadline] of [
    [SHOP, 'spring', null],
    [SHOP, 'summer', null],
    [SHOP, 'winter', null],
    [SHOP, 'autumn', null],
    [SHOP, 'old', NOW - 30 * 24 * HOUR],
    [SHOP, 'secret', null],
    [OTHER, 'red', null],
  ] as const)
    await admin(`/admin/pages/${page}/campaigns/${campaign}`, { name: campaign, deadline });

  await show('spring-live', SHOP, 'spring', {
    currentStatus: 'live',
    eventName: 'Spring live',
    eventStartTimestamp: NOW - HOUR,
    liveStartTime: NOW - 30 * MINUTE,
  });
  await show('summer-next', SHOP, 'summer', {
    currentStatus: 'planned',
    eventName: 'Summer next',
    eventStartTimestamp: NOW + 24 * HOUR,
    coverPhotoPath: '/media/summer.jpg',
  });
  // A recording whose mug chapter comes from the control room's cue, 95 s after going live.
  await show('winter-replay', SHOP, 'winter', {
    ...recording('Winter replay', 48),
    broadcastDelayMs: 0,
    cdnMp4VideoUrl: 'https://cdn.example.com/winter.mp4',
  });
  // An older recording whose mug chapter is a relative cue, 10 minutes in.
  await show('autumn-replay', SHOP, 'autumn', recording('Autumn replay', 96));
  // A replay whose campaign ended a month ago: the shop page no longer lists it.
  await show('old-replay', SHOP, 'old', {
    currentStatus: 'vod',
    eventName: 'Old replay',
    eventStartTimestamp: NOW - 40 * 24 * HOUR,
  });
  await show('secret-draft', SHOP, 'secret', {
    status: 'draft',
    currentStatus: 'planned',
    eventName: 'Secret draft launch',
    eventStartTimestamp: NOW + HOUR,
  });
  await show('secret-private', SHOP, 'secret', {
    status: 'private',
    currentStatus: 'live',
    eventName: 'Secret private preview',
    eventStartTimestamp: NOW - HOUR,
  });
  await show('red-live', OTHER, 'red', {
    currentStatus: 'live',
    eventName: 'Red live',
    eventStartTimestamp: NOW - HOUR,
  });

  for (const event of ['spring-live', 'summer-next', 'old-replay', 'secret-draft', 'secret-private'])
    await admin(`/admin/events/${event}/products/mug`, { productUid: 'mug' });
  await admin('/admin/events/winter-replay/products/mug', {
    productUid: 'mug',
    cues: [
      {
        source: CONTROL_CENTER_CUE_SOURCE,
        presentationStartTimestamp: NOW - 48 * HOUR + 95_000,
        presentationEndTimestamp: NOW - 48 * HOUR + 200_000,
      },
    ],
  });
  await admin('/admin/events/winter-replay/products/teapot', {
    productUid: 'teapot',
    relativeCues: [{ presentationTime: 300_000, presentationEndTime: null }],
  });
  await admin('/admin/events/autumn-replay/products/mug', {
    productUid: 'mug',
    relativeCues: [{ presentationTime: 600_000, presentationEndTime: 700_000 }],
  });
  for (const event of ['secret-draft', 'secret-private'])
    await admin(`/admin/events/${event}/products/prototype`, { productUid: 'prototype' });
  await admin('/admin/events/red-live/products/other-mug', { productUid: 'other-mug' });
});

afterAll(async () => {
  await app.close();
});

describe('search across shows', () => {
  it('finds a product by a word prefix with its live, upcoming and recorded shows, and where in each replay', async () => {
    const { hits, more, page } = await found({ text: 'stonew', pageUid: SHOP });
    expect({ more, page }).toEqual({ more: false, page: 0 });
    expect(hits).toHaveLength(1);
    const [hit] = hits;
    expect(hit?.product).toEqual({ uid: 'mug', name: 'Blue stoneware mug', image: '/media/mug.jpg' });
    expect(hit?.shows.map((s) => [s.eventId, s.state, s.offset, s.path])).toEqual([
      ['spring-live', 'live', null, `/widget/${SHOP}/campaign/spring/event/spring-live`],
      ['summer-next', 'planned', null, `/widget/${SHOP}/campaign/summer/event/summer-next`],
      // Newest recording first; each opens at the product's first chapter.
      ['winter-replay', 'vod', 95, `/widget/${SHOP}/campaign/winter/event/winter-replay?t=95`],
      ['autumn-replay', 'vod', 600, `/widget/${SHOP}/campaign/autumn/event/autumn-replay?t=600`],
    ]);
    expect(hit?.shows[1]?.cover).toBe('/media/summer.jpg');
  });

  it('matches the description and the SKU, every word required, any case', async () => {
    expect((await found({ text: 'AARHUS glazed' })).hits.map((h) => h.product.uid)).toEqual(['mug']);
    expect((await found({ text: 'stw77' })).hits.map((h) => h.product.uid)).toEqual(['mug']);
    expect((await found({ text: 'mug teapot' })).hits).toEqual([]);
    const teapot = await found({ text: 'teapot' });
    expect(teapot.hits[0]?.shows.map((s) => [s.eventId, s.offset])).toEqual([['winter-replay', 300]]);
  });

  it('searches every store unless one is named, and links carry the language asked for', async () => {
    const all = await found({ text: 'mug', lang: 'en' });
    expect(all.hits.map((h) => h.product.uid).sort()).toEqual(['mug', 'other-mug']);
    const red = all.hits.find((h) => h.product.uid === 'other-mug');
    expect(red?.shows[0]?.path).toBe(`/widget/${OTHER}/campaign/red/event/red-live?lang=en`);
    const winter = all.hits.find((h) => h.product.uid === 'mug')?.shows.find((s) => s.state === 'vod');
    expect(winter?.path).toMatch(/\?t=95&lang=en$/);
    expect((await found({ text: 'mug', pageUid: OTHER })).hits.map((h) => h.product.uid)).toEqual([
      'other-mug',
    ]);
  });

  it('never answers a draft, a private show, an expired replay, or a product in none but those', async () => {
    for (const text of ['mug', 'mugwarmer', 'prototype', 'secret', 'loose']) {
      const response = await search({ text, pageUid: SHOP });
      expect(response.statusCode).toBe(200);
      expect(response.body).not.toMatch(/secret|Secret|prototype|Prototype|old-replay|loose/);
    }
    expect((await found({ text: 'prototype' })).hits).toEqual([]);
    expect((await found({ text: 'loose' })).hits).toEqual([]);
  });

  it('matches with the expression products_search_idx indexes, so the index can serve it', async () => {
    const plan = await app.db.transaction(async (tx) => {
      // Four products would be read whole anyway; without that choice the plan shows the index.
      await tx.query('SET LOCAL enable_seqscan = off');
      return tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT uid FROM products WHERE ${SEARCH_DOCUMENT} @@ to_tsquery('simple', 'mug:*')`,
      );
    });
    expect(plan.map((row) => row['QUERY PLAN']).join('\n')).toContain('products_search_idx');
  });

  it('treats query syntax and SQL in the text as words', async () => {
    expect((await found({ text: "mug:* | !teapot & (x) <-> 'y'" })).hits).toEqual([]);
    expect((await found({ text: "stoneware' OR 1=1 --" })).hits).toEqual([]);
    expect((await found({ text: "stoneware');--" })).hits.map((h) => h.product.uid)).toEqual(['mug']);
  });

  it.each([
    [{ text: '' }, 'text'],
    [{ text: '  &|!:* ' }, 'text'],
    [{ text: 'x'.repeat(SEARCH_TEXT_MAX_LENGTH + 1) }, 'text'],
    [{}, 'text'],
    [{ text: 'mug', pageUid: '../etc' }, 'pageUid'],
    [{ text: 'mug', lang: 'xx' }, 'lang'],
    [{ text: 'mug', page: -1 }, 'page'],
    [{ text: 'mug', page: 1000 }, 'page'],
    [{ text: 'mug', extra: 1 }, 'extra'],
  ])('refuses %j with a 400 naming %s', async (payload, field) => {
    const response = await search(payload);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.body).toContain(field);
  });

  it('answers 429 with Retry-After once an address used up its searches, other addresses go on', async () => {
    const address = '10.9.9.9';
    // The counter is set where a flood would leave it, rather than sending hundreds of requests.
    await app.db.query('INSERT INTO rate_limits (key, window_start, count) VALUES ($1, $2, $3)', [
      `search:address:${address}`,
      NOW,
      SEARCH_LIMIT_PER_ADDRESS.max - 1,
    ]);
    expect((await search({ text: 'mug' }, address)).statusCode).toBe(200);
    const refused = await search({ text: 'mug' }, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'rate_limited' });
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await search({ text: 'mug' }, '10.9.9.8')).statusCode).toBe(200);
  });
});
