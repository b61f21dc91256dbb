import { EventProduct, LiveEvent, ShopEvents } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;

/** The fixed clock of this file: 12 June 2025, 18:00 UTC. */
const NOW = Date.UTC(2025, 5, 12, 18, 0, 0);
const MINUTE = 60_000;
const GRACE = 15 * MINUTE;

let app: TestApp;

async function admin(method: 'PUT' | 'POST', url: string, payload: object) {
  return app.server.inject({ method, url, headers: adminHeaders, payload });
}

/** An admin write that must succeed; fails the test with the server's answer otherwise. */
async function adminOk(method: 'PUT' | 'POST', url: string, payload: object) {
  const response = await admin(method, url, payload);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response;
}

function read(name: string, params: object) {
  return app.server.inject({ method: 'POST', url: `/reads/${name}`, payload: params });
}

function product(name: string, extra: object = {}) {
  return { name, prices: { DKK: 10_000, EUR: 1_350 }, ...extra };
}

const JACKET = {
  externalId: 'ext-jacket',
  name: 'Rain jacket',
  description: 'Keeps you dry',
  sku: 'JKT-001',
  url: 'https://shop-a.example/jacket',
  images: ['/demo-media/jacket-1.jpg', '/demo-media/jacket-2.jpg'],
  prices: { DKK: 79_900, EUR: 10_700 },
  stock: 12,
  options: [
    {
      id: 'color',
      optionType: 'color',
      name: 'Colour',
      optionValues: [
        { id: 'red', name: 'Red', images: ['/demo-media/jacket-red.jpg'] },
        { id: 'blue', name: 'Blue' },
      ],
    },
    {
      id: 'size',
      optionType: 'size',
      name: 'Size',
      optionValues: [
        { id: 's', name: 'S' },
        { id: 'm', name: 'M' },
      ],
    },
  ],
  variants: [
    {
      uid: 'jacket-red-s',
      name: 'Red / S',
      sku: 'JKT-001-RS',
      prices: { DKK: 79_900 },
      stock: 3,
      options: [
        { optionId: 'color', optionValueId: 'red' },
        { optionId: 'size', optionValueId: 's' },
      ],
    },
    {
      uid: 'jacket-blue-m',
      name: 'Blue / M',
      prices: { DKK: 84_900 },
      options: [
        { optionId: 'color', optionValueId: 'blue' },
        { optionId: 'size', optionValueId: 'm' },
      ],
    },
  ],
};

/** A show of shop-a's main campaign named `eventName`, live from NOW, with `fields` over that. */
function liveEventInput(eventName: string, fields: object = {}) {
  return {
    pageUid: 'shop-a',
    campaignId: 'camp-main',
    currentStatus: 'live',
    eventName,
    eventStartTimestamp: NOW,
    ...fields,
  };
}

function event(id: string, fields: Record<string, unknown>) {
  return adminOk('PUT', `/admin/events/${id}`, { pageUid: 'shop-a', campaignId: 'camp-main', ...fields });
}

