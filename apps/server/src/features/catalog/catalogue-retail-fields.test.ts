// What a retailer's Shopify CSV carries beyond names and prices (issue 33 §8), through the studio's
// calls on a real (embedded) database: compare-at prices, variant images, formatted descriptions,
// and the dry run's warnings.
import { SHOPIFY_PRODUCT_COLUMNS } from '@vitrine/domain';
import type { StudioProduct } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XSS_FLAG, XSS_PAYLOADS } from '../../../../../e2e/support/xss-corpus.ts';
import { openCatalogueStore, shopifyCsv, uploadStudioCsv } from '../../test-support/shopify-csv.ts';
import { openTestApp } from '../../test-support/test-app.ts';

type TestApp = Awaited<ReturnType<typeof openTestApp>>;
type Headers = { authorization: string };
let app: TestApp;
let owner: Headers;
const STORE = 'store-retail';

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  app.server.inject({
    method,
    url: `/staff/stores/${STORE}/${url}`,
    headers: owner,
    ...(payload ? { payload } : {}),
  });

const csvUpload = (url: string, csv: string) => uploadStudioCsv(app, `${STORE}/${url}`, csv, owner);

async function productByHandle(handle: string): Promise<StudioProduct> {
  const listed = (await call('GET', `products?archived=all&q=${handle}`)).json().products[0];
  return (await call('GET', `products/${listed.uid}`)).json();
}

const TEE_ROWS: Record<string, string>[] = [
  {
    Handle: 'tee',
    Title: 'Cotton tee',
    'Option1 Name': 'Colour',
    'Option1 Value': 'White',
    'Variant Price': '199.00',
    'Variant Compare At Price': '299.00',
    'Image Src': 'https://cdn.example/tee.jpg',
    'Variant Image': 'https://cdn.example/tee-white.jpg',
  },
  {
    Handle: 'tee',
    'Option1 Value': 'Black',
    'Variant Price': '249.00',
    'Variant Compare At Price': '',
    'Variant Image': 'https://cdn.example/tee-black.jpg',
  },
];

beforeAll(async () => {
  app = await openTestApp();
  owner = await openCatalogueStore(app, STORE, { name: 'R', language: 'da', currency: 'DKK' });
});
afterAll(() => app.close());

