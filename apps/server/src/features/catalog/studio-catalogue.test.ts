import { MAX_PRODUCT_CSV_BYTES, SHOPIFY_PRODUCT_COLUMNS } from '@vitrine/domain';
import { PageInput, type ProductInput, type StudioProduct } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { openCatalogueStore, shopifyCsv, uploadStudioCsv } from '../../test-support/shopify-csv.ts';
import { signInStaff } from '../../test-support/studio-staff.ts';
import { adminHeaders, openTestApp } from '../../test-support/test-app.ts';
import { eventTopics } from '../events/event-service.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
type Headers = { authorization: string };
let app: TestApp;
let owner: Headers;
let host: Headers;
let moderator: Headers;
let ownerOfB: Headers;

const SHIRT: z.input<typeof ProductInput> = {
  name: 'Linen shirt',
  description: 'Washed linen',
  sku: 'LS',
  prices: { DKK: 24900, EUR: 3300 },
  options: [
    {
      id: 'size',
      optionType: 'size',
      name: 'Size',
      optionValues: [
        { id: 's', name: 'S' },
        { id: 'm', name: 'M' },
      ],
    },
    {
      id: 'colour',
      optionType: 'color',
      name: 'Colour',
      optionValues: [
        { id: 'sand', name: 'Sand' },
        { id: 'sage', name: 'Sage' },
      ],
    },
  ],
  variants: [
    ['s', 'sand', 3],
    ['s', 'sage', 2],
    ['m', 'sand', 0],
    ['m', 'sage', 5],
  ].map(([size, colour, stock]) => ({
    uid: `${size}-${colour}`,
    name: `${size} / ${colour}`,
    sku: `LS-${size}-${colour}`.toUpperCase(),
    prices: { DKK: 24900 },
    stock: stock as number,
    options: [
      { optionId: 'size', optionValueId: size as string },
      { optionId: 'colour', optionValueId: colour as string },
    ],
  })),
};

const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Headers, payload?: object) =>
  app.server.inject({ method, url: `/staff/stores/${url}`, headers, ...(payload ? { payload } : {}) });

const csvUpload = (url: string, csv: string, headers: Headers = owner) =>
  uploadStudioCsv(app, url, csv, headers);

