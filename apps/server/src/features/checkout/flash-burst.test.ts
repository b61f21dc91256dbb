import { CART_FEEDBACK_MESSAGES, type CartUpdateResponse } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CartTab, openCartTab } from '../../test-support/cart-tab.ts';
import {
  addSingle,
  adminWrite,
  EVENT,
  SHOP,
  type Shopper,
  seedCommerceStore,
  signIn,
  stockOf,
} from '../../test-support/commerce-fixture.ts';
import {
  type RealtimeTestClient,
  startTestServer,
  type TestServer,
} from '../../test-support/realtime-test-client.ts';
import { shopperLimitMessage } from './cart-service.ts';

// Bursts of concurrent adds of one product, with refusals and too little stock among them: every
// shopper gets the answer they would have had alone, and nothing is oversold. Adds of one product
// that arrive together run as one transaction (cart-service.ts group commit, issue 18); a batch
// with a refusal or too few units falls apart into adds alone. Runs on PGlite, and on PostgreSQL
// with DATABASE_URL (CI).

const FLASH_STOCK = 30;
/** The store's default cap on units of one product per shopper (DEFAULT_MAX_UNITS_PER_SHOPPER). */
const SHOPPER_CAP = 10;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  await seedCommerceStore(server, { now: Date.now(), flashStock: FLASH_STOCK });
});

const clients: RealtimeTestClient[] = [];

afterAll(async () => {
  for (const client of clients) client.close();
  await server?.close();
});

async function shoppers(count: number): Promise<Shopper[]> {
  const signedIn: Shopper[] = [];
  for (let i = 0; i < count; i++) signedIn.push(await signIn(server));
  return signedIn;
}

/** Units of a product (or variant) in each shopper's cart, by user. */
async function unitsInCarts(
  productUid: string,
  variantUid: string | null = null,
): Promise<Map<string, number>> {
  const rows = await server.db.query<{ user_uid: string; qty: number }>(
    `SELECT c.user_uid, l.qty FROM checkout_lines l JOIN checkouts c ON c.uid = l.checkout_uid
     WHERE l.product_uid = $1 AND l.variant_uid = $2`,
    [productUid, variantUid ?? ''],
  );
  return new Map(rows.map((row) => [row.user_uid, Number(row.qty)]));
}

function flashUnits(answer: CartUpdateResponse, productUid: string): number | undefined {
  return answer.reservation.reservations?.find((line) => line.mainProduct === productUid)?.qty;
}

