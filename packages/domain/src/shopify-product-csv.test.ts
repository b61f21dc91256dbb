import { describe, expect, it } from 'vitest';
import {
  readShopifyProductCsv,
  SHOPIFY_PRODUCT_COLUMNS,
  shopifyDraftToProduct,
  shopifyRowsOfProduct,
  variantImageOption,
} from './shopify-product-csv.ts';
import { selectionImage } from './variant-selection.ts';

/** A table with Shopify's header from rows of { column: value }. */
function table(...rows: Record<string, string>[]): string[][] {
  return [
    [...SHOPIFY_PRODUCT_COLUMNS],
    ...rows.map((row) => SHOPIFY_PRODUCT_COLUMNS.map((column) => row[column] ?? '')),
  ];
}

const SHIRT: Record<string, string>[] = [
  {
    Handle: 'linen-shirt',
    Title: 'Linen shirt',
    'Body (HTML)': '<p>Washed <b>linen</b>.</p>',
    'Option1 Name': 'Size',
    'Option1 Value': 'S',
    'Option2 Name': 'Colour',
    'Option2 Value': 'Sand',
    'Variant SKU': 'LS-S-SAND',
    'Variant Inventory Tracker': 'shopify',
    'Variant Inventory Qty': '4',
    'Variant Price': '249.00',
    'Image Src': 'https://cdn.example/shirt-2.jpg',
    'Image Position': '2',
    Status: 'active',
  },
  {
    Handle: 'linen-shirt',
    'Option1 Value': 'S',
    'Option2 Value': 'Sage',
    'Variant SKU': 'LS-S-SAGE',
    'Variant Inventory Tracker': 'shopify',
    'Variant Inventory Qty': '-2',
    'Variant Price': '249',
    'Image Src': 'https://cdn.example/shirt-1.jpg',
    'Image Position': '1',
  },
  {
    Handle: 'linen-shirt',
    'Option1 Value': 'M',
    'Option2 Value': 'Sand',
    'Variant SKU': 'LS-M-SAND',
    'Variant Inventory Tracker': 'shopify',
    'Variant Inventory Qty': '3',
    'Variant Price': '259.50',
  },
  { Handle: 'linen-shirt', 'Image Src': 'https://cdn.example/shirt-3.jpg', 'Image Position': '3' },
];

const MUG = {
  Handle: 'mug',
  Title: 'Mug',
  'Option1 Name': 'Title',
  'Option1 Value': 'Default Title',
  'Variant SKU': 'MUG',
  'Variant Inventory Tracker': '',
  'Variant Inventory Qty': '0',
  'Variant Price': '99.95',
  Status: 'draft',
};