async function createShirt(headers = owner, store = 'store-a'): Promise<StudioProduct> {
  const response = await call('POST', `${store}/products`, headers, SHIRT);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

beforeAll(async () => {
  app = await openTestApp();
  for (const [uid, currency] of [
    ['store-a', 'DKK'],
    ['store-b', 'EUR'],
  ] as const)
    await app.services.stores.upsertPage(uid, PageInput.parse({ name: uid, language: 'da', currency }));
  owner = (await signInStaff(app, 'store-a', 'owner')).headers;
  host = (await signInStaff(app, 'store-a', 'host')).headers;
  moderator = (await signInStaff(app, 'store-a', 'moderator')).headers;
  ownerOfB = (await signInStaff(app, 'store-b', 'owner')).headers;
});
afterAll(() => app.close());

describe('products in the studio', () => {
  it('creates a product with options and variants; its stock is its variants’', async () => {
    const shirt = await createShirt(host);
    expect(shirt).toMatchObject({ pageUid: 'store-a', name: 'Linen shirt', stock: 10, archived: false });
    expect(shirt.variants).toHaveLength(4);
    const fetched = await call('GET', `store-a/products/${shirt.uid}`, owner);
    expect(fetched.json()).toEqual(shirt);
  });

  it('refuses an invalid product with the field named', async () => {
    const response = await call('POST', 'store-a/products', owner, {
      ...SHIRT,
      name: '',
      prices: { DKK: -1 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/name: .*prices\.DKK: /);
  });

  it('lists with search by name and variant SKU, paging with the total, archived hidden', async () => {
    const store = 'store-list';
    const listOwner = await openCatalogueStore(app, store, { name: 'L', language: 'en', currency: 'EUR' });
    const made: StudioProduct[] = [];
    for (const name of ['Alpha mug', 'Beta mug', 'Gamma scarf', '100% wool']) {
      const response = await call('POST', `${store}/products`, listOwner, {
        name,
        prices: { EUR: 100 },
        sku: name.slice(0, 3),
      });
      made.push(response.json());
    }
    const list = async (query: string) => (await call('GET', `${store}/products?${query}`, listOwner)).json();
    expect((await list('')).total).toBe(4);
    expect((await list('q=mug')).products.map((p: { name: string }) => p.name).sort()).toEqual([
      'Alpha mug',
      'Beta mug',
    ]);
    // "%" is a character, not a wildcard.
    expect((await list('q=100%25')).products.map((p: { name: string }) => p.name)).toEqual(['100% wool']);
    const page = await list('limit=2&offset=2');
    expect(page).toMatchObject({ total: 4, offset: 2, limit: 2 });
    expect(page.products).toHaveLength(2);

    const archived = await call('PUT', `${store}/products/${made[0]?.uid}/archived`, listOwner, {
      archived: true,
    });
    expect(archived.json().archived).toBe(true);
    expect((await list('')).total).toBe(3);
    expect((await list('archived=archived')).products.map((p: { name: string }) => p.name)).toEqual([
      'Alpha mug',
    ]);
    expect((await list('archived=all')).total).toBe(4);
    await call('PUT', `${store}/products/${made[0]?.uid}/archived`, listOwner, { archived: false });
    expect((await list('')).total).toBe(4);

    const shirt = await createShirt(listOwner, store);
    expect((await list('q=ls-m-sage')).products.map((p: { uid: string }) => p.uid)).toEqual([shirt.uid]);
    expect((await list('q=ls-m-sage')).products[0]).toMatchObject({ variantCount: 4, stock: 10 });
    const bad = await call('GET', `${store}/products?limit=1000`, listOwner);
    expect(bad.statusCode).toBe(400);
  });

  it('updates, duplicates (a new uid, no external id) and archives', async () => {
    const shirt = await createShirt();
    const updated = await call('PUT', `store-a/products/${shirt.uid}`, owner, {
      ...SHIRT,
      name: 'Linen shirt II',
      externalId: 'ls',
    });
    expect(updated.json()).toMatchObject({ uid: shirt.uid, name: 'Linen shirt II', externalId: 'ls' });
    const copy = await call('POST', `store-a/products/${shirt.uid}/duplicate`, host);
    expect(copy.statusCode).toBe(201);
    expect(copy.json()).toMatchObject({ name: 'Linen shirt II (copy)', externalId: '', archived: false });
    expect(copy.json().uid).not.toBe(shirt.uid);
    expect(copy.json().variants).toEqual(updated.json().variants);
  });

  it('lets hosts and owners in; moderators and other stores’ staff get 403', async () => {
    expect((await call('GET', 'store-a/products', host)).statusCode).toBe(200);
    expect((await call('GET', 'store-a/products', moderator)).statusCode).toBe(403);
    expect((await call('POST', 'store-a/products', moderator, SHIRT)).statusCode).toBe(403);
    expect((await call('GET', 'store-a/products', ownerOfB)).statusCode).toBe(403);
    expect((await csvUpload('store-a/product-import/preview', shopifyCsv(), moderator)).statusCode).toBe(403);
    expect((await call('GET', 'store-a/product-export', moderator)).statusCode).toBe(403);
  });

  it('puts a product under its own uid for automation (the admin key, as owner) and hosts; moderators refused', async () => {
    const put = await call('PUT', 'store-a/products/automation-shirt', adminHeaders, SHIRT);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toMatchObject({ uid: 'automation-shirt', pageUid: 'store-a', stock: 10 });
    const again = await call('PUT', 'store-a/products/automation-shirt', host, { ...SHIRT, name: 'Shirt' });
    expect(again.json()).toMatchObject({ uid: 'automation-shirt', name: 'Shirt' });
    expect((await call('PUT', 'store-a/products/by-moderator', moderator, SHIRT)).statusCode).toBe(403);
    expect(
      (await call('PUT', 'store-a/products/malformed', adminHeaders, { name: 'No price' })).statusCode,
    ).toBe(400);
    // The uid of another store's product is not taken over; a store that does not exist has none.
    expect((await call('PUT', 'store-b/products/automation-shirt', adminHeaders, SHIRT)).statusCode).toBe(
      404,
    );
    expect((await call('PUT', 'no-store/products/x', adminHeaders, SHIRT)).statusCode).toBe(404);
    expect((await call('GET', 'store-a/products/automation-shirt', owner)).json().name).toBe('Shirt');
  });

  it("answers 404 for another store's product through one's own store", async () => {
    const shirtOfA = await createShirt();
    const b = `store-b/products/${shirtOfA.uid}`;
    expect((await call('GET', b, ownerOfB)).statusCode).toBe(404);
    expect((await call('PUT', b, ownerOfB, SHIRT)).statusCode).toBe(404);
    expect((await call('POST', `${b}/duplicate`, ownerOfB)).statusCode).toBe(404);
    expect((await call('PUT', `${b}/archived`, ownerOfB, { archived: true })).statusCode).toBe(404);
    const listOfB = await call('GET', 'store-b/products?archived=all', ownerOfB);
    expect(listOfB.json().products.map((p: { uid: string }) => p.uid)).not.toContain(shirtOfA.uid);
    // Untouched.
    expect((await call('GET', `store-a/products/${shirtOfA.uid}`, owner)).json().name).toBe('Linen shirt');
  });
});

const CAP_ROWS: Record<string, string>[] = [
  {
    Handle: 'wool-cap',
    Title: 'Wool cap',
    'Body (HTML)': '<p>Warm <script>alert(1)</script>cap</p>',
    'Option1 Name': 'Colour',
    'Option1 Value': 'Grey',
    'Variant SKU': 'CAP-GREY',
    'Variant Inventory Tracker': 'shopify',
    'Variant Inventory Qty': '5',
    'Variant Price': '149.00',
    'Image Src': 'https://cdn.example/cap.jpg',
  },
  {
    Handle: 'wool-cap',
    'Option1 Value': 'Navy',
    'Variant SKU': 'CAP-NAVY',
    'Variant Inventory Tracker': 'shopify',
    'Variant Inventory Qty': '2',
    'Variant Price': '159.00',
  },
];
const BAD_ROW = { Handle: 'broken', Title: 'Broken', 'Variant Price': 'free' };

describe('Shopify CSV import and export', () => {
  const store = 'store-csv';
  let csvOwner: Headers;
  beforeAll(async () => {
    csvOwner = await openCatalogueStore(app, store, { name: 'C', language: 'da', currency: 'DKK' });
  });

  it('dry-runs: what would be created, and each bad row, changing nothing', async () => {
    const response = await csvUpload(
      `${store}/product-import/preview`,
      shopifyCsv(...CAP_ROWS, BAD_ROW),
      csvOwner,
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      rowCount: 3,
      currency: 'DKK',
      counts: { create: 1, update: 0, invalid: 1 },
      errors: [{ row: 4, column: 'Variant Price', message: '"free" is not a price like 249.00.' }],
      products: [
        { handle: 'wool-cap', name: 'Wool cap', action: 'create', variantCount: 2, firstRow: 2 },
        { handle: 'broken', action: 'invalid', firstRow: 4 },
      ],
    });
    const list = await call('GET', `${store}/products?archived=all`, csvOwner);
    expect(list.json().total).toBe(0);
  });

  it('imports nothing while rows are bad, the valid products once confirmed', async () => {
    const csv = shopifyCsv(...CAP_ROWS, BAD_ROW);
    const refused = await csvUpload(`${store}/product-import`, csv, csvOwner);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ error: 'import_has_errors', report: { counts: { invalid: 1 } } });
    expect(refused.json().message).toContain('1 row has errors, so nothing was imported');
    expect((await call('GET', `${store}/products`, csvOwner)).json().total).toBe(0);

    const applied = await csvUpload(`${store}/product-import?validOnly=true`, csv, csvOwner);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ created: 1, updated: 0, skipped: 1 });
    const [cap] = (await call('GET', `${store}/products`, csvOwner)).json().products;
    const product: StudioProduct = (await call('GET', `${store}/products/${cap.uid}`, csvOwner)).json();
    expect(product).toMatchObject({
      externalId: 'wool-cap',
      name: 'Wool cap',
      description: 'Warm cap',
      images: ['https://cdn.example/cap.jpg'],
      prices: { DKK: 14900 },
      stock: 7,
    });
    expect(product.variants.map((v) => [v.name, v.sku, v.prices, v.stock])).toEqual([
      ['Grey', 'CAP-GREY', { DKK: 14900 }, 5],
      ['Navy', 'CAP-NAVY', { DKK: 15900 }, 2],
    ]);
  });

  it('updates by handle, keeping variant uids, and exports what it imports', async () => {
    const before = (await call('GET', `${store}/products?q=wool-cap`, csvOwner)).json().products[0];
    const beforeProduct: StudioProduct = (
      await call('GET', `${store}/products/${before.uid}`, csvOwner)
    ).json();
    const changed = shopifyCsv({ ...CAP_ROWS[0], 'Variant Price': '139.00' }, CAP_ROWS[1] ?? {});
    const preview = await csvUpload(`${store}/product-import/preview`, changed, csvOwner);
    expect(preview.json().products[0]).toMatchObject({ action: 'update', productUid: before.uid });
    const applied = await csvUpload(`${store}/product-import`, changed, csvOwner);
    expect(applied.json()).toMatchObject({ created: 0, updated: 1 });
    const after: StudioProduct = (await call('GET', `${store}/products/${before.uid}`, csvOwner)).json();
    expect(after.variants.map((v) => v.uid)).toEqual(beforeProduct.variants.map((v) => v.uid));
    expect(after.variants[0]?.prices).toEqual({ DKK: 13900 });

    const exported = await call('GET', `${store}/product-export`, csvOwner);
    expect(exported.statusCode).toBe(200);
    const { filename, csv } = exported.json();
    expect(filename).toMatch(/^products-store-csv-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv.split('\n')[0]).toBe(SHOPIFY_PRODUCT_COLUMNS.join(','));
    const again = await csvUpload(`${store}/product-import/preview`, csv, csvOwner);
    expect(again.json()).toMatchObject({ errors: [], counts: { create: 0, update: 1, invalid: 0 } });
  });

  it('answers a clear 4xx for a file too large, not UTF-8, or not CSV', async () => {
    const big = await csvUpload(
      `${store}/product-import/preview`,
      'x'.repeat(MAX_PRODUCT_CSV_BYTES + 1),
      csvOwner,
    );
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('The body is larger than the 5 MB allowed.');
    const latin1 = await app.server.inject({
      method: 'POST',
      url: `/staff/stores/${store}/product-import/preview`,
      headers: { ...csvOwner, 'content-type': 'text/csv' },
      payload: Buffer.from([0x48, 0x61, 0x6e, 0x64, 0x6c, 0x65, 0x0a, 0xe6, 0xf8]),
    });
    expect(latin1.statusCode).toBe(400);
    expect(latin1.json().message).toContain('not UTF-8');
    const unclosed = await csvUpload(`${store}/product-import/preview`, 'Handle,Title\n"a,b\n', csvOwner);
    expect(unclosed.statusCode).toBe(400);
    expect(unclosed.json().message).toContain('not a readable CSV');
    const notShopify = await csvUpload(`${store}/product-import/preview`, 'name,price\na,1\n', csvOwner);
    expect(notShopify.json().errors[0].message).toContain('not a Shopify product CSV');
    const json = await app.server.inject({
      method: 'POST',
      url: `/staff/stores/${store}/product-import/preview`,
      headers: { ...csvOwner, 'content-type': 'application/json' },
      payload: { csv: 'x' },
    });
    expect(json.statusCode).toBe(415);
  });

  it('archives the products whose Status is archived or draft, and restores active ones', async () => {
    const importHat = async (status: string) => {
      const csv = shopifyCsv({ Handle: 'old-hat', Title: 'Old hat', 'Variant Price': '10', Status: status });
      return (await csvUpload(`${store}/product-import`, csv, csvOwner)).json();
    };
    expect(await importHat('archived')).toMatchObject({ created: 1 });
    const listed = async () =>
      (await call('GET', `${store}/products?archived=archived&q=old-hat`, csvOwner)).json().total;
    expect(await listed()).toBe(1);
    expect(await importHat('active')).toMatchObject({ updated: 1 });
    expect(await listed()).toBe(0);
  });

  it('reads semicolon-separated files', async () => {
    const csv = 'Handle;Title;Variant Price\nsemi;Semi;"12,50"\n';
    const preview = await csvUpload(`${store}/product-import/preview`, csv, csvOwner);
    expect(preview.json()).toMatchObject({ errors: [], counts: { create: 1 } });
  });
});

