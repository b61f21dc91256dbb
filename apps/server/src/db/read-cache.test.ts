import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test-support/test-app.ts';
import { createReadCache, type ReadScope } from './read-cache.ts';

let db: Awaited<ReturnType<typeof openTestDatabase>>;

async function versionOf(scope: ReadScope): Promise<number> {
  const [row] = await db.query<{ version: string }>('SELECT version FROM read_versions WHERE scope = $1', [
    scope,
  ]);
  return Number(row?.version ?? 0);
}

beforeAll(async () => {
  db = await openTestDatabase();
  await db.query(
    `INSERT INTO pages (uid, name, address, storefront, language, currency)
     VALUES ('rc-shop', 'Read cache shop', '{}', '{}', 'da', 'DKK')`,
  );
  await db.query(
    `INSERT INTO products (uid, page_uid, name, prices, stock) VALUES ('rc-mug', 'rc-shop', 'Mug', '{"DKK": 100}', 10)`,
  );
  await db.query("INSERT INTO users (uid) VALUES ('rc-user')");
});

afterAll(async () => {
  await db?.dispose();
});

describe('read versions (migration 0025)', () => {
  it('a catalogue write bumps its store, a stock move does not', async () => {
    const start = await versionOf('page:rc-shop');
    expect(start).toBeGreaterThan(0);
    await db.query("UPDATE products SET stock = stock - 1 WHERE uid = 'rc-mug'");
    expect(await versionOf('page:rc-shop')).toBe(start);
    await db.query(`UPDATE products SET prices = '{"DKK": 90}' WHERE uid = 'rc-mug'`);
    expect(await versionOf('page:rc-shop')).toBeGreaterThan(start);

    const beforeVariant = await versionOf('page:rc-shop');
    await db.query(
      `INSERT INTO product_variants (uid, product_uid, position, name, prices, stock)
       VALUES ('rc-mug-big', 'rc-mug', 0, 'Big', '{}', 3)`,
    );
    expect(await versionOf('page:rc-shop')).toBeGreaterThan(beforeVariant);
    const afterVariant = await versionOf('page:rc-shop');
    await db.query("UPDATE product_variants SET stock = stock - 1 WHERE uid = 'rc-mug-big'");
    expect(await versionOf('page:rc-shop')).toBe(afterVariant);
    await db.query(
      "UPDATE pages SET integrity_settings = '{\"maxUnitsPerShopper\": 2}' WHERE uid = 'rc-shop'",
    );
    expect(await versionOf('page:rc-shop')).toBeGreaterThan(afterVariant);
  });

  it("a shopper's saved choices bump the shopper", async () => {
    const start = await versionOf('user:rc-user');
    await db.query(
      "INSERT INTO user_reservations (page_uid, user_uid, currency, updated_at) VALUES ('rc-shop', 'rc-user', 'EUR', 1)",
    );
    expect(await versionOf('user:rc-user')).toBeGreaterThan(start);
  });
});

describe('createReadCache', () => {
  it('loads once per version, and again after a write', async () => {
    const cache = createReadCache({ db });
    let loads = 0;
    const load = async () => {
      loads += 1;
      const [row] = await db.query<{ name: string }>("SELECT name FROM products WHERE uid = 'rc-mug'");
      return row?.name;
    };
    const scope = 'page:rc-shop' as const;
    expect(await (await cache.view([scope])).get(scope, 'mug', load)).toBe('Mug');
    expect(await (await cache.view([scope])).get(scope, 'mug', load)).toBe('Mug');
    expect(loads).toBe(1);
    await db.query("UPDATE products SET name = 'Mug II' WHERE uid = 'rc-mug'");
    expect(await (await cache.view([scope])).get(scope, 'mug', load)).toBe('Mug II');
    expect(loads).toBe(2);
  });

  it('keeps no failed read, and at most maxEntries entries', async () => {
    const cache = createReadCache({ db, maxEntries: 3 });
    const scope = 'user:rc-user' as const;
    const view = await cache.view([scope]);
    await expect(view.get(scope, 'broken', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    await expect(view.get(scope, 'broken', async () => 'read again')).resolves.toBe('read again');
    for (let i = 0; i < 10; i++) await view.get(scope, `key-${i}`, async () => i);
    expect(cache.size()).toBe(3);
    expect(() => view.get('page:rc-shop', 'x', async () => 1)).toThrow(/not read by this view/);
  });
});
