import {
  type CheckoutView,
  CompetitionAdminView,
  ControlRoom,
  ControlRoomPresentations,
  ControlRoomStats,
  DrawWinnersResponse,
  type PaymentStarted,
  type TrackingEventInput,
} from '@vitrine/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addSingle,
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
import {
  createTestStore,
  signInStaff,
  signInStoreStaff,
  type TestStaffMember,
} from '../../test-support/studio-staff.ts';

import { postTrackingEvents } from '../../test-support/tracking-requests.ts';
import { NOT_IN_SHOW_MESSAGE, TOO_MANY_PRESENTED_MESSAGE } from '../events/product-presentations.ts';
import { ADDS_SETTLE_MS, createControlRoomService } from './control-room-service.ts';

let owner: TestStaffMember;
let host: TestStaffMember;
let moderator: TestStaffMember;
let stranger: TestStaffMember;
const startedAt = Date.now();
/** Moves the app's clock on (the room's figures and their settled count of adds follow it). */
let clockAhead = 0;
const ROOM = `/staff/stores/${SHOP}/shows/${EVENT}/control-room`;

const app = commerceTestApp({ app: { now: () => Date.now() + clockAhead }, store: { now: startedAt } });

beforeAll(async () => {
  ({ owner, host, moderator } = await signInStoreStaff(app(), SHOP));
  stranger = await signInStaff(app(), await createTestStore(app()), 'owner');
});