describe('readShopifyProductCsv', () => {
  it('merges the rows of a product by handle: variants, images in position order, plain text', () => {
    const reading = readShopifyProductCsv(table(...SHIRT, MUG));
    expect(reading.errors).toEqual([]);
    expect(reading.rowCount).toBe(5);
    const [shirt, mug] = reading.products;
    expect(shirt).toMatchObject({
      handle: 'linen-shirt',
      firstRow: 2,
      name: 'Linen shirt',
      description: 'Washed linen.',
      archived: false,
      optionNames: ['Size', 'Colour'],
      images: [
        'https://cdn.example/shirt-1.jpg',
        'https://cdn.example/shirt-2.jpg',
        'https://cdn.example/shirt-3.jpg',
      ],
      valid: true,
    });
    expect(shirt?.variants).toEqual([
      {
        row: 2,
        values: ['S', 'Sand'],
        sku: 'LS-S-SAND',
        price: 24900,
        compareAt: null,
        image: null,
        stock: 4,
      },
      {
        row: 3,
        values: ['S', 'Sage'],
        sku: 'LS-S-SAGE',
        price: 24900,
        compareAt: null,
        image: null,
        stock: 0,
      },
      {
        row: 4,
        values: ['M', 'Sand'],
        sku: 'LS-M-SAND',
        price: 25950,
        compareAt: null,
        image: null,
        stock: 3,
      },
    ]);
    // "Default Title" is no option; an empty tracker is not stock-managed; draft is archived.
    expect(mug).toMatchObject({
      optionNames: [],
      archived: true,
      variants: [{ values: [], stock: null, price: 9995 }],
    });
  });

  it('names the row, the column and why for each bad cell', () => {
    const reading = readShopifyProductCsv(
      table(
        { Handle: 'a', Title: '', 'Variant Price': '10' },
        { Handle: 'b', Title: 'B', 'Option1 Name': 'Size', 'Option1 Value': 'S', 'Variant Price': 'ten' },
        { Handle: 'b', 'Option1 Value': '', 'Variant Price': '10' },
        { Handle: 'b', 'Option1 Value': 'S', 'Variant Price': '12' },
        { Handle: 'c', Title: 'C', 'Variant Price': '1', 'Image Src': 'javascript:alert(1)' },
        { Handle: 'd', Title: 'D', 'Variant Price': '', 'Variant Inventory Qty': '2.5' },
        { Handle: 'ok', Title: 'Fine', 'Variant Price': '5' },
        { Title: '', 'Variant Price': '5' },
      ),
    );
    expect(reading.errors).toEqual([
      { row: 2, column: 'Title', message: 'is empty on the first row of "a".' },
      { row: 3, column: 'Variant Price', message: '"ten" is not a price like 249.00.' },
      { row: 4, column: 'Option1 Value', message: 'is empty; "b" has the option "Size".' },
      { row: 6, column: 'Image Src', message: '"javascript:alert(1)" is not an http(s) URL of an image.' },
      { row: 7, column: 'Variant Price', message: 'is empty: every variant needs a price.' },
      { row: 7, column: 'Variant Inventory Qty', message: '"2.5" is not a whole number.' },
      { row: 9, column: 'Handle', message: 'is empty: every row names its product by its handle.' },
    ]);
    expect(reading.products.map((product) => [product.handle, product.valid])).toEqual([
      ['a', false],
      ['b', false],
      ['c', false],
      ['d', false],
      ['ok', true],
    ]);
  });

  it('finds a repeated variant and a file that is no product CSV', () => {
    const repeated = readShopifyProductCsv(
      table(
        { Handle: 'x', Title: 'X', 'Option1 Name': 'Size', 'Option1 Value': 'M', 'Variant Price': '1' },
        { Handle: 'x', 'Option1 Value': 'm', 'Variant Price': '1' },
      ),
    );
    expect(repeated.errors).toEqual([
      { row: 3, column: 'Option1 Value', message: 'repeats the variant of row 2 (m).' },
    ]);
    const other = readShopifyProductCsv([
      ['name', 'price'],
      ['a', '1'],
    ]);
    expect(other.errors[0]?.message).toContain('not a Shopify product CSV');
  });

  it("reads the newer export's headers and a BOM", () => {
    const reading = readShopifyProductCsv([
      ['\uFEFFURL handle', 'Title', 'Description', 'SKU', 'Price', 'Inventory quantity', 'Product image URL'],
      ['cap', 'Cap', 'Warm &amp; soft', 'CAP-1', '1.249,00', '3', 'https://cdn.example/cap.jpg'],
    ]);
    expect(reading.errors).toEqual([]);
    expect(reading.products[0]).toMatchObject({
      handle: 'cap',
      description: 'Warm & soft',
      images: ['https://cdn.example/cap.jpg'],
      variants: [{ sku: 'CAP-1', price: 124900, stock: 3 }],
    });
  });
});

describe('shopifyDraftToProduct', () => {
  const [shirtDraft] = readShopifyProductCsv(table(...SHIRT)).products;
  if (!shirtDraft) throw new Error('no draft');

  it('builds options, values and one variant per row, the lowest price and the summed stock', () => {
    const product = shopifyDraftToProduct(shirtDraft, 'DKK', null);
    expect(
      product.options.map((option) => [option.id, option.optionType, option.optionValues.map((v) => v.name)]),
    ).toEqual([
      ['size', 'size', ['S', 'M']],
      ['colour', 'color', ['Sand', 'Sage']],
    ]);
    expect(product.variants.map((variant) => [variant.name, variant.prices, variant.stock])).toEqual([
      ['S / Sand', { DKK: 24900 }, 4],
      ['S / Sage', { DKK: 24900 }, 0],
      ['M / Sand', { DKK: 25950 }, 3],
    ]);
    expect(product).toMatchObject({ externalId: 'linen-shirt', prices: { DKK: 24900 }, stock: 7 });
  });

  it('keeps the ids and other-currency prices of what it updates', () => {
    const first = shopifyDraftToProduct(shirtDraft, 'DKK', null);
    const existing = {
      ...first,
      url: 'https://shop.example/shirt',
      variants: first.variants.map((variant) => ({
        ...variant,
        uid: `kept-${variant.sku}`,
        prices: { ...variant.prices, EUR: 3300 },
      })),
    };
    const again = shopifyDraftToProduct(shirtDraft, 'DKK', existing);
    expect(again.variants.map((variant) => [variant.uid, variant.prices])).toEqual([
      ['kept-LS-S-SAND', { DKK: 24900, EUR: 3300 }],
      ['kept-LS-S-SAGE', { DKK: 24900, EUR: 3300 }],
      ['kept-LS-M-SAND', { DKK: 25950, EUR: 3300 }],
    ]);
    expect(again.url).toBe('https://shop.example/shirt');
  });
});