beforeAll(async () => {
  app = await openTestApp({ now: () => NOW });

  await adminOk('PUT', '/admin/pages/shop-a', { name: 'Shop A', language: 'da', currency: 'DKK' });
  await adminOk('PUT', '/admin/pages/shop-b', { name: 'Shop B', language: 'sv', currency: 'SEK' });

  await adminOk('PUT', '/staff/stores/shop-a/products/jacket', JACKET);
  await adminOk(
    'PUT',
    '/staff/stores/shop-a/products/mug',
    product('Mug', { images: ['/demo-media/mug.jpg'] }),
  );
  await adminOk('PUT', '/staff/stores/shop-a/products/scarf', product('Scarf'));
  await adminOk('PUT', '/staff/stores/shop-a/products/hat', product('Hat'));
  await adminOk('PUT', '/staff/stores/shop-a/products/socks', product('Socks'));
  await adminOk('PUT', '/staff/stores/shop-b/products/lamp', product('Lamp'));

  await adminOk('PUT', '/admin/pages/shop-a/campaigns/camp-main', {
    name: 'Main campaign',
    deadline: NOW + 7 * 24 * 60 * MINUTE,
    usingCheckout: true,
  });
  await adminOk('PUT', '/admin/pages/shop-a/campaigns/camp-vod-fresh', {
    name: 'Fresh vod',
    deadline: NOW - GRACE,
  });
  await adminOk('PUT', '/admin/pages/shop-a/campaigns/camp-vod-stale', {
    name: 'Stale vod',
    deadline: NOW - GRACE - 1,
  });
  await adminOk('PUT', '/admin/pages/shop-b/campaigns/camp-b', { name: 'Shop B campaign' });

  await event('ev-planned-edge', {
    currentStatus: 'planned',
    eventName: 'Edge',
    eventStartTimestamp: NOW - GRACE,
  });
  await event('ev-planned-late', {
    currentStatus: 'planned',
    eventName: 'Too late',
    eventStartTimestamp: NOW - GRACE - 1,
  });
  await event('ev-planned-future', {
    currentStatus: 'planned',
    eventName: 'Next week',
    eventStartTimestamp: NOW + 60 * MINUTE,
  });
  await event('ev-live', {
    currentStatus: 'live',
    eventName: 'Live now',
    eventStartTimestamp: NOW - 10 * 24 * 60 * MINUTE,
    liveStartTime: NOW - 30 * MINUTE,
    cdn: 'mux',
    cdnLiveVideoId: 'live-123',
    liveVideoFormat: { width: 1080, height: 1920, picture: '/demo-media/poster.jpg' },
    coverPhotoPath: '/demo-media/cover.jpg',
    onsiteCartMode: 'cart',
    broadcastDelayMs: 1000,
  });
  await event('ev-vod-fresh', {
    campaignId: 'camp-vod-fresh',
    currentStatus: 'vod',
    eventName: 'Fresh recording',
    eventStartTimestamp: NOW - 2 * 24 * 60 * MINUTE,
  });
  await event('ev-vod-stale', {
    campaignId: 'camp-vod-stale',
    currentStatus: 'vod',
    eventName: 'Stale recording',
    eventStartTimestamp: NOW - 3 * 24 * 60 * MINUTE,
  });
  await event('ev-private-live', {
    status: 'private',
    currentStatus: 'live',
    eventName: 'Private',
    eventStartTimestamp: NOW,
  });
  await event('ev-draft-planned', {
    status: 'draft',
    currentStatus: 'planned',
    eventName: 'Draft',
    eventStartTimestamp: NOW + MINUTE,
  });
  await adminOk('PUT', '/admin/events/ev-shop-b', {
    pageUid: 'shop-b',
    campaignId: 'camp-b',
    currentStatus: 'live',
    eventName: 'Shop B live',
    eventStartTimestamp: NOW,
  });

  // Five products on the live event, put in out of order.
  await adminOk('PUT', '/admin/events/ev-live/products/ep-mug', { productUid: 'mug', sorting: 2 });
  await adminOk('PUT', '/admin/events/ev-live/products/ep-jacket', {
    productUid: 'jacket',
    sorting: 1,
    presentationTime: 5_000,
    presentationEndTime: 65_000,
    relativeCues: [{ presentationTime: 5_000, presentationEndTime: 65_000 }],
    absoluteCues: [{ presentationTime: NOW - 25 * MINUTE, presentationEndTime: null }],
    cues: [{ source: 'controlCenter', presentationStartTimestamp: NOW - 20 * MINUTE }],
    studioControlled: true,
  });
  await adminOk('PUT', '/admin/events/ev-live/products/ep-socks', { productUid: 'socks', sorting: 5 });
  await adminOk('PUT', '/admin/events/ev-live/products/ep-scarf', { productUid: 'scarf', sorting: 3 });
  await adminOk('PUT', '/admin/events/ev-live/products/ep-hat', { productUid: 'hat', sorting: 4 });
  await adminOk('PUT', '/admin/events/ev-planned-future/products/ep-mug', { productUid: 'mug' });
});

afterAll(async () => {
  await app?.close();
});

