import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { StudioOrderDetail, StudioOrderSummary } from '@vitrine/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { openEmptyPgliteDatabase } from '../test-support/pglite-template.ts';
import { adminHeaders, openTestApp } from '../test-support/test-app.ts';
import type { Database } from './database.ts';
import { migrate, migrationFiles } from './migrate.ts';
import { openPostgresDatabase } from './postgres-database.ts';

/**
 * The previous release's database (a fixture made by that release's own code, never regenerated:
 * upgrade-fixtures/release-3f81d68.sql says how) upgraded by today's migrations, as a self-hoster's
 * `npm start` after an upgrade does: the store, its products and a placed order are all there
 * and answer through the HTTP calls.
 */
const FIXTURE = new URL('./upgrade-fixtures/release-3f81d68.sql', import.meta.url);
const ORDER = { checkoutUid: 'lNCWJDr9HpiBA-dY', orderNumber: 100001 };

let db: Database | undefined;
let dispose = async () => {};

afterAll(async () => {
  await dispose();
});

/** An empty database: in-memory PGlite, or a new schema on the PostgreSQL server of DATABASE_URL. */
async function openEmptyDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `test_upgrade_${randomBytes(6).toString('hex')}`;
    const opened = await openPostgresDatabase(url, schema);
    dispose = async () => {
      await opened.exec(`DROP SCHEMA ${schema} CASCADE`);
      await opened.close();
    };
    return opened;
  }
  const opened = await openEmptyPgliteDatabase();
  dispose = () => opened.close();
  return opened;
}

describe('upgrading the previous release’s database', () => {
  it('applies only the newer migrations, and the store, products and order survive', async () => {
    db = await openEmptyDatabase();
    await db.exec(await readFile(FIXTURE, 'utf8'));
    const before = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(before).toHaveLength(25);

    // The upgrade applies the migrations that release had not, and nothing else.
    const applied = new Set(before.map(({ name }) => name));
    const newer = (await migrationFiles()).filter((name) => !applied.has(name));
    expect(newer).toContain('0033_password_resets.sql');
    expect(await migrate(db)).toEqual(newer);

    const app = await openTestApp({ db });
    try {
      const product = await app.server.inject({
        url: '/staff/stores/demo-store/products/nordlys-ceramic-mug',
        headers: adminHeaders,
      });
      expect(product.statusCode, product.body).toBe(200);
      // 40 in stock, 2 in the placed order.
      expect(product.json()).toMatchObject({ uid: 'nordlys-ceramic-mug', sku: 'NL-CM', stock: 38 });

      const list = await app.server.inject({ url: '/staff/stores/demo-store/orders', headers: adminHeaders });
      expect(list.statusCode, list.body).toBe(200);
      const orders = (list.json() as { orders: StudioOrderSummary[] }).orders;
      expect(
        orders.map(({ checkoutUid, orderNumber, customerName, itemCount }) => ({
          checkoutUid,
          orderNumber,
          customerName,
          itemCount,
        })),
      ).toEqual([{ ...ORDER, customerName: 'Upgrade Fixture', itemCount: 2 }]);

      const order = await app.server.inject({
        url: `/staff/stores/demo-store/orders/${ORDER.checkoutUid}`,
        headers: adminHeaders,
      });
      expect(order.statusCode, order.body).toBe(200);
      const detail = order.json() as StudioOrderDetail;
      expect(detail.order.orderNumber).toBe(ORDER.orderNumber);
      expect(detail.campaignName).toBe('Autumn living');

      // The newer migrations' tables work on the upgraded data: the store exists, so no setup is
      // asked (0034), and the demo owner can ask for a password reset (0033).
      const setup = await app.server.inject({ url: '/staff/setup' });
      expect(setup.json()).toEqual({ needed: false });
      const reset = await app.server.inject({
        method: 'POST',
        url: '/functions/auth/requestPasswordReset',
        payload: { email: 'owner@nordlys.example' },
      });
      expect(reset.statusCode, reset.body).toBe(204);
    } finally {
      await app.server.close();
    }
  });
});
