import { FLASH_DEAL_ENDED_MESSAGE } from '@vitrine/domain';
import {
  CampaignPresentationDoc,
  type CartUpdateResponse,
  type CreateFlashDealInput,
  FlashDealAdminView,
  FlashDealList,
} from '@vitrine/protocol';
import { WATCH_HEARTBEAT_EVENT } from '@vitrine/protocol/vocabulary';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CAMPAIGN,
  call,
  EVENT,
  HOME_DELIVERY,
  PRICES,
  SHOP,
  type Shopper,
  signIn,
} from '../../test-support/commerce-fixture.ts';
import { commerceTestApp } from '../../test-support/commerce-test-app.ts';
import { signInStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';
import { adminHeaders } from '../../test-support/test-app.ts';

let host: TestStaffMember;
let moderator: TestStaffMember;
/** The app's clock: real time unless a test pins it. */
let pinned: number | null = null;
const SHOW = `/staff/stores/${SHOP}/shows/${EVENT}`;
const BROADCAST_DELAY_MS = 750;

const app = commerceTestApp({ app: { now: () => pinned ?? Date.now() }, store: { flashStock: 1000 } });

beforeAll(async () => {
  host = await signInStaff(app(), SHOP, 'host');
  moderator = await signInStaff(app(), SHOP, 'moderator');
});

async function studio(
  who: { headers: Record<string, string> } | null,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
) {
  const response = await app().server.inject({
    method,
    url,
    headers: { ...(who?.headers ?? {}), ...(payload ? { 'content-type': 'application/json' } : {}) },
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  });
  return { status: response.statusCode, body: response.body ? response.json() : {} };
}

const terms: CreateFlashDealInput = {
  productUid: 'flash',
  prices: { DKK: 4900 },
  countdownSec: 10,
  durationSec: 60,
  totalUnits: 10,
  perShopperLimit: 1,
};

async function prepare(overrides: Partial<CreateFlashDealInput> = {}) {
  const answer = await studio(host, 'POST', `${SHOW}/flash-deals`, { ...terms, ...overrides });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return FlashDealAdminView.parse(answer.body);
}

async function start(uid: string) {
  const answer = await studio(host, 'POST', `${SHOW}/control-room/flash-deals/${uid}/start`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return FlashDealAdminView.parse(answer.body);
}

const headersOf = (shopper: Shopper) => ({ authorization: `Bearer ${shopper.token}` });

async function addDeal(shopper: Shopper, dealUid: string, streamPositionMs: number | null, quantity = 1) {
  const response = await app().server.inject({
    method: 'POST',
    url: '/shopapiv2/flash-deals/add',
    headers: headersOf(shopper),
    payload: { pageUid: SHOP, campaignUid: CAMPAIGN, dealUid, streamPositionMs, quantity },
  });
  return {
    status: response.statusCode,
    body: response.json() as CartUpdateResponse & { error?: string; message: string },
  };
}

/** The viewer's player reports her delay behind the stream clock (the watch heartbeat). */
async function reportDelay(shopper: Shopper, delayMs: number) {
  const response = await app().server.inject({
    method: 'POST',
    url: '/shopapiv2/tracking',
    headers: { ...headersOf(shopper), 'content-type': 'application/json' },
    payload: JSON.stringify({
      trackingEvent: WATCH_HEARTBEAT_EVENT,
      timestamp: Date.now(),
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
      eventUid: EVENT,
      eventStatus: 'live',
      playback: 'live',
      watchedSeconds: 1,
      delayMs,
    }),
  });
  expect(response.statusCode, response.body).toBe(204);
}

describe('preparing and starting flash deals: roles and validation', () => {
  it('a viewer or a moderator cannot prepare or start a deal', async () => {
    const deal = await prepare();
    const viewer = await signIn(app());
    expect(
      (
        await studio(
          { headers: headersOf(viewer) },
          'POST',
          `${SHOW}/control-room/flash-deals/${deal.uid}/start`,
        )
      ).status,
    ).toBeGreaterThanOrEqual(401);
    expect((await studio(null, 'POST', `${SHOW}/control-room/flash-deals/${deal.uid}/start`)).status).toBe(
      401,
    );
    expect(
      (await studio(moderator, 'POST', `${SHOW}/control-room/flash-deals/${deal.uid}/start`)).status,
    ).toBe(403);
    expect((await studio(moderator, 'POST', `${SHOW}/flash-deals`, terms)).status).toBe(403);
    const list = FlashDealList.parse((await studio(host, 'GET', `${SHOW}/flash-deals`)).body);
    expect(list.deals.find((candidate) => candidate.uid === deal.uid)?.status).toBe('prepared');
  });

  it('malformed or invalid terms are a 4xx with a message', async () => {
    const bad = async (payload: object) => {
      const answer = await studio(host, 'POST', `${SHOW}/flash-deals`, payload);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(typeof answer.body.message).toBe('string');
      return answer.body.message as string;
    };
    expect(await bad({ ...terms, prices: { DKK: PRICES.flash.DKK } })).toMatch(/below the regular price/);
    expect(await bad({ ...terms, countdownSec: 5 })).toMatch(/countdownSec/);
    expect(await bad({ ...terms, durationSec: 30 * 60 })).toMatch(/durationSec/);
    expect(await bad({ ...terms, totalUnits: 0 })).toMatch(/totalUnits/);
    expect(await bad({ ...terms, perShopperLimit: 0 })).toMatch(/perShopperLimit/);
    expect(await bad({ productUid: 'flash' })).toMatch(/prices|countdownSec/);
    expect(await bad({ ...terms, extra: true })).toBeTruthy();
    const notInShow = await studio(host, 'POST', `${SHOW}/flash-deals`, {
      ...terms,
      productUid: 'unlisted',
      prices: { DKK: 1 },
    });
    expect(notInShow.status).toBe(422);
    const viewer = await signIn(app());
    const malformedAdd = await app().server.inject({
      method: 'POST',
      url: '/shopapiv2/flash-deals/add',
      headers: headersOf(viewer),
      payload: { pageUid: SHOP, campaignUid: CAMPAIGN, dealUid: 'x', streamPositionMs: 'soon' },
    });
    expect(malformedAdd.statusCode).toBe(400);
  });
});

describe('the deal price on the stream clock', () => {
  it('an add 100 ms before the end in her stream time gets the deal price; one 100 ms after is refused', async () => {
    const deal = await prepare({ totalUnits: 50 });
    pinned = Date.now();
    const started = await start(deal.uid);
    const endOnStream = (started.startedAt as number) + (10 + 60) * 1000 + BROADCAST_DELAY_MS;

    // Before the countdown is over on her screen: not yet.
    const early = await signIn(app());
    pinned = (started.startedAt as number) + 5000;
    const tooEarly = await addDeal(early, deal.uid, pinned - 500);
    expect(tooEarly.status).toBe(409);
    expect(tooEarly.body.error).toBe('deal_not_started');

    const inTime = await signIn(app());
    await reportDelay(inTime, 1000);
    pinned = endOnStream + 800;
    const added = await addDeal(inTime, deal.uid, endOnStream - 100);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.status).toBe('added');
    const [line] = await app().db.query<{ unit_price: string }>(
      'SELECT l.unit_price FROM checkout_lines l JOIN checkouts c ON c.uid = l.checkout_uid WHERE c.user_uid = $1',
      [inTime.uid],
    );
    expect(Number(line?.unit_price)).toBe(4900);

    const late = await signIn(app());
    await reportDelay(late, 1000);
    const refused = await addDeal(late, deal.uid, endOnStream + 100);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('deal_ended');
    expect(refused.body.message).toBe(FLASH_DEAL_ENDED_MESSAGE);
    pinned = null;
  });

  it('a viewer 3 s behind gets the same end on her screen; a claim beyond her measured delay does not', async () => {
    const deal = await prepare({ totalUnits: 50 });
    pinned = Date.now();
    const started = await start(deal.uid);
    const endOnStream = (started.startedAt as number) + 70_000 + BROADCAST_DELAY_MS;

    // Two viewers press at the frame 100 ms before the end: one at the edge, one 3 s behind.
    const atEdge = await signIn(app());
    await reportDelay(atEdge, 0);
    pinned = endOnStream - 100;
    expect((await addDeal(atEdge, deal.uid, endOnStream - 100)).body.status).toBe('added');

    const behind = await signIn(app());
    await reportDelay(behind, 3000);
    pinned = endOnStream - 100 + 3000;
    const behindAnswer = await addDeal(behind, deal.uid, endOnStream - 100);
    expect(behindAnswer.status, JSON.stringify(behindAnswer.body)).toBe(200);
    expect(behindAnswer.body.status).toBe('added');
    // The frame after the end, for her too, is refused.
    const behindLate = await signIn(app());
    await reportDelay(behindLate, 3000);
    pinned = endOnStream + 100 + 3000;
    expect((await addDeal(behindLate, deal.uid, endOnStream + 100)).body.error).toBe('deal_ended');

    // Claims to be 3 s behind, but her player measured 1 s: moved up to 2 s behind at most, past the end.
    const claimant = await signIn(app());
    await reportDelay(claimant, 1000);
    pinned = endOnStream - 100 + 3000;
    expect((await addDeal(claimant, deal.uid, endOnStream - 100)).body.error).toBe('deal_ended');
    pinned = null;

    const list = FlashDealList.parse((await studio(host, 'GET', `${SHOW}/flash-deals`)).body);
    const figures = list.deals.find((candidate) => candidate.uid === deal.uid);
    expect(figures?.stats).toMatchObject({ adds: 2, units: 2 });
  });
});

describe('deal stock', () => {
  it('200 shoppers at once for 10 deal units: exactly 10 at the deal price, none oversold, sold out shown at once', async () => {
    const deal = await prepare({ totalUnits: 10, perShopperLimit: 1 });
    await start(deal.uid);
    const opensOnStream = Date.now() + 10_000 + BROADCAST_DELAY_MS;
    pinned = opensOnStream + 1000;
    const shoppers: Shopper[] = [];
    for (let i = 0; i < 200; i++) shoppers.push(await signIn(app()));
    const answers = await Promise.all(shoppers.map((shopper) => addDeal(shopper, deal.uid, null)));
    const added = answers.filter((answer) => answer.status === 200 && answer.body.status === 'added');
    const soldOut = answers.filter((answer) => answer.body.error === 'deal_sold_out');
    expect(added).toHaveLength(10);
    expect(soldOut).toHaveLength(190);
    const [row] = await app().db.query<{ units_taken: number }>(
      'SELECT units_taken FROM flash_deals WHERE uid = $1',
      [deal.uid],
    );
    expect(row?.units_taken).toBe(10);
    const [lines] = await app().db.query<{ units: number }>(
      `SELECT COALESCE(SUM(l.qty), 0)::int AS units FROM checkout_lines l
       WHERE l.product_uid = 'flash' AND l.unit_price = 4900
         AND l.checkout_uid IN (SELECT checkout_uid FROM flash_deal_claims WHERE deal_uid = $1)`,
      [deal.uid],
    );
    expect(lines?.units).toBe(10);
    const [presentation] = await app().db.query<{ data: unknown }>(
      'SELECT data FROM campaign_presentations WHERE page_uid = $1 AND campaign_uid = $2',
      [SHOP, CAMPAIGN],
    );
    const doc = CampaignPresentationDoc.parse({
      ...(presentation?.data as object),
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
    });
    expect(doc.flashDeals?.find((candidate) => candidate.uid === deal.uid)).toMatchObject({
      soldOut: true,
      unitsLeft: 0,
    });
    pinned = null;
  });

  it('one shopper gets at most the per-shopper limit', async () => {
    const deal = await prepare({ totalUnits: 10, perShopperLimit: 2 });
    await start(deal.uid);
    pinned = Date.now() + 12_000;
    const shopper = await signIn(app());
    expect((await addDeal(shopper, deal.uid, null, 2)).body.status).toBe('added');
    const again = await addDeal(shopper, deal.uid, null, 1);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('deal_limit');
    pinned = null;
  });

  it('ended early by the host: refused, listed as ended, and the replay sees it ended', async () => {
    const deal = await prepare();
    await start(deal.uid);
    const ended = await studio(host, 'POST', `${SHOW}/control-room/flash-deals/${deal.uid}/end`);
    expect(ended.status).toBe(200);
    expect(FlashDealAdminView.parse(ended.body).status).toBe('ended');
    pinned = Date.now() + 60_000;
    const shopper = await signIn(app());
    expect((await addDeal(shopper, deal.uid, null)).body.error).toBe('deal_ended');
    pinned = null;
  });
});

describe('analytics', () => {
  it("the show's analytics count each deal's views and adds (revenue for the owner only)", async () => {
    const deal = await prepare({ totalUnits: 5 });
    await start(deal.uid);
    pinned = Date.now() + 12_000;
    const shopper = await signIn(app());
    const viewed = await app().server.inject({
      method: 'POST',
      url: '/shopapiv2/flash-deals/viewed',
      headers: headersOf(shopper),
      payload: { pageUid: SHOP, campaignUid: CAMPAIGN, dealUid: deal.uid },
    });
    expect(viewed.statusCode).toBe(200);
    const added = await addDeal(shopper, deal.uid, null);
    expect(added.body.status).toBe('added');
    pinned = null;
    // She orders it: the deal's order and revenue (1 × 49,00 kr.).
    const ref = { pageUid: SHOP, campaignUid: CAMPAIGN, checkoutUid: added.body.checkoutUid as string };
    await call(app(), shopper, '/functions/customerpage/updateCheckoutDetails', {
      ...ref,
      details: HOME_DELIVERY,
    });
    const placed = await call(app(), shopper, '/functions/customerpage/placeOrder', ref);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const owner = await signInStaff(app(), SHOP, 'owner');
    const report = async (who: TestStaffMember) => {
      const answer = await studio(who, 'GET', `/staff/stores/${SHOP}/analytics/shows/${EVENT}`);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const deals = (
        answer.body as { flashDeals?: { uid: string; views: number; adds: number; revenue: unknown }[] }
      ).flashDeals;
      return deals?.find((candidate) => candidate.uid === deal.uid);
    };
    expect(await report(owner)).toMatchObject({
      views: 1,
      adds: 1,
      orders: 1,
      revenue: [{ currency: 'DKK', amount: 4900 }],
    });
    expect(await report(host)).toMatchObject({ views: 1, adds: 1, orders: 1, revenue: null });
  });
});

describe('deal units are held like stock', () => {
  it('a unit whose cart line was removed goes to the next shopper once the deal sold out', async () => {
    const deal = await prepare({ totalUnits: 1, perShopperLimit: 1 });
    await start(deal.uid);
    pinned = Date.now() + 12_000;
    const first = await signIn(app());
    const added = await addDeal(first, deal.uid, null);
    expect(added.body.status).toBe('added');
    const second = await signIn(app());
    expect((await addDeal(second, deal.uid, null)).body.error).toBe('deal_sold_out');
    // She takes it out of her cart: the unit is free again for the deal.
    const removed = await app().server.inject({
      method: 'POST',
      url: '/functions/customerpage/changeCheckoutProductQuantity',
      headers: headersOf(first),
      payload: {
        pageUid: SHOP,
        campaignUid: CAMPAIGN,
        checkoutUid: added.body.checkoutUid,
        productUid: 'flash',
        quantity: 0,
      },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    pinned = Date.now() + 14_000;
    expect((await addDeal(second, deal.uid, null)).body.status).toBe('added');
    const third = await signIn(app());
    expect((await addDeal(third, deal.uid, null)).body.error).toBe('deal_sold_out');
    pinned = null;
  });
});

describe('a cart line has one price', () => {
  it('a regular add never rides on a deal line, nor a deal add on a regular line', async () => {
    const deal = await prepare({ totalUnits: 5, perShopperLimit: 1 });
    await start(deal.uid);
    pinned = Date.now() + 12_000;
    const dealFirst = await signIn(app());
    expect((await addDeal(dealFirst, deal.uid, null)).body.status).toBe('added');
    const regular = await app().server.inject({
      method: 'POST',
      url: '/shopapiv2/cart/addSingle',
      headers: headersOf(dealFirst),
      payload: { pageUid: SHOP, campaignUid: CAMPAIGN, productUid: 'flash', quantity: 1 },
    });
    expect(regular.statusCode).toBe(409);
    expect(regular.json().error).toBe('price_mismatch');

    const regularFirst = await signIn(app());
    const first = await app().server.inject({
      method: 'POST',
      url: '/shopapiv2/cart/addSingle',
      headers: headersOf(regularFirst),
      payload: { pageUid: SHOP, campaignUid: CAMPAIGN, productUid: 'flash', quantity: 1 },
    });
    expect(first.json().status).toBe('added');
    const dealAfter = await addDeal(regularFirst, deal.uid, null);
    expect(dealAfter.status).toBe(409);
    expect(dealAfter.body.error).toBe('price_mismatch');
    // The refused add gave its deal unit back.
    const [row] = await app().db.query<{ units_taken: number }>(
      'SELECT units_taken FROM flash_deals WHERE uid = $1',
      [deal.uid],
    );
    expect(row?.units_taken).toBe(1);
    pinned = null;
  });
});

describe('after the live show (runs last: it ends the show)', () => {
  it('a started deal takes no add once the show is a replay, and a prepared one cannot start', async () => {
    const running = await prepare({ durationSec: 20 * 60 });
    await start(running.uid);
    const prepared = await prepare();
    const ended = await app().server.inject({
      method: 'PUT',
      url: `/admin/events/${EVENT}`,
      headers: adminHeaders,
      payload: {
        pageUid: SHOP,
        campaignId: CAMPAIGN,
        status: 'public',
        currentStatus: 'vod',
        eventName: 'Live cart show',
        eventStartTimestamp: Date.now() - 600_000,
      },
    });
    expect(ended.statusCode, ended.body).toBeLessThan(300);
    pinned = Date.now() + 12_000;
    const shopper = await signIn(app());
    const answer = await addDeal(shopper, running.uid, null);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe('deal_ended');
    pinned = null;
    const refused = await studio(host, 'POST', `${SHOW}/control-room/flash-deals/${prepared.uid}/start`);
    expect(refused.status).toBe(409);
  });
});