describe('shopifyRowsOfProduct', () => {
  it('writes what reading gives back', () => {
    const drafts = readShopifyProductCsv(table(...SHIRT, MUG)).products;
    const products = drafts.map((draft, n) => ({
      ...shopifyDraftToProduct(draft, 'DKK', null),
      uid: `p${n}`,
      archived: draft.archived,
    }));
    const rows = products.flatMap((product) => shopifyRowsOfProduct(product, 'DKK'));
    const reread = readShopifyProductCsv([[...SHOPIFY_PRODUCT_COLUMNS], ...rows]);
    expect(reread.errors).toEqual([]);
    expect(
      reread.products.map((draft) => ({
        ...draft,
        firstRow: 0,
        variants: draft.variants.map((v) => ({ ...v, row: 0 })),
      })),
    ).toEqual(
      drafts.map((draft) => ({
        ...draft,
        firstRow: 0,
        variants: draft.variants.map((v) => ({ ...v, row: 0 })),
      })),
    );
  });

  it('guards cells a spreadsheet would run as formulas', () => {
    const [row] = shopifyRowsOfProduct(
      {
        ...shopifyDraftToProduct(readShopifyProductCsv(table(MUG)).products[0]!, 'DKK', null),
        name: '=HYPERLINK("x")',
        uid: 'u',
        archived: false,
      },
      'DKK',
    );
    expect(row?.[1]).toBe('\'=HYPERLINK("x")');
  });
});

describe('Variant Compare At Price (issue 33 §8)', () => {
  const rows = [
    { ...SHIRT[0], 'Variant Compare At Price': '349.00' },
    { ...SHIRT[1], 'Variant Compare At Price': '' },
    { ...SHIRT[2], 'Variant Compare At Price': '299,00' },
  ] as Record<string, string>[];

  it('is read per variant in minor units, and the product takes its cheapest variant’s', () => {
    const reading = readShopifyProductCsv(table(...rows));
    expect(reading.errors).toEqual([]);
    const [draft] = reading.products;
    expect(draft?.variants.map((variant) => variant.compareAt)).toEqual([34900, null, 29900]);
    const product = shopifyDraftToProduct(draft!, 'DKK', null);
    expect(product.variants.map((variant) => variant.compareAtPrices)).toEqual([
      { DKK: 34900 },
      {},
      { DKK: 29900 },
    ]);
    expect(product.compareAtPrices).toEqual({ DKK: 34900 });
  });

  it('is an error on its row when it is not a price', () => {
    const reading = readShopifyProductCsv(table({ ...MUG, 'Variant Compare At Price': 'cheap' }));
    expect(reading.errors).toEqual([
      {
        row: 2,
        column: 'Variant Compare At Price',
        message: expect.stringContaining('"cheap" is not a price'),
      },
    ]);
  });

  it('is written back by the export and keeps other currencies on update', () => {
    const draft = readShopifyProductCsv(table(...rows)).products[0]!;
    const product = shopifyDraftToProduct(draft, 'DKK', null);
    const exported = shopifyRowsOfProduct({ ...product, uid: 'p1', archived: false }, 'DKK');
    const column = SHOPIFY_PRODUCT_COLUMNS.indexOf('Variant Compare At Price');
    expect(exported.slice(0, 3).map((row) => row[column])).toEqual(['349.00', '', '299.00']);
    const withEuro = {
      ...product,
      variants: product.variants.map((variant) => ({
        ...variant,
        compareAtPrices: { ...variant.compareAtPrices, EUR: 5000 },
      })),
    };
    const again = shopifyDraftToProduct(draft, 'DKK', withEuro);
    expect(again.variants[1]?.compareAtPrices).toEqual({ EUR: 5000 });
    expect(again.variants[0]?.compareAtPrices).toEqual({ EUR: 5000, DKK: 34900 });
  });
});

