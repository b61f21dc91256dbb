// Shopify's product CSV (help.shopify.com/manual/products/import-export/using-csv), the file a
// retailer exports from their shop: one row per variant, the rows of a product share its Handle
// and only the first carries Title, Body (HTML) and the option names; rows with only an Image Src
// add images. Reading it yields drafts and row-level errors; nothing here touches a database.

import {
  type CatalogueOption,
  type CatalogueProduct,
  type CatalogueVariant,
  combinationKey,
  freshId,
  MAX_PRODUCT_OPTIONS,
  MAX_PRODUCT_VARIANTS,
  optionTypeOf,
  productStockOf,
  toSlug,
  variantName,
} from './catalogue-product.ts';
import { formatDecimalPrice, parseDecimalPrice } from './decimal-price.ts';
import { htmlToPlainText, plainTextToHtml } from './html-to-text.ts';
import { selectionImage } from './variant-selection.ts';

const choicesOf = (variant: CatalogueVariant) =>
  Object.fromEntries(variant.options.map((choice) => [choice.optionId, choice.optionValueId]));

/** The columns an export writes, in Shopify's order; an import reads these (and ignores others). */
export const SHOPIFY_PRODUCT_COLUMNS = [
  'Handle',
  'Title',
  'Body (HTML)',
  'Vendor',
  'Type',
  'Tags',
  'Published',
  'Option1 Name',
  'Option1 Value',
  'Option2 Name',
  'Option2 Value',
  'Option3 Name',
  'Option3 Value',
  'Variant SKU',
  'Variant Grams',
  'Variant Inventory Tracker',
  'Variant Inventory Qty',
  'Variant Inventory Policy',
  'Variant Fulfillment Service',
  'Variant Price',
  'Variant Compare At Price',
  'Variant Requires Shipping',
  'Variant Taxable',
  'Variant Barcode',
  'Image Src',
  'Image Position',
  'Image Alt Text',
  'Gift Card',
  'Variant Image',
  'Variant Weight Unit',
  'Status',
] as const;
export type ShopifyColumn = (typeof SHOPIFY_PRODUCT_COLUMNS)[number];

/** Headers of Shopify's newer exports (and common variants of spelling) → the classic names. */
const HEADER_ALIASES: Record<string, ShopifyColumn> = {
  'url handle': 'Handle',
  description: 'Body (HTML)',
  'body html': 'Body (HTML)',
  sku: 'Variant SKU',
  price: 'Variant Price',
  'compare-at price': 'Variant Compare At Price',
  'inventory quantity': 'Variant Inventory Qty',
  'inventory tracker': 'Variant Inventory Tracker',
  'product image url': 'Image Src',
  'image url': 'Image Src',
  'variant image url': 'Variant Image',
  'option1 name': 'Option1 Name',
  'option1 value': 'Option1 Value',
  'option2 name': 'Option2 Name',
  'option2 value': 'Option2 Value',
  'option3 name': 'Option3 Name',
  'option3 value': 'Option3 Value',
};

/** Limits of the protocol's ProductInput, checked here so the error names the row and column. */
const MAX_NAME = 300;
const MAX_DESCRIPTION = 10_000;
const MAX_SKU = 100;
const MAX_IMAGES = 20;
const MAX_URL = 2048;
const MAX_OPTION_VALUE = 100;
const MAX_STOCK = 2_147_483_647;

/** Why a cell (or row) of the file cannot be imported; rows are numbered as in a spreadsheet. */
export interface ShopifyRowError {
  row: number;
  column: ShopifyColumn | null;
  message: string;
}

/** A variant as the file gives it: its option values (in option order), SKU, price and stock. */
export interface ShopifyVariantDraft {
  row: number;
  values: string[];
  sku: string;
  /** Minor units of the store's currency. */
  price: number;
  /** "Variant Compare At Price" in minor units, null when empty (the price before the deal). */
  compareAt: number | null;
  /** "Variant Image": the photo of this variant (of its colour, mostly), null when empty. */
  image: string | null;
  /** null: not stock-managed. */
  stock: number | null;
}