async function studio(
  who: TestStaffMember,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await app().server.inject({
    method,
    url,
    headers: { ...who.headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  });
  return { status: response.statusCode, body: response.body ? response.json() : {} };
}

const present = (who: TestStaffMember, uid: string) => studio(who, 'POST', `${ROOM}/presented`, { uid });
const stats = async (who: TestStaffMember) => {
  const answer = await studio(who, 'GET', `${ROOM}/stats`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return ControlRoomStats.parse(answer.body);
};

/** The room's figures once they satisfy `ready` (they are shared for under a second), else the last ones. */
async function statsWhen(who: TestStaffMember, ready: (figures: ControlRoomStats) => boolean) {
  let figures = await stats(who);
  for (let tries = 0; !ready(figures) && tries < 50; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    figures = await stats(who);
  }
  return figures;
}

/** The cues of the show's products as viewers' players get them. */
async function viewerCues(uid: string) {
  const products = await app().services.events.publishedEventProducts(EVENT);
  return products.find((product) => product.uid === uid)?.cues ?? [];
}

const track = (events: TrackingEventInput[]) => postTrackingEvents(app(), events);
const viewerEvent = (overrides: Partial<TrackingEventInput>): TrackingEventInput => ({
  trackingEvent: 'user.commented',
  timestamp: Date.now(),
  pageUid: SHOP,
  campaignUid: CAMPAIGN,
  eventUid: EVENT,
  eventStatus: 'live',
  ...overrides,
});

describe('presenting products', () => {
  it('presents a product as a control-center cue stamped now, which viewers get', async () => {
    const before = Date.now();
    const answer = await present(host, 'mug');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const presentations = ControlRoomPresentations.parse(answer.body);
    expect(presentations.presented.map((p) => p.uid)).toEqual(['mug']);
    const [cue] = await viewerCues('mug');
    expect(cue).toMatchObject({ source: 'control-center', presentationEndTimestamp: null, deleted: false });
    expect(cue?.presentationStartTimestamp).toBeGreaterThanOrEqual(before);
    expect(cue?.presentationStartTimestamp).toBeLessThanOrEqual(Date.now());
  });

  it('refuses a product that is not in the show with a clear 422', async () => {
    const answer = await present(host, 'unlisted');
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ error: 'not_in_show', message: NOT_IN_SHOW_MESSAGE });
  });

  it('refuses a product presented already, and a fourth at once', async () => {
    expect((await present(host, 'mug')).status).toBe(409);
    // A fourth product, added to the line-up mid-show (the line-up call keeps the cues).
    const lineup = await studio(host, 'PUT', `/staff/stores/${SHOP}/shows/${EVENT}/lineup`, {
      productUids: ['mug', 'shirt', 'flash', 'unlisted'],
    });
    expect(lineup.status, JSON.stringify(lineup.body)).toBe(200);
    const room = ControlRoom.parse((await studio(host, 'GET', ROOM)).body);
    const added = room.lineup.find((item) => item.productUid === 'unlisted');
    if (!added) throw new Error('the product was added');
    expect(room.presented.map((p) => p.uid)).toEqual(['mug']);
    expect((await present(host, 'shirt')).status).toBe(200);
    expect((await present(host, 'flash')).status).toBe(200);
    const fourth = await present(host, added.uid);
    expect(fourth.status).toBe(409);
    expect(fourth.body).toEqual({ error: 'too_many_presented', message: TOO_MANY_PRESENTED_MESSAGE });
  });

  it('stops presenting: the presentation ends now and stays in the history (the replay chapters)', async () => {
    const answer = await studio(host, 'DELETE', `${ROOM}/presented/mug`);
    expect(answer.status).toBe(200);
    const presentations = ControlRoomPresentations.parse(answer.body);
    expect(presentations.presented.map((p) => p.uid)).toEqual(['shirt', 'flash']);
    const mug = presentations.history.find((p) => p.uid === 'mug');
    expect(mug?.end).not.toBeNull();
    expect((await viewerCues('mug'))[0]?.presentationEndTimestamp).toBe(mug?.end);
    // Stopping again (the other person was quicker) changes nothing.
    const again = await studio(host, 'DELETE', `${ROOM}/presented/mug`);
    expect(ControlRoomPresentations.parse(again.body)).toEqual(presentations);
  });

  it('marks a product sold out, which viewers see in the show', async () => {
    const answer = await studio(host, 'POST', `${ROOM}/lineup/mug/sold-out`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(ControlRoom.parse(answer.body).lineup.find((item) => item.uid === 'mug')?.soldOut).toBe(true);
    const products = await app().services.events.publishedEventProducts(EVENT);
    expect(products.find((product) => product.uid === 'mug')?.product.stock).toBe(0);
    const shirt = await studio(host, 'POST', `${ROOM}/lineup/shirt/sold-out`);
    const shirtItem = ControlRoom.parse(shirt.body).lineup.find((item) => item.uid === 'shirt');
    expect(shirtItem?.soldOut).toBe(true);
    const figures = await statsWhen(moderator, (candidate) => candidate.soldOut.length === 2);
    expect(figures.soldOut.sort()).toEqual(['mug', 'shirt']);
  });
});

describe('roles', () => {
  it('lets a moderator see the room but neither present, stop, mark sold out nor end the show', async () => {
    const room = await studio(moderator, 'GET', ROOM);
    expect(room.status).toBe(200);
    expect(ControlRoom.parse(room.body).can).toEqual({ present: false, runStream: false, seeRevenue: false });
    expect((await present(moderator, 'flash')).status).toBe(403);
    expect((await studio(moderator, 'DELETE', `${ROOM}/presented/flash`)).status).toBe(403);
    expect((await studio(moderator, 'POST', `${ROOM}/lineup/flash/sold-out`)).status).toBe(403);
    expect((await studio(moderator, 'POST', `/staff/stores/${SHOP}/shows/${EVENT}/stream/end`)).status).toBe(
      403,
    );
  });

  it("refuses another store's staff", async () => {
    expect((await studio(stranger, 'GET', ROOM)).status).toBe(403);
    expect((await studio(stranger, 'GET', `${ROOM}/stats`)).status).toBe(403);
    expect((await present(stranger, 'flash')).status).toBe(403);
  });
});

/** A shopper's placed and paid order of one flash-sale item. */
async function paidOrder(shopper: Shopper, productUid: string): Promise<void> {
  const ref = { pageUid: SHOP, campaignUid: CAMPAIGN };
  const checkoutUid = (await addSingle(app(), shopper, productUid)).body.checkoutUid as string;
  await call(app(), shopper, '/functions/customerpage/updateCheckoutDetails', {
    ...ref,
    checkoutUid,
    details: HOME_DELIVERY,
  });
  const placed = await call<CheckoutView>(app(), shopper, '/functions/customerpage/placeOrder', {
    ...ref,
    checkoutUid,
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  const started = await call<PaymentStarted>(app(), shopper, '/functions/customerpage/userPaymentStarted', {
    ...ref,
    checkoutUid,
  });
  expect(started.status).toBe(200);
}

describe('the live numbers', () => {
  it("count what viewers did, with the viewers' median delay; revenue hidden from moderators", async () => {
    const before = await stats(owner);
    expect(before).toMatchObject({ commentsPerMinute: 0, reactionsPerMinute: 0, addsToCart: 0, orders: 0 });
    expect(before.medianDelayMs).toBeNull();
    await track([
      viewerEvent({ trackingEvent: 'user.commented' }),
      viewerEvent({ trackingEvent: 'user.commented' }),
      viewerEvent({ trackingEvent: 'user.reacted' }),
      viewerEvent({ trackingEvent: 'user.reacted' }),
      viewerEvent({ trackingEvent: 'user.reacted' }),
      viewerEvent({ trackingEvent: 'cart.added-to-cart', trackingInfo: { productUid: 'flash' } }),
    ]);
    // Three viewers watching live report their delay; the older report of one is superseded, a replay's ignored.
    const heartbeat = (viewerUid: string, delayMs: number, playback: 'live' | 'replay' = 'live') =>
      viewerEvent({ trackingEvent: 'player.heartbeat', viewerUid, playback, watchedSeconds: 30, delayMs });
    await track([heartbeat('viewer-aaaaaaaa', 9000)]);
    await track([heartbeat('viewer-aaaaaaaa', 1000)]);
    await track([heartbeat('viewer-bbbbbbbb', 3000), heartbeat('viewer-cccccccc', 2000)]);
    await track([heartbeat('viewer-dddddddd', 60_000, 'replay')]);
    await paidOrder(await signIn(app()), 'flash');

    const owners = await statsWhen(owner, (figures) => figures.orders > 0);
    expect(owners).toMatchObject({
      commentsPerMinute: 2,
      reactionsPerMinute: 3,
      addsToCart: 1,
      orders: 1,
      medianDelayMs: 2000,
      delayReports: 3,
      viewers: 0,
    });
    expect(owners.revenue).toEqual([{ currency: 'DKK', amount: PRICES.flash.DKK }]);
    const flash = owners.presented.find((presentation) => presentation.uid === 'flash');
    expect(flash).toMatchObject({ addsToCart: 1, orders: 1 });

    const hosts = await stats(host);
    const moderators = await stats(moderator);
    expect(moderators.revenue).toBeNull();
    expect(hosts.revenue).toEqual(owners.revenue);
    expect(moderators).toMatchObject({ commentsPerMinute: 2, orders: 1, addsToCart: 1 });
    expect(JSON.stringify(moderators)).not.toContain(String(PRICES.flash.DKK));
  });

  it('keeps counting an add once as it moves from the newest events into the settled count', async () => {
    const before = (await stats(owner)).addsToCart;
    await track([viewerEvent({ trackingEvent: 'cart.added-to-cart', trackingInfo: { productUid: 'mug' } })]);
    const fresh = await statsWhen(owner, (figures) => figures.addsToCart === before + 1);
    expect(fresh.addsToCart).toBe(before + 1);
    // Past the settle time, twice: the add is read into the settled count, then kept there.
    for (const ahead of [ADDS_SETTLE_MS + 2_000, 2 * ADDS_SETTLE_MS + 4_000]) {
      clockAhead = ahead;
      const later = await statsWhen(owner, (figures) => figures.at >= Date.now() + ahead - 100);
      expect(later.addsToCart).toBe(before + 1);
    }
    clockAhead = 0;
  });
});

describe('competitions in the room', () => {
  const competitions = `/staff/stores/${SHOP}/shows/${EVENT}/competitions`;

  it('refuses a poll without options with a clear message', async () => {
    const answer = await studio(moderator, 'POST', competitions, {
      type: 'poll',
      name: 'Colour?',
      options: [],
    });
    expect(answer.status).toBe(400);
    expect(String(answer.body.message)).toContain('a poll or quiz needs at least 2 options');
  });

  it('refuses to draw from an empty raffle, then draws among entrants but the excluded (banned) ones', async () => {
    const created = await studio(moderator, 'POST', competitions, {
      type: 'raffle',
      name: 'Mug raffle',
      openForParticipation: true,
      playing: true,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const raffle = CompetitionAdminView.parse(created.body);
    const draw = (who: TestStaffMember) =>
      studio(who, 'POST', `${ROOM}/competitions/${raffle.uid}/draw`, { count: 1 });
    const empty = await draw(moderator);
    expect(empty.status).toBe(409);
    expect(empty.body.message).toBe('There is nobody left to draw: no participants who have not won yet.');

    const banned = await signIn(app());
    const fair = await signIn(app());
    for (const viewer of [banned, fair]) {
      const entered = await call(app(), viewer, '/shopapiv2/competition/participate', {
        pageUid: SHOP,
        campaignUid: CAMPAIGN,
        competitionUid: raffle.uid,
        text: 'Me!',
      });
      expect(entered.status, JSON.stringify(entered.body)).toBe(200);
    }
    // The room as composed with a moderation feature that has banned one entrant.
    const services = app().services;
    const room = createControlRoomService({
      now: Date.now,
      shows: services.shows,
      events: services.events,
      presentations: { read: async () => ({ presented: [], history: [] }) } as never,
      catalog: services.catalog,
      live: services.live,
      presence: services.presence,
      tracking: services.tracking,
      showOrders: () => Promise.resolve([]),
      competitions: services.competitions,
      exclusions: { bannedViewers: async () => new Set([banned.uid]) },
    });
    const { winners } = await room.draw(SHOP, EVENT, raffle.uid, 5);
    expect(winners.map((winner) => winner.userUid)).toEqual([fair.uid]);
    await expect(room.draw(SHOP, EVENT, raffle.uid, 1)).rejects.toMatchObject({ statusCode: 409 });

    const counts = await statsWhen(moderator, (figures) =>
      figures.competitions.some((c) => c.winnerCount > 0),
    );
    expect(counts.competitions.find((c) => c.uid === raffle.uid)).toMatchObject({
      participantCount: 2,
      winnerCount: 1,
    });
    // Through the call, the banned one can still be drawn (nobody is banned in this composition).
    const answer = await draw(moderator);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(DrawWinnersResponse.parse(answer.body).winners.map((w) => w.userUid)).toEqual([banned.uid]);
    const notice = await studio(moderator, 'POST', `${ROOM}/competitions/${raffle.uid}/announce`, {
      title: 'We have winners',
    });
    expect(notice.status).toBe(200);
    expect(notice.body).toEqual({ notified: 2 });
  });
});
