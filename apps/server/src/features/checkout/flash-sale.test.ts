import type { CartUpdateResponse } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAMPAIGN,
  SHOP,
  type Shopper,
  seedCommerceStore,
  signIn,
  stockOf,
} from '../../test-support/commerce-fixture.ts';
import { startTestServer, type TestServer } from '../../test-support/realtime-test-client.ts';

const BUYERS = 200;
const UNITS = 3;

let server: TestServer;
let buyers: Shopper[];

beforeAll(async () => {
  server = await startTestServer();
  await seedCommerceStore(server, { now: Date.now(), flashStock: UNITS });
  buyers = [];
  for (let i = 0; i < BUYERS; i++) buyers.push(await signIn(server));
});

afterAll(async () => {
  await server?.close();
});

describe('flash sale: limited stock is never oversold', () => {
  it(`${BUYERS} buyers at once for ${UNITS} units: exactly ${UNITS} reserved, the rest told "Product sold out."`, async () => {
    expect(new Set(buyers.map((buyer) => buyer.uid)).size).toBe(BUYERS);
    // Real HTTP requests on a real socket, all in flight together.
    const answers = await Promise.all(
      buyers.map(async (buyer) => {
        const response = await fetch(`${server.httpUrl}/shopapiv2/cart/addSingle`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer.token}` },
          body: JSON.stringify({ pageUid: SHOP, campaignUid: CAMPAIGN, productUid: 'flash', quantity: 1 }),
        });
        expect(response.status).toBe(200);
        return (await response.json()) as CartUpdateResponse;
      }),
    );
    const added = answers.filter((answer) => answer.status === 'added');
    const soldOut = answers.filter((answer) => answer.status === 'soldOut');
    expect(added).toHaveLength(UNITS);
    expect(soldOut).toHaveLength(BUYERS - UNITS);
    expect(new Set(soldOut.map((answer) => answer.message))).toEqual(new Set(['Product sold out.']));
    for (const answer of added) {
      expect(answer.reservation.reservations).toEqual([
        expect.objectContaining({ mainProduct: 'flash', qty: 1 }),
      ]);
    }

    expect((await stockOf(server, 'flash')).product).toBe(0);
    const [reserved] = await server.db.query<{ units: number; carts: number }>(
      "SELECT COALESCE(SUM(qty), 0)::int AS units, COUNT(*)::int AS carts FROM checkout_lines WHERE product_uid = 'flash'",
    );
    expect(reserved).toEqual({ units: UNITS, carts: UNITS });
  });
});