/** One product of the file: its rows merged. `valid` is false when one of its rows has an error. */
export interface ShopifyProductDraft {
  handle: string;
  firstRow: number;
  name: string;
  description: string;
  /** "Body (HTML)" as the file has it: the server keeps its allow-listed formatting. */
  bodyHtml: string;
  archived: boolean;
  images: string[];
  optionNames: string[];
  variants: ShopifyVariantDraft[];
  valid: boolean;
}

export interface ShopifyCsvReading {
  /** Data rows read (the header and empty rows not counted). */
  rowCount: number;
  products: ShopifyProductDraft[];
  errors: ShopifyRowError[];
  /** What is imported, but not as the file has it (a value cut to its limit): said before importing. */
  warnings: ShopifyRowError[];
}

const normalizeHeader = (header: string) =>
  header
    .replace(/^\uFEFF/, '')
    .trim()
    .replace(/\s+/g, ' ');

/** A spreadsheet's formula guard ("'=SUM…" written by exports) taken off again. */
const unguard = (text: string) => (/^'[=+\-@]/.test(text) ? text.slice(1) : text);

interface Group {
  draft: ShopifyProductDraft;
  rows: number[];
  images: { src: string; position: number; order: number }[];
  combinations: Map<string, number>;
}

/**
 * Reads a parsed CSV (`table[0]` the header) of a store whose prices have `currencyDigits`
 * decimals: the products it describes, by handle in order of first appearance, and every error.
 */
export function readShopifyProductCsv(
  table: readonly (readonly string[])[],
  currencyDigits = 2,
): ShopifyCsvReading {
  const [header = [], ...rows] = table;
  const index = new Map<ShopifyColumn, number>();
  header.forEach((name, position) => {
    const normalized = normalizeHeader(name);
    const column =
      SHOPIFY_PRODUCT_COLUMNS.find((known) => known.toLowerCase() === normalized.toLowerCase()) ??
      HEADER_ALIASES[normalized.toLowerCase()];
    if (column && !index.has(column)) index.set(column, position);
  });
  const errors: ShopifyRowError[] = [];
  if (!index.has('Handle') && !index.has('Title')) {
    errors.push({
      row: 1,
      column: null,
      message: 'This is not a Shopify product CSV: the first row has no Handle or Title column.',
    });
    return { rowCount: rows.length, products: [], errors, warnings: [] };
  }
  const groups = new Map<string, Group>();
  const warnings: ShopifyRowError[] = [];
  let rowCount = 0;
  let previousHandle: string | null = null;
  // Inside the second block of a handle: its rows are skipped (its first row has the error).
  let inDuplicateBlock = false;

  rows.forEach((cells, rowIndex) => {
    const row = rowIndex + 2;
    if (cells.every((cell) => cell.trim() === '')) return;
    rowCount++;
    const cell = (column: ShopifyColumn) => {
      const position = index.get(column);
      return position === undefined ? '' : unguard((cells[position] ?? '').trim());
    };
    const fail = (column: ShopifyColumn | null, message: string) => {
      errors.push({ row, column, message });
      return false;
    };
    const title = cell('Title');
    const handle = cell('Handle') || toSlug(title);
    if (!handle) {
      fail('Handle', 'is empty: every row names its product by its handle.');
      return;
    }
    let group = groups.get(handle);
    const sameBlock = previousHandle === handle;
    previousHandle = handle;
    if (sameBlock && inDuplicateBlock) return;
    inDuplicateBlock = false;
    if (group && !sameBlock) {
      inDuplicateBlock = true;
      // A product's rows come together; a second block with its handle is another product (or
      // a copy) that would silently merge into the first.
      fail(
        'Handle',
        `duplicate handle "${handle}": it already names the product of row ${group.draft.firstRow}; a product's rows must follow each other.`,
      );
      group.draft.valid = false;
      return;
    }
    if (!group) {
      group = startGroup(handle, row, cell, fail, (column, message) =>
        warnings.push({ row, column, message }),
      );
      groups.set(handle, group);
    }
    group.rows.push(row);
    const before = errors.length;

    for (const column of ['Image Src', 'Variant Image'] as const) {
      const src = cell(column);
      if (!src) continue;
      if (!/^https?:\/\/[^/\\\s]+\S*$/i.test(src) || src.length > MAX_URL) {
        fail(column, `"${src.slice(0, 80)}" is not an http(s) URL of an image.`);
        continue;
      }
      const position = Number.parseInt(cell('Image Position'), 10);
      if (group.images.some((image) => image.src === src)) continue;
      if (group.images.length >= MAX_IMAGES)
        fail(column, `is one image too many: a product has at most ${MAX_IMAGES}.`);
      else
        group.images.push({
          src,
          position: column === 'Image Src' && Number.isFinite(position) ? position : Number.MAX_SAFE_INTEGER,
          order: group.images.length,
        });
    }

    const isVariantRow =
      row === group.draft.firstRow ||
      [
        'Option1 Value',
        'Option2 Value',
        'Option3 Value',
        'Variant SKU',
        'Variant Price',
        'Variant Inventory Qty',
      ].some((column) => cell(column as ShopifyColumn) !== '');
    if (isVariantRow)
      readVariant(group, row, cell, fail, index.has('Variant Inventory Tracker'), currencyDigits);
    if (errors.length > before) group.draft.valid = false;
  });

  const products = [...groups.values()].map((group) => {
    group.draft.images = group.images
      .sort((a, b) => a.position - b.position || a.order - b.order)
      .map((image) => image.src);
    return group.draft;
  });
  // A product with an error on its first row (counted before its group existed) is invalid too.
  const invalidRows = new Set(errors.map((error) => error.row));
  for (const group of groups.values())
    if (group.rows.some((row) => invalidRows.has(row))) group.draft.valid = false;
  return { rowCount, products, errors, warnings };
}

/** The dry run's words for a value cut to its limit: how long it is and what is kept. */
export function cutWarning(length: number, limit: number): string {
  const n = (value: number) => value.toLocaleString('en');
  return `is ${n(length)} characters long: only the first ${n(limit)} are imported (the rest, ${n(length - limit)} characters, is cut).`;
}

function startGroup(
  handle: string,
  row: number,
  cell: (column: ShopifyColumn) => string,
  fail: (column: ShopifyColumn | null, message: string) => boolean,
  warn: (column: ShopifyColumn, message: string) => void,
): Group {
  const name = cell('Title');
  const description = htmlToPlainText(cell('Body (HTML)'));
  if (description.length > MAX_DESCRIPTION)
    warn('Body (HTML)', cutWarning(description.length, MAX_DESCRIPTION));
  if (!name) fail('Title', `is empty on the first row of "${handle}".`);
  else if (name.length > MAX_NAME) fail('Title', `is longer than ${MAX_NAME} characters.`);
  const status = cell('Status').toLowerCase();
  const published = cell('Published').toLowerCase();
  const optionNames: string[] = [];
  for (const n of [1, 2, 3] as const) {
    const optionName = cell(`Option${n} Name`);
    if (!optionName) continue;
    if (n === 1 && optionName === 'Title' && cell('Option1 Value') === 'Default Title') break;
    if (optionNames.length !== n - 1) fail(`Option${n} Name`, `is given while Option${n - 1} Name is empty.`);
    else if (optionNames.some((known) => known.toLowerCase() === optionName.toLowerCase()))
      fail(`Option${n} Name`, `repeats the option "${optionName}".`);
    else if (optionName.length > MAX_OPTION_VALUE)
      fail(`Option${n} Name`, `is longer than ${MAX_OPTION_VALUE} characters.`);
    else optionNames.push(optionName);
  }
  return {
    draft: {
      handle,
      firstRow: row,
      name: name.slice(0, MAX_NAME),
      description: description.slice(0, MAX_DESCRIPTION),
      bodyHtml: cell('Body (HTML)'),
      archived: status === 'archived' || status === 'draft' || (status === '' && published === 'false'),
      images: [],
      optionNames,
      variants: [],
      valid: true,
    },
    rows: [],
    images: [],
    combinations: new Map(),
  };
}

function readVariant(
  group: Group,
  row: number,
  cell: (column: ShopifyColumn) => string,
  fail: (column: ShopifyColumn | null, message: string) => boolean,
  hasTracker: boolean,
  currencyDigits: number,
): void {
  const { draft } = group;
  const values: string[] = [];
  let ok = true;
  for (const n of [1, 2, 3] as const) {
    const column = `Option${n} Value` as const;
    const value = cell(column);
    const optionName = draft.optionNames[n - 1];
    if (optionName === undefined) {
      if (value && !(n === 1 && value === 'Default Title'))
        ok = fail(column, `"${value}" has no Option${n} Name on the product's first row.`);
    } else if (!value) ok = fail(column, `is empty; "${draft.handle}" has the option "${optionName}".`);
    else if (value.length > MAX_OPTION_VALUE)
      ok = fail(column, `is longer than ${MAX_OPTION_VALUE} characters.`);
    else values.push(value);
  }
  const priceText = cell('Variant Price');
  const price = parseDecimalPrice(priceText, currencyDigits);
  if (!priceText) ok = fail('Variant Price', 'is empty: every variant needs a price.');
  else if (price === null)
    ok = fail(
      'Variant Price',
      `"${priceText}" is not a price like ${formatDecimalPrice(24900, currencyDigits)}.`,
    );
  const imageCell = cell('Variant Image');
  const image = imageCell && group.images.some((known) => known.src === imageCell) ? imageCell : null;
  const compareAtText = cell('Variant Compare At Price');
  const compareAt = compareAtText === '' ? null : parseDecimalPrice(compareAtText, currencyDigits);
  if (compareAtText !== '' && compareAt === null)
    ok = fail(
      'Variant Compare At Price',
      `"${compareAtText}" is not a price like ${formatDecimalPrice(29900, currencyDigits)}.`,
    );
  const sku = cell('Variant SKU');
  if (sku.length > MAX_SKU) ok = fail('Variant SKU', `is longer than ${MAX_SKU} characters.`);
  const quantity = cell('Variant Inventory Qty');
  let stock: number | null = null;
  if (quantity !== '') {
    if (!/^[+-]?\d+$/.test(quantity))
      ok = fail('Variant Inventory Qty', `"${quantity}" is not a whole number.`);
    else if (Number(quantity) > MAX_STOCK) ok = fail('Variant Inventory Qty', 'is too large.');
    // An oversold variant (negative in Shopify) has nothing left to sell.
    else stock = Math.max(0, Number(quantity));
  }
  // Shopify leaves the tracker empty for variants whose stock it does not count.
  if (hasTracker && cell('Variant Inventory Tracker') === '') stock = null;
  const key = values.map((value) => value.toLowerCase()).join('\u0000');
  const earlier = group.combinations.get(key);
  if (ok && earlier !== undefined)
    ok = fail(
      'Option1 Value',
      `repeats the variant of row ${earlier} (${variantName(values) || 'Default Title'}).`,
    );
  if (ok && draft.variants.length >= MAX_PRODUCT_VARIANTS)
    ok = fail(null, `is one variant too many: a product has at most ${MAX_PRODUCT_VARIANTS}.`);
  if (!ok || price === null) return;
  group.combinations.set(key, row);
  draft.variants.push({ row, values, sku, price, compareAt, image, stock });
}

/**
 * The product a draft describes, priced in `currency`. When it updates `existing`, the ids of
 * options, values and variants with the same names are kept (carts and shows refer to them), as
 * are its prices in other currencies, its URL, and its images when the file has none.
 */
export function shopifyDraftToProduct(
  draft: ShopifyProductDraft,
  currency: string,
  existing: CatalogueProduct | null,
): CatalogueProduct {
  const optionIds = new Set(existing?.options.map((option) => option.id) ?? []);
  const imageOption = variantImageOption(draft);
  const options: CatalogueOption[] = draft.optionNames.slice(0, MAX_PRODUCT_OPTIONS).map((name, n) => {
    const known = existing?.options.find((option) => option.name.toLowerCase() === name.toLowerCase());
    const valueIds = new Set(known?.optionValues.map((value) => value.id) ?? []);
    const names = [...new Set(draft.variants.map((variant) => variant.values[n] ?? ''))];
    return {
      id: known?.id ?? freshId(toSlug(name), optionIds),
      optionType: known?.optionType ?? optionTypeOf(name),
      name,
      optionValues: names.map((valueName) => {
        const value = known?.optionValues.find((v) => v.name.toLowerCase() === valueName.toLowerCase());
        // The file's variant image of this value replaces the value's images; none keeps them.
        const image =
          n === imageOption
            ? draft.variants.find((variant) => variant.values[n] === valueName && variant.image)?.image
            : undefined;
        const images = image ? [image] : undefined;
        return value
          ? { ...value, name: valueName, ...(images ? { images } : {}) }
          : {
              id: freshId(toSlug(valueName), valueIds),
              name: valueName,
              images: images ?? [],
              styleUrl: null,
              minimumPrice: null,
            };
      }),
    };
  });
  const existingVariants = new Map(
    existing?.variants.map((variant) => [combinationKey(variant.options), variant]),
  );
  const variantUids = new Set(existing?.variants.map((variant) => variant.uid) ?? []);
  const withPrice = (prices: Record<string, number> | undefined, price: number) => ({
    ...prices,
    [currency]: price,
  });
  // The file's compare-at price replaces the one in its currency; an empty cell clears it.
  const withCompareAt = (prices: Record<string, number> | undefined, compareAt: number | null) => {
    const { [currency]: _old, ...others } = prices ?? {};
    return compareAt === null ? others : { ...others, [currency]: compareAt };
  };
  const variants: CatalogueVariant[] =
    options.length === 0
      ? []
      : draft.variants.map((variant) => {
          const choices = options.map((option, n) => ({
            optionId: option.id,
            optionValueId: option.optionValues.find((value) => value.name === variant.values[n])?.id ?? '',
          }));
          const known = existingVariants.get(combinationKey(choices));
          if (known) variantUids.delete(known.uid);
          return {
            uid: known?.uid ?? freshId(toSlug(`v-${variant.values.join('-')}`), variantUids),
            name: variantName(variant.values),
            sku: variant.sku,
            prices: withPrice(known?.prices, variant.price),
            compareAtPrices: withCompareAt(known?.compareAtPrices, variant.compareAt),
            stock: variant.stock,
            options: choices,
          };
        });
  const single = options.length === 0 ? draft.variants[0] : undefined;
  const lowest = Math.min(...draft.variants.map((variant) => variant.price));
  // The product's own "was" price goes with its price: the cheapest variant's.
  const cheapest = draft.variants.find((variant) => variant.price === lowest);
  const product: CatalogueProduct = {
    externalId: draft.handle,
    name: draft.name,
    description: draft.description,
    // Raw: the catalogue sanitises it (an allow-list) before anything keeps or shows it.
    descriptionHtml: draft.bodyHtml || null,
    sku: single ? single.sku : (existing?.sku ?? ''),
    url: existing?.url ?? null,
    images: draft.images.length > 0 ? draft.images : (existing?.images ?? []),
    prices: withPrice(existing?.prices, Number.isFinite(lowest) ? lowest : 0),
    compareAtPrices: withCompareAt(existing?.compareAtPrices, cheapest?.compareAt ?? null),
    stock: single ? single.stock : null,
    options,
    variants,
  };
  return { ...product, stock: productStockOf(product) };
}

/**
 * Which option a file's variant images belong to (Shopify gives one per variant row, but a photo
 * shows a colour, not a size): the first option, colour-like ones first, whose every value has
 * one image over all its variants; else the first of that order (its values take their first
 * variant's image). -1: no images.
 */
export function variantImageOption(draft: Pick<ShopifyProductDraft, 'optionNames' | 'variants'>): number {
  const withImage = draft.variants.filter((variant) => variant.image);
  if (withImage.length === 0 || draft.optionNames.length === 0) return -1;
  const order = draft.optionNames
    .map((name, n) => ({ n, color: optionTypeOf(name) === 'color' }))
    .sort((a, b) => Number(b.color) - Number(a.color) || a.n - b.n)
    .map(({ n }) => n);
  const consistent = order.find((n) => {
    const imageOf = new Map<string, string>();
    return withImage.every((variant) => {
      const value = variant.values[n] ?? '';
      const known = imageOf.get(value);
      imageOf.set(value, variant.image as string);
      return known === undefined || known === variant.image;
    });
  });
  return consistent ?? order[0] ?? -1;
}

/** A cell a spreadsheet would run as a formula gets a leading "'" (read back by the import). */
const guard = (text: string) => (/^[=+\-@]/.test(text) ? `'${text}` : text);

/**
 * The CSV rows (header excluded) of one product, priced in `currency`: a row per variant (one
 * "Default Title" row without options), the first carrying the product's fields, and image rows
 * for images beyond the variant rows. `handle` is the product's external id, else its uid.
 */
export function shopifyRowsOfProduct(
  product: CatalogueProduct & { uid: string; archived: boolean },
  currency: string,
  currencyDigits = 2,
): string[][] {
  const handle = product.externalId || product.uid;
  const options = product.options.slice(0, MAX_PRODUCT_OPTIONS);
  const price = (prices: Record<string, number | undefined>) => {
    const amount = prices[currency];
    return amount === undefined ? '' : formatDecimalPrice(amount, currencyDigits);
  };
  const variantRows: Partial<Record<ShopifyColumn, string>>[] =
    options.length === 0 || product.variants.length === 0
      ? [
          {
            'Option1 Name': 'Title',
            'Option1 Value': 'Default Title',
            'Variant SKU': guard(product.sku),
            'Variant Price': price(product.prices),
            'Variant Compare At Price': price(product.compareAtPrices ?? {}),
            ...stockCells(product.stock),
          },
        ]
      : product.variants.map((variant) => {
          const cells: Partial<Record<ShopifyColumn, string>> = {
            'Variant Image': selectionImage(product, choicesOf(variant)) ?? '',
            'Variant SKU': guard(variant.sku),
            'Variant Price': price(variant.prices),
            'Variant Compare At Price': price(variant.compareAtPrices ?? {}),
            ...stockCells(variant.stock),
          };
          options.forEach((option, n) => {
            const choice = variant.options.find((c) => c.optionId === option.id);
            const value = option.optionValues.find((v) => v.id === choice?.optionValueId);
            cells[`Option${n + 1} Value` as ShopifyColumn] = guard(value?.name ?? '');
          });
          return cells;
        });
  const first: Partial<Record<ShopifyColumn, string>> = {
    Title: guard(product.name),
    'Body (HTML)': product.descriptionHtml || plainTextToHtml(product.description),
    Published: product.archived ? 'FALSE' : 'TRUE',
    Status: product.archived ? 'archived' : 'active',
    'Gift Card': 'FALSE',
  };
  options.forEach((option, n) => {
    first[`Option${n + 1} Name` as ShopifyColumn] = guard(option.name);
  });
  const rows: Partial<Record<ShopifyColumn, string>>[] = variantRows.map((cells, n) => ({
    ...(n === 0 ? first : {}),
    ...cells,
    'Variant Grams': '0',
    'Variant Inventory Policy': 'deny',
    'Variant Fulfillment Service': 'manual',
    'Variant Requires Shipping': 'TRUE',
    'Variant Taxable': 'TRUE',
    'Variant Weight Unit': 'kg',
  }));
  product.images.forEach((src, n) => {
    const image = { 'Image Src': src, 'Image Position': String(n + 1) };
    rows[n] = { ...(rows[n] ?? {}), ...image };
  });
  return rows.map((cells) =>
    SHOPIFY_PRODUCT_COLUMNS.map((column) => (column === 'Handle' ? handle : (cells[column] ?? ''))),
  );
}

function stockCells(stock: number | null): Partial<Record<ShopifyColumn, string>> {
  return stock === null
    ? { 'Variant Inventory Tracker': '', 'Variant Inventory Qty': '' }
    : { 'Variant Inventory Tracker': 'shopify', 'Variant Inventory Qty': String(stock) };
}