describe('compare-at prices', () => {
  it('are imported per variant, the product taking its cheapest variant’s, and exported again', async () => {
    const imported = await csvUpload('product-import', shopifyCsv(...TEE_ROWS));
    expect(imported.statusCode, imported.body).toBe(200);
    const tee = await productByHandle('tee');
    expect(tee.compareAtPrices).toEqual({ DKK: 29900 });
    expect(tee.variants.map((variant) => [variant.name, variant.prices, variant.compareAtPrices])).toEqual([
      ['White', { DKK: 19900 }, { DKK: 29900 }],
      ['Black', { DKK: 24900 }, undefined],
    ]);
    const { csv } = (await call('GET', 'product-export')).json();
    const column = SHOPIFY_PRODUCT_COLUMNS.indexOf('Variant Compare At Price');
    const teeRows = (csv as string).split('\n').filter((line) => line.startsWith('tee,'));
    // The rows after the variants' carry only images.
    expect(teeRows.slice(0, 2).map((line) => line.split(',')[column])).toEqual(['299.00', '']);
  });

  it('are set by the studio editor and refused when not a price', async () => {
    const created = await call('POST', 'products', {
      name: 'Mug',
      prices: { DKK: 9900 },
      compareAtPrices: { DKK: 14900 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const mug: StudioProduct = created.json();
    expect((await call('GET', `products/${mug.uid}`)).json().compareAtPrices).toEqual({ DKK: 14900 });
    const bad = await call('PUT', `products/${mug.uid}`, {
      name: 'Mug',
      prices: { DKK: 9900 },
      compareAtPrices: { DKK: -1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('compareAtPrices');
  });
});

describe('variant images', () => {
  it('go with the option value they show, and stay when a later file has none', async () => {
    const tee = await productByHandle('tee');
    expect(tee.options[0]?.optionValues.map((value) => [value.name, value.images])).toEqual([
      ['White', ['https://cdn.example/tee-white.jpg']],
      ['Black', ['https://cdn.example/tee-black.jpg']],
    ]);
    const withoutImages = TEE_ROWS.map(({ 'Variant Image': _image, ...row }) => row);
    const again = await csvUpload('product-import', shopifyCsv(...withoutImages));
    expect(again.json(), again.body).toMatchObject({ updated: 1 });
    const after = await productByHandle('tee');
    expect(after.options[0]?.optionValues.map((value) => value.images)).toEqual([
      ['https://cdn.example/tee-white.jpg'],
      ['https://cdn.example/tee-black.jpg'],
    ]);
  });
});

describe('the dry run', () => {
  it('warns per row when a description will be cut, and says "duplicate handle"', async () => {
    const long = `<p>${'a'.repeat(2_000_000)}</p>`;
    const preview = await csvUpload(
      'product-import/preview',
      shopifyCsv(
        { Handle: 'long', Title: 'Long', 'Body (HTML)': long, 'Variant Price': '10' },
        { Handle: 'short', Title: 'Short', 'Variant Price': '10' },
        { Handle: 'long', Title: 'Long again', 'Variant Price': '12' },
      ),
    );
    expect(preview.statusCode, preview.body.slice(0, 500)).toBe(200);
    const report = preview.json();
    expect(report.warnings).toEqual([
      {
        row: 2,
        column: 'Body (HTML)',
        message:
          'is 2,000,000 characters long: only the first 10,000 are imported (the rest, 1,990,000 characters, is cut).',
      },
    ]);
    expect(report.errors).toEqual([
      { row: 4, column: 'Handle', message: expect.stringContaining('duplicate handle "long"') },
    ]);
    expect(report.counts).toEqual({ create: 1, update: 0, invalid: 1 });
  });
});

describe('formatted descriptions', () => {
  it('keep paragraphs, lists, bold, italic and http(s) links from the file, with a plain text beside', async () => {
    const body =
      '<h2>Care</h2><p>Washed <b onclick="steal()">linen</b>, <em>soft</em>.</p><ul><li>Cold wash</li><li><a href="https://shop.example/care" target="_blank">More</a></li></ul>';
    await csvUpload(
      'product-import',
      shopifyCsv({ Handle: 'linen', Title: 'Linen', 'Body (HTML)': body, 'Variant Price': '10' }),
    );
    const linen = await productByHandle('linen');
    expect(linen.descriptionHtml).toBe(
      '<p>Care</p><p>Washed <b>linen</b>, <em>soft</em>.</p><ul><li>Cold wash</li><li><a href="https://shop.example/care">More</a></li></ul>',
    );
    expect(linen.description).toBe('Care\n\nWashed linen, soft.\n\n• Cold wash\n• More');
    // The export writes the formatting back.
    const { csv } = (await call('GET', 'product-export')).json();
    expect(csv).toContain('<ul><li>Cold wash</li>');
  });

  it('never keep a script, an event handler or a javascript: link, from a file or the editor', async () => {
    const body = `<p><b>Deal</b></p>${XSS_PAYLOADS.join('\n')}<a href="JaVaScRiPt:${XSS_FLAG}=1">x</a><a href="data:text/html,1">y</a>`;
    await csvUpload(
      'product-import',
      shopifyCsv({ Handle: 'xss', Title: 'XSS', 'Body (HTML)': body, 'Variant Price': '10' }),
    );
    const stored = await productByHandle('xss');
    // Text that reads "javascript:…" is harmless; only tags and attributes could run.
    const unsafe =
      /<(script|svg|iframe|img|style|object|details|input|video|math|marquee|body)\b|\son\w+\s*=|href\s*=\s*["']?\s*(javascript|data):/i;
    expect(stored.descriptionHtml).toContain('<b>Deal</b>');
    expect(stored.descriptionHtml?.match(unsafe)?.[0]).toBeUndefined();

    const { uid, pageUid: _p, archived: _a, updatedAt: _u, ...input } = stored;
    const edited = await call('PUT', `products/${uid}`, { ...input, descriptionHtml: `<b>ok</b>${body}` });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().descriptionHtml).toMatch(/^<b>ok<\/b>/);
    expect(edited.json().descriptionHtml.match(unsafe)?.[0]).toBeUndefined();
  });
});
