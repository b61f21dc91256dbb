import { minuteOf } from '@vitrine/domain';
import type { CsvFile, ShowAnalytics, StoreAnalytics, TrackingEventInput } from '@vitrine/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { cartWithMug, payOrder, placeOrder, saveCheckoutDetails } from '../../test-support/checkout-steps.ts';
import {
  adminWrite,
  CAMPAIGN,
  call,
  EVENT,
  PRICES,
  SHOP,
  type Shopper,
  signIn,
} from '../../test-support/commerce-fixture.ts';
import { commerceTestApp } from '../../test-support/commerce-test-app.ts';
import { manualTimers } from '../../test-support/manual-timers.ts';
import { signInStoreStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';
import { adminHeaders } from '../../test-support/test-app.ts';
import { createAnalyticsService } from './analytics-service.ts';

const timers = manualTimers();
let owner: TestStaffMember;
let host: TestStaffMember;
let moderator: TestStaffMember;
const startedAt = Date.now();

const app = commerceTestApp({
  // The app's clock runs ahead, so the rollup (which leaves the last 2 s to inserts still
  // committing) reads the events a test has just sent.
  app: { now: () => Date.now() + 5_000, analyticsTimer: timers.schedule },
  store: { now: startedAt },
});

beforeAll(async () => {
  await adminWrite(app(), 'POST', `/admin/events/${EVENT}/products/mug/cues`, {
    source: 'host',
    presentationStartTimestamp: startedAt - 30_000,
  });
  ({ owner, host, moderator } = await signInStoreStaff(app(), SHOP));
});

let addressCounter = 0;

/** Sends tracking events as one viewer's player would, from an address of its own. */
async function track(events: TrackingEventInput[], shopper?: Shopper): Promise<void> {
  const response = await app().server.inject({
    method: 'POST',
    url: '/shopapiv2/tracking',
    remoteAddress: `203.0.113.${++addressCounter}`,
    headers: {
      'content-type': 'application/json',
      ...(shopper ? { authorization: `Bearer ${shopper.token}` } : {}),
    },
    payload: JSON.stringify({ events }),
  });
  expect(response.statusCode, response.body).toBe(204);
}

const viewerEvent = (viewerUid: string, overrides: Partial<TrackingEventInput> = {}): TrackingEventInput => ({
  trackingEvent: 'player.heartbeat',
  timestamp: Date.now(),
  pageUid: SHOP,
  campaignUid: CAMPAIGN,
  eventUid: EVENT,
  eventStatus: 'live',
  viewerUid,
  playback: 'live',
  watchedSeconds: 30,
  ...overrides,
});

async function studio<T>(who: TestStaffMember, path: string): Promise<{ status: number; body: T }> {
  const response = await app().server.inject({
    method: 'GET',
    url: `/staff/stores/${SHOP}/${path}`,
    headers: who.headers,
  });
  return { status: response.statusCode, body: response.json() as T };
}

/** A shopper's placed and paid order of one mug; answers its checkout. */
async function paidMugOrder(shopper: Shopper): Promise<string> {
  const checkoutUid = await cartWithMug(app(), shopper);
  await saveCheckoutDetails(app(), shopper, checkoutUid);
  await placeOrder(app(), shopper, checkoutUid);
  await payOrder(app(), shopper, checkoutUid);
  return checkoutUid;
}

describe('show analytics', () => {
  let buyer: Shopper;

  beforeAll(async () => {
    buyer = await signIn(app());
    // Three live viewers and one replay viewer; viewer-a twice in the minute (counted once).
    await track([viewerEvent('viewer-aaaa'), viewerEvent('viewer-aaaa')]);
    await track([viewerEvent('viewer-bbbb', { playingProducts: ['mug'] })]);
    await track([viewerEvent('viewer-dddd', { playback: 'replay', eventStatus: 'vod', watchedSeconds: 10 })]);
    await track(
      [
        viewerEvent('viewer-cccc'),
        viewerEvent('viewer-cccc', {
          trackingEvent: 'catalog.viewed-product-details',
          watchedSeconds: null,
          trackingInfo: { productUid: 'mug' },
        }),
        viewerEvent('viewer-cccc', {
          trackingEvent: 'cart.added-to-cart',
          watchedSeconds: null,
          trackingInfo: { productUid: 'mug' },
        }),
        viewerEvent('viewer-cccc', { trackingEvent: 'user.commented', watchedSeconds: null }),
        viewerEvent('viewer-cccc', { trackingEvent: 'user.reacted', watchedSeconds: null }),
      ],
      buyer,
    );
    await paidMugOrder(buyer);
    // The buyer enters the show's raffle.
    const raffle = await app().server.inject({
      method: 'POST',
      url: `/staff/stores/${SHOP}/shows/${EVENT}/competitions`,
      headers: adminHeaders,
      payload: { type: 'raffle', name: 'Win a mug', openForParticipation: true, playing: true },
    });
    expect(raffle.statusCode, raffle.body).toBe(201);
    await call(app(), buyer, '/functions/customerpage/updateUser', {
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
      customerUid: buyer.uid,
      updates: { name: 'Ada' },
    });
    const entered = await call<{ status: string }>(app(), buyer, '/shopapiv2/competition/participate', {
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
      competitionUid: (raffle.json() as { uid: string }).uid,
      text: 'Me!',
    });
    expect(entered.body.status, JSON.stringify(entered.body)).toBe('participated');
    // An event naming a campaign that does not exist is stored but never rolled up.
    await track([viewerEvent('viewer-forged', { campaignUid: 'no-such-campaign' })]);
    await timers.fireAll();
  });

  it('reports viewers, engagement, the funnel and the orders per minute and per product to the owner', async () => {
    const { status, body } = await studio<ShowAnalytics>(owner, `analytics/shows/${EVENT}`);
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.revenueVisible).toBe(true);
    expect(body.totals).toMatchObject({
      uniqueViewers: 4,
      liveViewers: 3,
      replayViewers: 1,
      comments: 1,
      reactions: 1,
      competitionEntries: 1,
      adds: 1,
      orders: 1,
      paidOrders: 1,
      revenue: [{ currency: 'DKK', amount: PRICES.mug.DKK }],
      averageOrderValue: [{ currency: 'DKK', amount: PRICES.mug.DKK }],
    });
    expect(body.totals.conversionRate).toBeCloseTo(0.25);
    expect(body.totals.averageWatchSeconds).toBe(Math.round((60 + 30 + 30 + 10) / 4));
    const viewed = body.minutes.find((minute) => minute.viewersLive > 0);
    expect(viewed).toMatchObject({
      viewersLive: 3,
      viewersReplay: 1,
      productViews: 1,
      adds: 1,
      detailsOpened: 1,
    });
    const ordered = body.minutes.find((minute) => minute.orders > 0);
    expect(ordered?.revenue).toEqual([{ currency: 'DKK', amount: PRICES.mug.DKK }]);
    expect(body.totals.peakViewers).toBe(4);
    expect(body.retention[0]).toBe(1);
    expect(body.chapters).toEqual([
      expect.objectContaining({ productUid: 'mug', name: 'Mug', start: startedAt - 30_000 }),
    ]);
    const mug = body.funnel.find((row) => row.productUid === 'mug');
    expect(mug).toMatchObject({
      name: 'Mug',
      presented: 4,
      detailsOpened: 1,
      added: 1,
      ordered: 1,
      paid: 1,
      quantity: 1,
      revenue: [{ currency: 'DKK', amount: PRICES.mug.DKK }],
    });
    expect(body.funnel.map((row) => row.productUid)).toEqual(
      expect.arrayContaining(['mug', 'shirt', 'flash']),
    );
  });

  it('counts a viewer once per minute across rollup runs, and adds later events to the same minute', async () => {
    const before = (await studio<ShowAnalytics>(owner, `analytics/shows/${EVENT}`)).body;
    await track([viewerEvent('viewer-aaaa'), viewerEvent('viewer-eeee')]);
    await timers.fireAll();
    const after = (await studio<ShowAnalytics>(owner, `analytics/shows/${EVENT}`)).body;
    const minute = minuteOf(Date.now());
    const now = after.minutes.find((entry) => entry.minute === minute);
    const then = before.minutes.find((entry) => entry.minute === minute);
    // viewer-aaaa was (maybe) already counted in this minute; viewer-eeee is new.
    expect((now?.viewersLive ?? 0) - (then?.viewersLive ?? 0)).toBeGreaterThanOrEqual(1);
    expect((now?.viewersLive ?? 0) - (then?.viewersLive ?? 0)).toBeLessThanOrEqual(2);
    expect(after.totals.uniqueViewers).toBe(before.totals.uniqueViewers + 1);
    expect(after.totals.orders).toBe(1);
  });

  it('counts a slice once when two nodes roll up at the same time', async () => {
    const { services } = app();
    // A second node's job on the same database.
    const twin = createAnalyticsService({
      db: app().db,
      tracking: services.tracking,
      showOrders: (campaignUid) => services.orderAdmin.showOrders(campaignUid),
      participation: (campaignUid) => services.competitions.participationPerMinute(campaignUid),
      events: services.events,
      shows: services.shows,
      now: () => Date.now() + 5_000,
      retentionDays: 90,
      scheduleTimer: timers.schedule,
    });
    const before = (await studio<ShowAnalytics>(owner, `analytics/shows/${EVENT}`)).body.totals;
    await track([viewerEvent('viewer-twin', { trackingEvent: 'user.reacted', watchedSeconds: null })]);
    await Promise.all([twin.rollup(), services.analytics.rollup()]);
    const after = (await studio<ShowAnalytics>(owner, `analytics/shows/${EVENT}`)).body.totals;
    expect(after.reactions).toBe(before.reactions + 1);
    expect(after.uniqueViewers).toBe(before.uniqueViewers + 1);
  });

  it('gives hosts the report without revenue, and moderators nothing', async () => {
    const { status, body } = await studio<ShowAnalytics>(host, `analytics/shows/${EVENT}`);
    expect(status).toBe(200);
    expect(body.revenueVisible).toBe(false);
    expect(body.totals.revenue).toBeNull();
    expect(body.totals.averageOrderValue).toBeNull();
    expect(body.totals.orders).toBe(1);
    expect(body.minutes.every((minute) => minute.revenue === null)).toBe(true);
    expect(body.funnel.every((row) => row.revenue === null)).toBe(true);
    expect((await studio(moderator, `analytics/shows/${EVENT}`)).status).toBe(403);
    expect((await studio(moderator, 'analytics')).status).toBe(403);
    expect((await studio(host, `analytics/shows/${EVENT}/events`)).status).toBe(403);
  });

  it('answers 404 for a show of another store and 400 for a bad export kind', async () => {
    const other = await studio(owner, 'analytics/shows/no-such-show');
    expect(other.status).toBe(404);
    const bad = await studio<{ message: string }>(owner, `analytics/shows/${EVENT}/export?kind=everything`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^kind: /);
  });

  it('lists the store’s shows side by side with weekly trends', async () => {
    const { status, body } = await studio<StoreAnalytics>(owner, 'analytics');
    expect(status).toBe(200);
    const show = body.shows.find((entry) => entry.showUid === EVENT);
    expect(show).toMatchObject({
      name: 'Live cart show',
      orders: 1,
      revenue: [{ currency: 'DKK', amount: PRICES.mug.DKK }],
    });
    expect(show?.uniqueViewers).toBeGreaterThanOrEqual(4);
    expect(body.weeks.at(-1)).toMatchObject({ orders: 1 });
    const asHost = await studio<StoreAnalytics>(host, 'analytics');
    expect(asHost.body.shows.find((entry) => entry.showUid === EVENT)?.revenue).toBeNull();
  });

  it('exports the per-minute rollup, the funnel and the raw events as CSV', async () => {
    const minutes = await studio<CsvFile>(owner, `analytics/shows/${EVENT}/export?kind=minutes`);
    expect(minutes.status).toBe(200);
    const [header, ...rows] = minutes.body.csv.trim().split('\n');
    expect(header).toBe(
      'Minute (UTC),Live viewers,Replay viewers,Product views,Watch seconds,Comments,Reactions,Competition entries,Details opened,Adds to cart,Orders,"Revenue (items, excl. freight, before refunds)"',
    );
    expect(rows.some((row) => row.endsWith(',1,179.00 DKK'))).toBe(true);
    const funnel = await studio<CsvFile>(owner, `analytics/shows/${EVENT}/export?kind=funnel`);
    expect(funnel.body.csv).toContain('Mug,mug,');
    expect(funnel.body.csv).toContain(',1,1,1,179.00 DKK');
    const hostFunnel = await studio<CsvFile>(host, `analytics/shows/${EVENT}/export?kind=funnel`);
    expect(hostFunnel.body.csv).not.toContain('DKK');
    const events = await studio<CsvFile>(owner, `analytics/shows/${EVENT}/events`);
    expect(events.status).toBe(200);
    expect(events.body.csv.split('\n')[0]).toBe(
      'Received (UTC),Event,Viewer,Playback,Watched seconds,Product uid,Video time,Delay ms',
    );
    expect(events.body.csv).toContain('cart.added-to-cart,viewer-cccc,live,0,mug');
    expect(events.body.csv).not.toContain('viewer-forged');
  });

  it('quotes a product name a spreadsheet would run as a formula out of the CSV', async () => {
    for (const [method, url, payload] of [
      [
        'PUT',
        `/staff/stores/${SHOP}/products/formula`,
        { name: '=HYPERLINK("https://evil.example")', prices: { DKK: 100 }, stock: 1 },
      ],
      ['PUT', `/admin/events/${EVENT}/products/formula`, { productUid: 'formula', sorting: 9 }],
    ] as const) {
      await adminWrite(app(), method, url, payload);
    }
    const funnel = await studio<CsvFile>(owner, `analytics/shows/${EVENT}/export?kind=funnel`);
    expect(funnel.body.csv).toContain(`"'=HYPERLINK(""https://evil.example"")",formula,`);
    expect(funnel.body.csv).not.toMatch(/^=|\n=|,=/);
  });

  it('never rolls up a forged campaign', async () => {
    const rows = await app().db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM analytics_shows WHERE campaign_uid = 'no-such-campaign'",
    );
    expect(rows[0]?.count).toBe(0);
  });
});