describe('admin API', () => {
  it("stamps an event's first publication and the on-site updates log with the app's clock", async () => {
    // The app's clock is fixed at NOW: a stamp from the machine's clock would be years later.
    const [published] = await app.db.query<{ first_published_at: string | number | null }>(
      "SELECT first_published_at FROM live_events WHERE id = 'ev-live'",
    );
    expect(Number(published?.first_published_at)).toBe(NOW);
    const [draft] = await app.db.query<{ first_published_at: string | number | null }>(
      "SELECT first_published_at FROM live_events WHERE id = 'ev-draft-planned'",
    );
    expect(draft?.first_published_at).toBeNull();
    const updates = await app.db.query<{ time: string | number }>(
      "SELECT DISTINCT time FROM onsite_event_updates WHERE event_id = 'ev-live'",
    );
    expect(updates.map((update) => Number(update.time))).toEqual([NOW]);
  });

  it('rejects a variant that references an unknown option value with 400', async () => {
    const response = await admin('PUT', '/staff/stores/shop-a/products/bad-jacket', {
      ...JACKET,
      variants: [
        {
          uid: 'jacket-green',
          name: 'Green',
          prices: { DKK: 1 },
          options: [{ optionId: 'color', optionValueId: 'green' }],
        },
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'invalid_request',
      message: 'variants.0.options: unknown option value color/green',
    });
    // Nothing was stored: attaching the product finds no such product.
    const attach = await admin('PUT', '/admin/events/ev-live/products/ep-bad', { productUid: 'bad-jacket' });
    expect(attach.statusCode).toBe(404);
  });

  it('answers 404 for a product uid of another store: the studio never takes it over', async () => {
    const response = await admin('PUT', '/staff/stores/shop-b/products/mug', product('Stolen mug'));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found', message: 'No product "mug" in this store.' });
  });

  // Bug (see report): ProductInput does not require unique variant uids, so the second insert
  // violates the product_variants primary key and the answer is a 500. Remove `.fails` once fixed.
  it('rejects two variants with the same uid with 400, not 500', async () => {
    const response = await admin('PUT', '/staff/stores/shop-a/products/twin-variants', {
      ...product('Twins'),
      variants: [
        { uid: 'twin', name: 'One', prices: { DKK: 1 }, options: [] },
        { uid: 'twin', name: 'Two', prices: { DKK: 2 }, options: [] },
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_request');
  });

  // Bug (see report): stock and sorting are validated as any safe integer but stored in INTEGER
  // columns, so values from 2^31 up fail in the database with a 500. Remove `.fails` once fixed.
  it('rejects a stock beyond the INTEGER column with 400, not 500', async () => {
    const response = await admin(
      'PUT',
      '/staff/stores/shop-a/products/huge-stock',
      product('Huge', { stock: 2 ** 31 }),
    );
    expect(response.statusCode).toBe(400);
  });

  it('rejects a sorting beyond the INTEGER column with 400, not 500', async () => {
    const response = await admin('PUT', '/admin/events/ev-live/products/ep-huge', {
      productUid: 'mug',
      sorting: 2 ** 31,
    });
    expect(response.statusCode).toBe(400);
  });

  it('requires the admin key', async () => {
    const response = await app.server.inject({
      method: 'PUT',
      url: '/admin/events/ev-sneaky',
      payload: liveEventInput('x'),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('unauthorized');
    const lookup = await read('liveEvents.byId', { ids: ['ev-sneaky'] });
    expect(lookup.json()).toEqual([]);
  });

  it('answers 404 when attaching a product of another store', async () => {
    const response = await admin('PUT', '/admin/events/ev-live/products/ep-lamp', { productUid: 'lamp' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: 'not_found',
      message: 'No product "lamp" in this event\'s store.',
    });
    const products = (await read('liveEventProducts', { eventId: 'ev-live' })).json();
    expect(products.map((p: { uid: string }) => p.uid)).not.toContain('ep-lamp');
  });

  it('answers 404 when attaching a product to an unknown event', async () => {
    const response = await admin('PUT', '/admin/events/ev-missing/products/ep-mug', { productUid: 'mug' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found', message: 'No event with id "ev-missing".' });
  });

  it('answers 409 for an event in a campaign of another store', async () => {
    const response = await admin(
      'PUT',
      '/admin/events/ev-cross',
      liveEventInput('Cross-store', { campaignId: 'camp-b' }),
    );
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'conflict',
      message: 'Campaign "camp-b" belongs to another store.',
    });
    expect((await read('liveEvents.byId', { ids: ['ev-cross'] })).json()).toEqual([]);
  });

  it('answers 404 for an event in an unknown campaign', async () => {
    const response = await admin(
      'PUT',
      '/admin/events/ev-orphan',
      liveEventInput('Orphan', { campaignId: 'camp-nowhere' }),
    );
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'not_found', message: 'No campaign with uid "camp-nowhere".' });
  });

  it('answers 409 for a campaign uid already used by another store', async () => {
    const response = await admin('PUT', '/admin/pages/shop-a/campaigns/camp-b', { name: 'Hijack' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'conflict',
      message: 'Campaign "camp-b" belongs to another store.',
    });
  });

  it('rejects an invalid event payload with 400 naming the field', async () => {
    const response = await admin(
      'PUT',
      '/admin/events/ev-bad',
      liveEventInput('Bad', { currentStatus: 'finished' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_request');
    expect(response.json().message).toMatch(/^currentStatus: /);
  });
});

describe('POST /reads/liveEvents.shop (spec §4)', () => {
  async function shop() {
    const response = await read('liveEvents.shop', { pageUid: 'shop-a' });
    expect(response.statusCode).toBe(200);
    return response.json() as ShopEvents;
  }
  const ids = (events: { id: string }[]) => events.map((e) => e.id);

  it('lists public planned events that start no earlier than 15 minutes ago, soonest first', async () => {
    const { planned } = await shop();
    expect(ids(planned)).toEqual(['ev-planned-edge', 'ev-planned-future']);
  });

  it('hides a planned event that started 15 minutes and 1 ms ago', async () => {
    const all = await shop();
    expect([...ids(all.live), ...ids(all.planned), ...ids(all.vod)]).not.toContain('ev-planned-late');
  });

  it('lists every public live event however long ago it started, and only this store’s', async () => {
    const { live } = await shop();
    expect(ids(live)).toEqual(['ev-live']);
  });

  it('lists vod events whose campaign deadline is no earlier than 15 minutes ago', async () => {
    const { vod } = await shop();
    expect(ids(vod)).toEqual(['ev-vod-fresh']);
  });

  it('hides private and draft events', async () => {
    const all = await shop();
    const shown = [...ids(all.live), ...ids(all.planned), ...ids(all.vod)];
    expect(shown).not.toContain('ev-private-live');
    expect(shown).not.toContain('ev-draft-planned');
    expect(shown.sort()).toEqual(['ev-live', 'ev-planned-edge', 'ev-planned-future', 'ev-vod-fresh']);
  });

  it('summarises each event’s products for its card', async () => {
    const { live, planned, vod } = await shop();
    expect(live[0]?.shopSummary).toEqual({
      productCount: 5,
      previewProducts: [
        {
          uid: 'jacket',
          name: 'Rain jacket',
          image: '/demo-media/jacket-1.jpg',
          prices: { DKK: 79_900, EUR: 10_700 },
        },
        { uid: 'mug', name: 'Mug', image: '/demo-media/mug.jpg', prices: { DKK: 10_000, EUR: 1_350 } },
        { uid: 'scarf', name: 'Scarf', image: null, prices: { DKK: 10_000, EUR: 1_350 } },
        { uid: 'hat', name: 'Hat', image: null, prices: { DKK: 10_000, EUR: 1_350 } },
      ],
    });
    expect(planned.find((e) => e.id === 'ev-planned-future')?.shopSummary).toEqual({
      productCount: 1,
      previewProducts: [
        { uid: 'mug', name: 'Mug', image: '/demo-media/mug.jpg', prices: { DKK: 10_000, EUR: 1_350 } },
      ],
    });
    expect(vod[0]?.shopSummary).toEqual({ productCount: 0, previewProducts: [] });
  });

  it('answers with the ShopEvents contract', async () => {
    const body = await shop();
    expect(ShopEvents.parse(body)).toEqual(body);
  });

  it('moves events across the 15-minute edge as the clock advances', async () => {
    const later = await openTestApp({ now: () => NOW + 1 });
    try {
      await later.server.inject({
        method: 'PUT',
        url: '/admin/pages/shop-c',
        headers: adminHeaders,
        payload: { name: 'C' },
      });
      await later.server.inject({
        method: 'PUT',
        url: '/admin/pages/shop-c/campaigns/camp-c',
        headers: adminHeaders,
        payload: { name: 'C', deadline: NOW - GRACE },
      });
      for (const [id, currentStatus] of [
        ['ev-c-planned', 'planned'],
        ['ev-c-vod', 'vod'],
      ] as const) {
        const put = await later.server.inject({
          method: 'PUT',
          url: `/admin/events/${id}`,
          headers: adminHeaders,
          payload: {
            pageUid: 'shop-c',
            campaignId: 'camp-c',
            currentStatus,
            eventName: id,
            eventStartTimestamp: NOW - GRACE,
          },
        });
        expect(put.statusCode).toBe(200);
      }
      const response = await later.server.inject({
        method: 'POST',
        url: '/reads/liveEvents.shop',
        payload: { pageUid: 'shop-c' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ live: [], planned: [], vod: [] });
    } finally {
      await later.close();
    }
  });

  it('answers 404 for an unknown page', async () => {
    const response = await read('liveEvents.shop', { pageUid: 'shop-nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: 'not_found',
      message: 'No store with page uid "shop-nowhere".',
    });
  });
});

describe('POST /reads/liveEvents.byId and liveEvents.byCampaign', () => {
  const elevenIds = Array.from({ length: 11 }, (_, i) => `ev-${i}`);

  it('rejects more than 10 ids with 400', async () => {
    const byId = await read('liveEvents.byId', { ids: elevenIds });
    expect(byId.statusCode).toBe(400);
    expect(byId.json()).toEqual({ error: 'invalid_request', message: 'ids: at most 10 ids per lookup' });

    const byCampaign = await read('liveEvents.byCampaign', { campaignIds: elevenIds });
    expect(byCampaign.statusCode).toBe(400);
    expect(byCampaign.json()).toEqual({
      error: 'invalid_request',
      message: 'campaignIds: at most 10 ids per lookup',
    });
  });

  it('rejects an empty id list and ids with illegal characters', async () => {
    expect((await read('liveEvents.byId', { ids: [] })).statusCode).toBe(400);
    const illegal = await read('liveEvents.byId', { ids: ['ev-live', "x' OR 1=1"] });
    expect(illegal.statusCode).toBe(400);
    expect(illegal.json().message).toBe('ids.1: may contain only letters, digits, "-" and "_"');
  });

  it('does not return draft events by id', async () => {
    const response = await read('liveEvents.byId', { ids: ['ev-draft-planned', 'ev-private-live'] });
    expect((response.json() as LiveEvent[]).map((r) => r.id)).toEqual(['ev-private-live']);
  });

  it('answers 404 for the products of an unknown event', async () => {
    const response = await read('liveEventProducts', { eventId: 'no-such-event' });
    expect(response.statusCode).toBe(404);
  });

  it('accepts exactly 10 ids and returns the known ones as LiveEvent records', async () => {
    const tenIds = ['ev-live', 'ev-vod-fresh', ...elevenIds.slice(0, 8)];
    const response = await read('liveEvents.byId', { ids: tenIds });
    expect(response.statusCode).toBe(200);
    const records = response.json() as LiveEvent[];
    expect(records.map((r) => r.id)).toEqual(['ev-live', 'ev-vod-fresh']);
    for (const record of records) expect(LiveEvent.parse(record)).toEqual(record);
  });

  it('returns the full live event record of spec §3', async () => {
    const [record] = (await read('liveEvents.byId', { ids: ['ev-live'] })).json() as LiveEvent[];
    expect(record).toEqual({
      id: 'ev-live',
      event: {
        status: 'public',
        currentStatus: 'live',
        eventName: 'Live now',
        eventStartTimestamp: NOW - 10 * 24 * 60 * MINUTE,
        storeInfo: { id: 'shop-a', language: 'da', currency: 'DKK' },
        liveStartTime: NOW - 30 * MINUTE,
        liveEndTime: null,
        cdn: 'mux',
        cdnLiveVideoId: 'live-123',
        cdnVideoId: null,
        cdnVideoStartTime: null,
        cdnMp4VideoUrl: null,
        liveVideoFormat: { width: 1080, height: 1920, picture: '/demo-media/poster.jpg' },
        liveVideoCover: null,
        coverPhotoPath: '/demo-media/cover.jpg',
        videoHasOverlay: false,
        campaignId: 'camp-main',
        onsiteCartMode: 'cart',
        leadModeAfterDeadline: false,
        useOnsiteCart: false,
        broadcastDelayMs: 1000,
        cdnDelayMs: null,
      },
      campaign: { deadline: NOW + 7 * 24 * 60 * MINUTE, usingCheckout: true },
      video: { cdn: 'mux', currentStatus: 'live' },
    });
    expect(typeof record?.event.eventStartTimestamp).toBe('number');
  });

  it('returns the events of the given campaigns, earliest start first', async () => {
    const response = await read('liveEvents.byCampaign', { campaignIds: ['camp-vod-fresh', 'camp-b'] });
    expect(response.statusCode).toBe(200);
    const records = response.json() as LiveEvent[];
    expect(records.map((r) => r.id)).toEqual(['ev-vod-fresh', 'ev-shop-b']);
    for (const record of records) expect(LiveEvent.parse(record)).toEqual(record);
    expect(records[1]?.event.storeInfo).toEqual({ id: 'shop-b', language: 'sv', currency: 'SEK' });
    expect(records[0]?.campaign).toEqual({ deadline: NOW - GRACE, usingCheckout: false });
  });

  it('returns every event of a campaign except drafts (unpublished); private ones are open by link', async () => {
    const records = (
      await read('liveEvents.byCampaign', { campaignIds: ['camp-main'] })
    ).json() as LiveEvent[];
    expect(records.map((r) => r.id)).toEqual([
      'ev-live',
      'ev-planned-late',
      'ev-planned-edge',
      'ev-private-live',
      'ev-planned-future',
    ]);
    for (const record of records) expect(LiveEvent.parse(record)).toEqual(record);
  });

  it('reflects an upsert of an existing event instead of adding one', async () => {
    await adminOk('PUT', '/admin/pages/shop-a/campaigns/camp-upsert', { name: 'Upserts' });
    const base = { campaignId: 'camp-upsert', status: 'private' };
    await event('ev-upsert', {
      ...base,
      currentStatus: 'planned',
      eventName: 'Before',
      eventStartTimestamp: NOW + 2 * MINUTE,
    });
    await event('ev-upsert', {
      ...base,
      currentStatus: 'live',
      eventName: 'After',
      eventStartTimestamp: NOW + 2 * MINUTE,
      videoCurrentStatus: 'planned',
    });
    const records = (await read('liveEvents.byId', { ids: ['ev-upsert'] })).json() as LiveEvent[];
    expect(records).toHaveLength(1);
    expect(records[0]?.event.eventName).toBe('After');
    expect(records[0]?.event.currentStatus).toBe('live');
    expect(records[0]?.video).toEqual({ cdn: null, currentStatus: 'planned' });
    const rows = await app.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM live_events WHERE id = 'ev-upsert'",
    );
    expect(rows).toEqual([{ count: 1 }]);
  });
});

describe('POST /reads/liveEventProducts', () => {
  it('returns the event products ordered by sorting, with product, options, variants and cues', async () => {
    const response = await read('liveEventProducts', { eventId: 'ev-live' });
    expect(response.statusCode).toBe(200);
    const products = response.json() as EventProduct[];
    expect(products.map((p) => [p.uid, p.sorting])).toEqual([
      ['ep-jacket', 1],
      ['ep-mug', 2],
      ['ep-scarf', 3],
      ['ep-hat', 4],
      ['ep-socks', 5],
    ]);
    for (const item of products) expect(EventProduct.parse(item)).toEqual(item);

    const jacket = products[0];
    expect(jacket).toMatchObject({
      uid: 'ep-jacket',
      eventId: 'ev-live',
      productUid: 'jacket',
      externalId: 'ext-jacket',
      sku: 'JKT-001',
      url: 'https://shop-a.example/jacket',
      relativeCues: [{ presentationTime: 5_000, presentationEndTime: 65_000 }],
      absoluteCues: [{ presentationTime: NOW - 25 * MINUTE, presentationEndTime: null }],
      presentationTime: 5_000,
      presentationEndTime: 65_000,
      studioControlled: true,
      showAllProductsWhenEventStarts: false,
    });
    expect(jacket?.cues).toEqual([
      {
        source: 'controlCenter',
        presentationStartTimestamp: NOW - 20 * MINUTE,
        presentationEndTimestamp: null,
        deleted: false,
      },
    ]);
    // A variant product's stock is its variants' (the studio's rule): one of them is not counted.
    expect(jacket?.product.stock).toBeNull();
    expect(jacket?.product.options.map((o) => [o.id, o.optionValues.map((v) => v.id)])).toEqual([
      ['color', ['red', 'blue']],
      ['size', ['s', 'm']],
    ]);
    expect(jacket?.product.options[0]?.optionValues[0]).toEqual({
      id: 'red',
      name: 'Red',
      images: ['/demo-media/jacket-red.jpg'],
      styleUrl: null,
      minimumPrice: null,
    });
    // The variants as they were put, the second with the defaults of what it left out.
    expect(jacket?.product.variants).toEqual([
      JACKET.variants[0],
      { ...JACKET.variants[1], sku: '', stock: null },
    ]);
  });

  it('includes cues appended through POST /admin/events/:id/products/:uid/cues, in time order', async () => {
    const appended = await admin('POST', '/admin/events/ev-live/products/ep-scarf/cues', {
      source: 'controlCenter',
      presentationStartTimestamp: NOW - 5 * MINUTE,
      presentationEndTimestamp: NOW - 4 * MINUTE,
    });
    expect(appended.statusCode).toBe(201);
    expect(appended.json()).toEqual({ uid: 'ep-scarf' });
    await adminOk('POST', '/admin/events/ev-live/products/ep-scarf/cues', {
      source: 'studio',
      presentationStartTimestamp: NOW - 10 * MINUTE,
      deleted: true,
    });

    const products = (await read('liveEventProducts', { eventId: 'ev-live' })).json() as EventProduct[];
    const scarf = products.find((p) => p.uid === 'ep-scarf');
    expect(scarf?.cues).toEqual([
      {
        source: 'studio',
        presentationStartTimestamp: NOW - 10 * MINUTE,
        presentationEndTimestamp: null,
        deleted: true,
      },
      {
        source: 'controlCenter',
        presentationStartTimestamp: NOW - 5 * MINUTE,
        presentationEndTimestamp: NOW - 4 * MINUTE,
        deleted: false,
      },
    ]);
    // The other products' cues are untouched.
    expect(products.find((p) => p.uid === 'ep-mug')?.cues).toEqual([]);
    expect(products.find((p) => p.uid === 'ep-jacket')?.cues).toHaveLength(1);
  });

  it('answers 404 when appending a cue to a product not in the event', async () => {
    const response = await admin('POST', '/admin/events/ev-live/products/ep-nothing/cues', {
      source: 'controlCenter',
      presentationStartTimestamp: NOW,
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: 'not_found',
      message: 'No product "ep-nothing" in event "ev-live".',
    });
  });

  it('replaces an event product and its cues when upserted again', async () => {
    await adminOk('PUT', '/admin/events/ev-planned-edge/products/ep-swap', {
      productUid: 'hat',
      cues: [
        { source: 'controlCenter', presentationStartTimestamp: NOW },
        { source: 'controlCenter', presentationStartTimestamp: NOW + 1 },
      ],
    });
    await adminOk('PUT', '/admin/events/ev-planned-edge/products/ep-swap', {
      productUid: 'socks',
      sorting: 7,
      cues: [{ source: 'studio', presentationStartTimestamp: NOW + 2 }],
    });
    const products = (
      await read('liveEventProducts', { eventId: 'ev-planned-edge' })
    ).json() as EventProduct[];
    expect(products).toHaveLength(1);
    expect(products[0]).toMatchObject({ uid: 'ep-swap', productUid: 'socks', sorting: 7 });
    expect(products[0]?.product.name).toBe('Socks');
    expect(products[0]?.cues).toEqual([
      {
        source: 'studio',
        presentationStartTimestamp: NOW + 2,
        presentationEndTimestamp: null,
        deleted: false,
      },
    ]);
  });

  it('returns an empty list for an event without products', async () => {
    const response = await read('liveEventProducts', { eventId: 'ev-vod-fresh' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([]);
  });
});

describe('POST /reads/:name', () => {
  it('answers 404 for an unknown read name', async () => {
    for (const name of ['liveEvents.all', 'toString', '__proto__']) {
      const response = await read(name, { pageUid: 'shop-a' });
      expect(response.statusCode, name).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: `Unknown read "${name}".` });
    }
  });
});