describe('a flash sale: bursts of concurrent adds of one product', () => {
  it('short stock: first come first served, refusals stay refusals, nothing oversold', async () => {
    const [capped, twice, ...buyers] = await shoppers(2 + 30);
    if (!capped || !twice) throw new Error('no shoppers');
    // One shopper already holds 9 of the store's cap of 10.
    expect((await addSingle(server, capped, 'flash', { quantity: SHOPPER_CAP - 1 })).body.status).toBe(
      'added',
    );
    const free = FLASH_STOCK - (SHOPPER_CAP - 1);
    const wanted = buyers.map((_, index) => (index % 3 === 0 ? 2 : 1));
    expect(wanted.reduce((sum, qty) => sum + qty, 0) + 2).toBeGreaterThan(free);

    // All at once: the capped shopper asks for 2 more, one shopper adds twice side by side.
    const [cappedAnswer, twiceAnswers, answers] = await Promise.all([
      addSingle(server, capped, 'flash', { quantity: 2 }),
      Promise.all([addSingle(server, twice, 'flash'), addSingle(server, twice, 'flash')]),
      Promise.all(
        buyers.map((buyer, index) => addSingle(server, buyer, 'flash', { quantity: wanted[index] })),
      ),
    ]);

    expect(cappedAnswer.status).toBe(409);
    expect(cappedAnswer.body).toMatchObject({
      error: 'shopper_limit',
      message: shopperLimitMessage(SHOPPER_CAP),
    });

    const left = (await stockOf(server, 'flash')).product;
    if (left === null) throw new Error('flash is stock-managed');
    expect(left).toBeGreaterThanOrEqual(0);
    const carts = await unitsInCarts('flash');
    expect(carts.get(capped.uid)).toBe(SHOPPER_CAP - 1);

    let addedUnits = 0;
    for (const [index, { status, body }] of answers.entries()) {
      const buyer = buyers[index] as Shopper;
      const qty = wanted[index] as number;
      expect(status).toBe(200);
      expect(['added', 'soldOut']).toContain(body.status);
      expect(body.message).toBe(CART_FEEDBACK_MESSAGES[body.status]);
      if (body.status === 'added') {
        addedUnits += qty;
        expect(flashUnits(body, 'flash')).toBe(qty);
        expect(carts.get(buyer.uid)).toBe(qty);
      } else {
        // Stock only went down during the burst: an add refused as sold out did not fit then,
        // so it does not fit what is left now either.
        expect(qty).toBeGreaterThan(left);
        expect(carts.has(buyer.uid)).toBe(false);
        expect(flashUnits(body, 'flash')).toBeUndefined();
      }
    }
    let twiceUnits = 0;
    for (const { status, body } of twiceAnswers) {
      expect(status).toBe(200);
      expect(['added', 'soldOut']).toContain(body.status);
      if (body.status === 'added') twiceUnits += 1;
      else expect(left).toBe(0);
    }
    // The later of the two answers shows the cart after both (each answer is that add's cart).
    const twiceLines = twiceAnswers.map(({ body }) => flashUnits(body, 'flash') ?? 0);
    expect(Math.max(...twiceLines)).toBe(twiceUnits);
    expect(carts.get(twice.uid) ?? 0).toBe(twiceUnits);

    // Every unit taken is in exactly one cart; none invented.
    expect(addedUnits + twiceUnits + left).toBe(free);
    expect([...carts.values()].reduce((sum, qty) => sum + qty, 0)).toBe(FLASH_STOCK - left);
  });

  it('a variant with 2 units and 12 buyers at once: exactly 2 sold, the product row moves with it', async () => {
    const buyers = await shoppers(12);
    const answers = await Promise.all(
      buyers.map((buyer) => addSingle(server, buyer, 'shirt', { variantUid: 'shirt-m' })),
    );
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(answers.filter((answer) => answer.body.status === 'added')).toHaveLength(2);
    expect(answers.filter((answer) => answer.body.status === 'soldOut')).toHaveLength(10);
    expect(await stockOf(server, 'shirt')).toEqual({ product: 0, variants: { 'shirt-m': 0, 'shirt-l': 0 } });
    const carts = await unitsInCarts('shirt', 'shirt-m');
    expect([...carts.values()]).toEqual([1, 1]);
  });

  it('exactly enough stock for everyone at once: all added together, stock 0', async () => {
    const buyers = await shoppers(10);
    expect((await stockOf(server, 'mug')).product).toBe(10);
    const before = server.services.cart.batchesTogether();
    const answers = await Promise.all(buyers.map((buyer) => addSingle(server, buyer, 'mug')));
    // Some of them committed as one batch (else this test would not test batches).
    const after = server.services.cart.batchesTogether();
    expect(after.batches).toBeGreaterThan(before.batches);
    expect(after.adds - before.adds).toBeLessThanOrEqual(10);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.status).toBe('added');
      expect(flashUnits(answer.body, 'mug')).toBe(1);
    }
    expect((await stockOf(server, 'mug')).product).toBe(0);
    const carts = await unitsInCarts('mug');
    expect(buyers.map((buyer) => carts.get(buyer.uid))).toEqual(buyers.map(() => 1));
  });

  it("each shopper's open tab hears of their own add in a burst (through the outbox)", async () => {
    for (const [url, payload] of [
      [`/staff/stores/${SHOP}/products/hot`, { name: 'Hot deal', prices: { DKK: 5_000 }, stock: 100 }],
      [`/admin/events/${EVENT}/products/hot`, { productUid: 'hot', sorting: 9 }],
    ] as const) {
      await adminWrite(server, 'PUT', url, payload);
    }
    const buyers = await shoppers(8);
    const tabs: CartTab[] = [];
    for (const buyer of buyers) tabs.push(await openCartTab(server, buyer));
    clients.push(...tabs.map((tab) => tab.client));
    const answers = await Promise.all(
      buyers.map((buyer, index) => addSingle(server, buyer, 'hot', { quantity: index + 1 })),
    );
    for (const [index, answer] of answers.entries()) {
      expect(answer.body.status).toBe('added');
      expect(flashUnits(answer.body, 'hot')).toBe(index + 1);
      const frame = await (tabs[index] as CartTab).nextChange(
        (doc) => flashUnits({ reservation: doc } as CartUpdateResponse, 'hot') === index + 1,
      );
      expect(frame.type).toBe('changes');
    }
    expect((await stockOf(server, 'hot')).product).toBe(100 - (8 * 9) / 2);
  });
});