describe('a paid order sent to packing and partly refunded (issue 33 item 12)', () => {
  const FREIGHT = 4_900;
  const REFUND = 10_000;

  beforeAll(async () => {
    const checkoutUid = await paidMugOrder(await signIn(app()));
    for (const [path, payload] of [
      ['packing', undefined],
      ['refunds', { amount: REFUND, requestKey: 'analytics-refund-1' }],
    ] as const) {
      const response = await app().server.inject({
        method: 'POST',
        url: `/staff/stores/${SHOP}/orders/${checkoutUid}/${path}`,
        headers: owner.headers,
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, response.body).toBe(200);
    }
    await timers.fireAll();
  });

  it('still counts as paid, in the report and the products, with gross, refunds and net revenue', async () => {
    const { body } = await studio<ShowAnalytics>(owner, `analytics/shows/${EVENT}`);
    expect(body.totals).toMatchObject({ orders: 2, paidOrders: 2 });
    expect(body.funnel.find((row) => row.productUid === 'mug')).toMatchObject({ ordered: 2, paid: 2 });
    const items = 2 * PRICES.mug.DKK;
    expect(body.totals.revenueBreakdown).toEqual([
      {
        currency: 'DKK',
        items,
        freight: 2 * FREIGHT,
        gross: items + 2 * FREIGHT,
        refunds: REFUND,
        net: items + 2 * FREIGHT - REFUND,
        netWithoutFreight: items - REFUND,
      },
    ]);
    const asHost = await studio<ShowAnalytics>(host, `analytics/shows/${EVENT}`);
    expect(asHost.body.totals.revenueBreakdown).toBeNull();
  });

  it('says so in the products CSV and the labelled revenue CSV', async () => {
    const funnel = await studio<CsvFile>(owner, `analytics/shows/${EVENT}/export?kind=funnel`);
    // Ordered 2, paid 2, quantity 2.
    expect(funnel.body.csv).toContain(',2,2,2,358.00 DKK');
    const revenue = await studio<CsvFile>(owner, `analytics/shows/${EVENT}/export?kind=revenue`);
    expect(revenue.status).toBe(200);
    expect(revenue.body.csv.trim().split('\n')).toEqual([
      'Currency,"Items (excl. freight, before refunds)",Freight,Gross (items + freight),Refunds,Net (gross - refunds),Net excl. freight (items - refunds)',
      'DKK,358.00,98.00,456.00,100.00,356.00,258.00',
    ]);
    const hostRevenue = await studio<CsvFile>(host, `analytics/shows/${EVENT}/export?kind=revenue`);
    expect(hostRevenue.body.rows).toBe(0);
  });
});

describe('tracking for analytics', () => {
  it('refuses a bad viewer id, playback, watch seconds or delay with a 400 naming the field', async () => {
    for (const [field, value] of [
      ['viewerUid', 'a b'],
      ['playback', 'rewind'],
      ['watchedSeconds', 61],
      ['delayMs', -1],
    ] as const) {
      const response = await app().server.inject({
        method: 'POST',
        url: '/shopapiv2/tracking',
        remoteAddress: `203.0.113.${++addressCounter}`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ ...viewerEvent('viewer-zzzz'), [field]: value }),
      });
      expect(response.statusCode, field).toBe(400);
      expect(response.json().message).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('accepts the last heartbeat a closing page sends (text/plain, keepalive) and counts its seconds', async () => {
    const watched = async () => {
      await timers.fireAll();
      const { body } = await studio<ShowAnalytics>(owner, `analytics/shows/${EVENT}`);
      return body.minutes.reduce((sum, minute) => sum + minute.watchSeconds, 0);
    };
    const before = await watched();
    // As the player's page-hide flush sends it: one event, a text/plain body, the seconds since
    // the last 30 s heartbeat.
    const response = await app().server.inject({
      method: 'POST',
      url: '/shopapiv2/tracking',
      remoteAddress: '198.51.100.77',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: JSON.stringify(viewerEvent('viewer-leaving', { watchedSeconds: 12 })),
    });
    expect(response.statusCode, response.body).toBe(204);
    expect(await watched()).toBe(before + 12);
  });

  it('stores no client address with the events', async () => {
    const columns = await app().db.query<{ column_name: string }>(
      "SELECT column_name FROM information_schema.columns WHERE table_name = 'tracking_events'",
    );
    expect(columns.map((column) => column.column_name).join(' ')).not.toMatch(/ip|address|cookie/i);
  });

  it('deletes raw events older than the retention and keeps the rollups', async () => {
    await app().db.query(
      `INSERT INTO tracking_events (tracking_event, page_uid, campaign_uid, payload, received_at)
       VALUES ('player.play', $1, $2, '{}'::jsonb, now() - interval '91 days')`,
      [SHOP, CAMPAIGN],
    );
    const purged = await app().services.tracking.purgeBefore(Date.now() - 90 * 24 * 60 * 60_000);
    expect(purged).toBe(1);
    const { body } = await studio<ShowAnalytics>(owner, `analytics/shows/${EVENT}`);
    // The show's two orders (the paid one and the one refunded in part), as before the purge.
    expect(body.totals.orders).toBe(2);
  });
});