describe('catalogue info', () => {
  it("answers the store's currency", async () => {
    const response = await call('GET', 'store-b/catalogue-info', ownerOfB);
    expect(response.json()).toEqual({ currency: 'EUR', currencies: ['EUR'] });
  });
});

describe('changes reach the shows presenting a product', () => {
  it('republishes on a studio update and on a CSV import that updates it', async () => {
    const store = 'store-live';
    const liveOwner = await openCatalogueStore(app, store, { name: 'Live', language: 'da', currency: 'DKK' });
    const created = await call('POST', `${store}/products`, liveOwner, {
      name: 'Live mug',
      externalId: 'live-mug',
      prices: { DKK: 10000 },
    });
    const mug: StudioProduct = created.json();
    const admin = (method: 'PUT', url: string, payload: object) =>
      app.server.inject({ method, url, headers: adminHeaders, payload });
    expect(
      (await admin('PUT', `/admin/pages/${store}/campaigns/live-camp`, { name: 'Live' })).statusCode,
    ).toBe(200);
    const event = await admin('PUT', '/admin/events/live-ev', {
      pageUid: store,
      campaignId: 'live-camp',
      currentStatus: 'live',
      eventName: 'Live now',
      eventStartTimestamp: Date.now(),
    });
    expect(event.statusCode, event.body).toBe(200);
    expect(
      (await admin('PUT', '/admin/events/live-ev/products/ep-mug', { productUid: mug.uid })).statusCode,
    ).toBe(200);

    const names: string[] = [];
    const stop = await app.bus.listen(eventTopics.eventProducts('live-ev'), (batch) => {
      for (const change of batch.changes)
        if (change.type === 'modified')
          names.push((change.doc as { product: { name: string } }).product.name);
    });
    await call('PUT', `${store}/products/${mug.uid}`, liveOwner, {
      name: 'Live mug II',
      externalId: 'live-mug',
      prices: { DKK: 10000 },
    });
    await expect.poll(() => names).toEqual(['Live mug II']);
    const csv = shopifyCsv({ Handle: 'live-mug', Title: 'Live mug III', 'Variant Price': '99.00' });
    const imported = await csvUpload(`${store}/product-import`, csv, liveOwner);
    expect(imported.json(), imported.body).toMatchObject({ updated: 1 });
    await expect.poll(() => names).toEqual(['Live mug II', 'Live mug III']);
    await stop();
  });
});