describe('Variant Image (issue 33 §8): the photo goes with the option value it shows', () => {
  const rows: Record<string, string>[] = [
    {
      Handle: 'tee',
      Title: 'Tee',
      'Option1 Name': 'Size',
      'Option1 Value': 'S',
      'Option2 Name': 'Color',
      'Option2 Value': 'White',
      'Variant Price': '100',
      'Variant Image': 'https://cdn.example/white.jpg',
    },
    {
      Handle: 'tee',
      'Option1 Value': 'S',
      'Option2 Value': 'Black',
      'Variant Price': '100',
      'Variant Image': 'https://cdn.example/black.jpg',
    },
    {
      Handle: 'tee',
      'Option1 Value': 'M',
      'Option2 Value': 'White',
      'Variant Price': '100',
      'Variant Image': 'https://cdn.example/white.jpg',
    },
    { Handle: 'tee', 'Option1 Value': 'M', 'Option2 Value': 'Black', 'Variant Price': '100' },
  ];

  it('attaches each colour’s image to that colour, not to the size', () => {
    const draft = readShopifyProductCsv(table(...rows)).products[0]!;
    expect(variantImageOption(draft)).toBe(1);
    const product = shopifyDraftToProduct(draft, 'DKK', null);
    const color = product.options[1]!;
    expect(color.optionValues.map((value) => [value.name, value.images])).toEqual([
      ['White', ['https://cdn.example/white.jpg']],
      ['Black', ['https://cdn.example/black.jpg']],
    ]);
    expect(product.options[0]?.optionValues.every((value) => value.images.length === 0)).toBe(true);
    // The images are the product's too, for its gallery.
    expect(product.images).toEqual(['https://cdn.example/white.jpg', 'https://cdn.example/black.jpg']);
    // Picking White shows the white photo, before a size is picked.
    expect(selectionImage(product, { [color.id]: color.optionValues[0]!.id })).toBe(
      'https://cdn.example/white.jpg',
    );
    expect(selectionImage(product, {})).toBeNull();
  });

  it('falls back to the colour when no option has one image per value, and exports it back', () => {
    const mixed = rows.map((row, n) => ({ ...row, 'Variant Image': `https://cdn.example/${n}.jpg` }));
    const draft = readShopifyProductCsv(table(...mixed)).products[0]!;
    expect(variantImageOption(draft)).toBe(1);
    const product = shopifyDraftToProduct(draft, 'DKK', null);
    expect(product.options[1]?.optionValues.map((value) => value.images)).toEqual([
      ['https://cdn.example/0.jpg'],
      ['https://cdn.example/1.jpg'],
    ]);
    const original = shopifyDraftToProduct(readShopifyProductCsv(table(...rows)).products[0]!, 'DKK', null);
    const exported = shopifyRowsOfProduct({ ...original, uid: 'p', archived: false }, 'DKK');
    const column = SHOPIFY_PRODUCT_COLUMNS.indexOf('Variant Image');
    expect(exported.map((row) => row[column])).toEqual([
      'https://cdn.example/white.jpg',
      'https://cdn.example/black.jpg',
      'https://cdn.example/white.jpg',
      'https://cdn.example/black.jpg',
    ]);
  });
});

describe('what the dry run says before importing (issue 33 §8)', () => {
  it('warns, per row, when a description will be cut, with its length and what is kept', () => {
    const long = 'x'.repeat(2_000_000);
    const reading = readShopifyProductCsv(
      table({ ...MUG, 'Body (HTML)': `<p>${long}</p>` }, { ...MUG, Handle: 'mug-2' }),
    );
    expect(reading.errors).toEqual([]);
    expect(reading.warnings).toEqual([
      {
        row: 2,
        column: 'Body (HTML)',
        message:
          'is 2,000,000 characters long: only the first 10,000 are imported (the rest, 1,990,000 characters, is cut).',
      },
    ]);
    expect(reading.products[0]?.description).toHaveLength(10_000);
  });

  it('says "duplicate handle" for a second block of a handle, and imports neither silently merged', () => {
    const reading = readShopifyProductCsv(
      table(
        MUG,
        { ...MUG, Handle: 'other', Title: 'Other' },
        { ...MUG, Title: 'Another mug' },
        { Handle: 'mug', 'Image Src': 'https://cdn.example/x.jpg' },
      ),
    );
    expect(reading.errors).toEqual([
      {
        row: 4,
        column: 'Handle',
        message: expect.stringMatching(/^duplicate handle "mug": it already names the product of row 2/),
      },
    ]);
    const mug = reading.products.find((product) => product.handle === 'mug');
    expect(mug).toMatchObject({ name: 'Mug', valid: false, images: [] });
    expect(reading.products.find((product) => product.handle === 'other')?.valid).toBe(true);
  });
});
