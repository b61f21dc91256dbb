import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/database.ts';
import {
  addSingle,
  adminWrite,
  CAMPAIGN,
  call,
  EVENT,
  PRICES,
  SHOP,
  type Shopper,
  seedCommerceStore,
  signIn,
} from '../../test-support/commerce-fixture.ts';
import {
  openSharedDatabase,
  startTestServer,
  type TestServer,
} from '../../test-support/realtime-test-client.ts';
import { openTestDatabase } from '../../test-support/test-app.ts';
import { shopperLimitMessage } from './cart-service.ts';

/**
 * An add reads the store, campaign, product, show line-up and shopper from its node's cache
 * (issue 18). Two nodes share one database, each with its own cache (and its own in-memory bus,
 * so nothing reaches the other node but the database): a change written through one node must
 * decide the very next add on the other.
 */
let db: Awaited<ReturnType<typeof openTestDatabase>>;
let secondDb: Database;
let nodeA: TestServer;
let nodeB: TestServer;

const lineOf = (answer: Awaited<ReturnType<typeof addSingle>>, productUid: string) =>
  answer.body.reservation.reservations.find((line) => line.mainProduct === productUid);

beforeAll(async () => {
  db = await openTestDatabase();
  secondDb = await openSharedDatabase(db);
  nodeA = await startTestServer({ db });
  nodeB = await startTestServer({ db: secondDb });
  await seedCommerceStore(nodeB, { now: Date.now(), flashStock: 1 });
});

afterAll(async () => {
  await nodeA?.close();
  await nodeB?.close();
  await secondDb?.close();
  await db?.dispose();
});

describe("an add on one node sees another node's changes at once", () => {
  it("a price and name changed on node B are copied into node A's next cart line", async () => {
    const first = await signIn(nodeA);
    const before = await addSingle(nodeA, first, 'mug');
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(lineOf(before, 'mug')).toMatchObject({ unitPrice: PRICES.mug.DKK, productName: 'Mug' });

    await adminWrite(nodeB, 'PUT', `/staff/stores/${SHOP}/products/mug`, {
      name: 'Mug, new glaze',
      sku: 'MUG',
      prices: { ...PRICES.mug, DKK: 14_900 },
      stock: 10,
    });
    const second = await signIn(nodeA);
    const after = await addSingle(nodeA, second, 'mug');
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(lineOf(after, 'mug')).toMatchObject({ unitPrice: 14_900, productName: 'Mug, new glaze' });
  });

  it("a store's units-per-shopper cap set on node B refuses node A's next add", async () => {
    const shopper = await signIn(nodeA);
    expect((await addSingle(nodeA, shopper, 'mug')).status).toBe(200);
    const page = { name: 'Cart Shop', language: 'da', currency: 'DKK' };
    await adminWrite(nodeB, 'PUT', `/admin/pages/${SHOP}`, {
      ...page,
      integritySettings: { maxUnitsPerShopper: 1 },
    });
    const refused = await addSingle(nodeA, shopper, 'mug');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: 'shopper_limit', message: shopperLimitMessage(1) });
    await adminWrite(nodeB, 'PUT', `/admin/pages/${SHOP}`, page);
    expect((await addSingle(nodeA, shopper, 'mug')).status).toBe(200);
  });

  it('a show turned back into a draft on node B no longer sells on node A', async () => {
    const shopper = await signIn(nodeA);
    expect((await addSingle(nodeA, shopper, 'mug')).body.status).toBe('added');
    const show = {
      pageUid: SHOP,
      campaignId: CAMPAIGN,
      status: 'public',
      currentStatus: 'live',
      eventName: 'Live cart show',
      eventStartTimestamp: Date.now() - 60_000,
    };
    await adminWrite(nodeB, 'PUT', `/admin/events/${EVENT}`, { ...show, status: 'draft' });
    expect((await addSingle(nodeA, shopper, 'mug')).body.status).toBe('notFound');
    await adminWrite(nodeB, 'PUT', `/admin/events/${EVENT}`, show);
    expect((await addSingle(nodeA, shopper, 'mug')).body.status).toBe('added');
  });

  it('a signed-out session is refused on node A as soon as node B ended it', async () => {
    const response = await nodeB.server.inject({
      method: 'POST',
      url: '/functions/auth/signInAnonymously',
      payload: {},
    });
    const session = response.json() as { idToken: string; refreshToken: string; user: { uid: string } };
    const shopper: Shopper = { uid: session.user.uid, token: session.idToken };
    expect((await addSingle(nodeA, shopper, 'mug')).status).toBe(200);
    const out = await nodeB.server.inject({
      method: 'POST',
      url: '/functions/auth/logout',
      payload: { refreshToken: session.refreshToken },
    });
    expect(out.statusCode, out.body).toBe(200);
    const refused = await addSingle(nodeA, shopper, 'mug');
    expect(refused.status).toBe(401);
  });

  it('units given back after a cached "sold out" are sold, not refused', async () => {
    const holder = await signIn(nodeA);
    const late = await signIn(nodeA);
    expect((await addSingle(nodeA, holder, 'flash')).body.status).toBe('added');
    // Any catalogue change makes node A read the product again: it now caches "0 left".
    await adminWrite(nodeB, 'PUT', `/staff/stores/${SHOP}/products/unlisted`, {
      name: 'Unlisted, renamed',
      prices: PRICES.mug,
      stock: 5,
    });
    expect((await addSingle(nodeA, late, 'flash')).body.status).toBe('soldOut');
    // The holder gives the unit back on node B: a stock move only, which leaves the read version.
    const cancelled = await call(nodeB, holder, '/functions/customerpage/cancelReservation', {
      user: holder.uid,
      pageUid: SHOP,
      campaign: CAMPAIGN,
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await addSingle(nodeA, late, 'flash')).body.status).toBe('added');
  });
});
