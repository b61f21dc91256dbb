import { IMAGE_UPLOAD_MEDIA_TYPES, MAX_IMAGE_UPLOAD_BYTES, MAX_PRODUCT_CSV_BYTES } from '@vitrine/domain';
import { z } from 'zod';
import { Product, ProductInput } from '../../catalog.ts';
import { CurrencyCode, PriceList, Uid } from '../../common.ts';
import { call } from '../define-call.ts';

/** A product as the studio edits it: the shop-side product, whether it is archived, when it changed. */
export const StudioProduct = Product.extend({
  archived: z.boolean(),
  /** Milliseconds since the epoch. */
  updatedAt: z.number(),
});
export type StudioProduct = z.infer<typeof StudioProduct>;

/** One line of the studio's product list. */
export const StudioProductSummary = z.object({
  uid: Uid,
  name: z.string(),
  sku: z.string(),
  externalId: z.string(),
  image: z.string().nullable(),
  prices: PriceList,
  /** Units left over all variants; null when not stock-managed. */
  stock: z.number().nullable(),
  variantCount: z.number().int(),
  archived: z.boolean(),
  updatedAt: z.number(),
});
export type StudioProductSummary = z.infer<typeof StudioProductSummary>;

/** Which products a list shows: archived ones are hidden unless asked for. */
export const ArchivedFilter = z.enum(['active', 'archived', 'all']);
export type ArchivedFilter = z.infer<typeof ArchivedFilter>;

export const StudioProductQuery = z.object({
  /** Words of the name, or (part of) a SKU of the product or a variant. */
  q: z.string().trim().max(200).default(''),
  archived: ArchivedFilter.default('active'),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type StudioProductQuery = z.infer<typeof StudioProductQuery>;

/** A stored image's URL (its largest size), with every size written. */
export const StoredImageSchema = z.object({
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  variants: z.array(z.object({ url: z.string(), width: z.number().int(), height: z.number().int() })),
});
export type StoredImage = z.infer<typeof StoredImageSchema>;

/** A cell of an import file that cannot be imported, and why. */
export const ImportRowError = z.object({
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: z.number().int(),
  /** The column's header, or null for the row as a whole. */
  column: z.string().nullable(),
  message: z.string(),
});
export type ImportRowError = z.infer<typeof ImportRowError>;

/** What importing a file would do (or did) to one product, found by its handle. */
export const ImportedProduct = z.object({
  handle: z.string(),
  name: z.string(),
  /** `invalid`: one of its rows has an error, so it is not imported. */
  action: z.enum(['create', 'update', 'invalid']),
  variantCount: z.number().int(),
  /** The uid of the product it updates, or null. */
  productUid: Uid.nullable(),
  firstRow: z.number().int(),
});
export type ImportedProduct = z.infer<typeof ImportedProduct>;

/** The dry run of a Shopify product CSV: what would be created and updated, and every bad row. */
export const ImportReport = z.object({
  rowCount: z.number().int(),
  products: z.array(ImportedProduct),
  errors: z.array(ImportRowError),
  /** What is imported, but not as the file has it (a description cut to its limit): per row. */
  warnings: z.array(ImportRowError).default([]),
  counts: z.object({ create: z.number().int(), update: z.number().int(), invalid: z.number().int() }),
  /** The currency the file's prices were read in (the store's). */
  currency: z.string(),
});
export type ImportReport = z.infer<typeof ImportReport>;

const StorePath = z.object({ pageUid: Uid });
const ProductPath = z.object({ pageUid: Uid, productUid: Uid });
const CSV_BODY = { mediaTypes: ['text/csv'], maxBytes: MAX_PRODUCT_CSV_BYTES } as const;

const HOST = { staff: 'host' } as const;

/** The studio's catalogue calls: products, images, CSV import/export. */
export const catalogueCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  getCatalogueInfo: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/catalogue-info',
    auth: HOST,
    summary:
      "What the catalogue's screens need of the store: its own currency (a CSV's prices are in it) and the currencies products are priced in.",
    params: StorePath,
    response: z.object({ currency: CurrencyCode, currencies: z.array(CurrencyCode) }),
  }),
  exportProducts: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/product-export',
    auth: HOST,
    summary: "The store's products (archived ones included) as a Shopify product CSV.",
    params: StorePath,
    response: z.object({ filename: z.string(), csv: z.string() }),
  }),
  uploadProductImage: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/product-images',
    auth: HOST,
    summary:
      "Stores a product image (JPEG, PNG, WebP, GIF or AVIF; at most 10 MB and 40 megapixels), resized to the player's sizes; add its URL to a product's images.",
    params: StorePath,
    binaryBody: { mediaTypes: IMAGE_UPLOAD_MEDIA_TYPES, maxBytes: MAX_IMAGE_UPLOAD_BYTES },
    response: StoredImageSchema,
    status: 201,
  }),
  importProducts: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/product-import',
    auth: HOST,
    summary:
      'Imports a Shopify product CSV. With bad rows nothing is imported (422) unless `validOnly=true` confirms importing the valid products only.',
    params: StorePath,
    query: z.object({
      validOnly: z
        .enum(['true', 'false'])
        .default('false')
        .transform((value) => value === 'true'),
    }),
    binaryBody: CSV_BODY,
    response: z.object({
      report: ImportReport,
      created: z.number().int(),
      updated: z.number().int(),
      skipped: z.number().int(),
    }),
  }),
  previewProductImport: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/product-import/preview',
    auth: HOST,
    summary:
      'Dry run of a Shopify product CSV (at most 5 MB): which products would be created or updated (by handle) and every bad row; nothing is changed.',
    params: StorePath,
    binaryBody: CSV_BODY,
    response: ImportReport,
  }),
  listStudioProducts: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/products',
    auth: HOST,
    summary:
      "The store's products, newest change first, searched by name or SKU, a page at a time with the total; archived ones only when asked for.",
    params: StorePath,
    query: StudioProductQuery,
    response: z.object({
      products: z.array(StudioProductSummary),
      total: z.number().int(),
      offset: z.number().int(),
      limit: z.number().int(),
    }),
  }),
  createStudioProduct: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/products',
    auth: HOST,
    summary: 'Creates a product; its uid is made by the server.',
    params: StorePath,
    request: ProductInput,
    response: StudioProduct,
    status: 201,
  }),
  getStudioProduct: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/products/:productUid',
    auth: HOST,
    summary: 'One product with its options, variants, prices, stock and images.',
    params: ProductPath,
    response: StudioProduct,
  }),
  updateStudioProduct: call({
    method: 'PUT',
    path: '/staff/stores/:pageUid/products/:productUid',
    auth: HOST,
    summary:
      'Creates or replaces a product under its uid (options, variants, prices, stock, images); shows presenting it update for their viewers. 404 for a uid of another store.',
    params: ProductPath,
    request: ProductInput,
    response: StudioProduct,
  }),
  setStudioProductArchived: call({
    method: 'PUT',
    path: '/staff/stores/:pageUid/products/:productUid/archived',
    auth: HOST,
    summary:
      'Archives a product (hidden from the list and from new shows; shows already presenting it keep it) or restores it.',
    params: ProductPath,
    request: z.object({ archived: z.boolean() }).strict(),
    response: StudioProduct,
  }),
  duplicateStudioProduct: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/products/:productUid/duplicate',
    auth: HOST,
    summary:
      'Copies a product under a new uid, named "… (copy)", without its external id; the copy is active.',
    params: ProductPath,
    response: StudioProduct,
    status: 201,
  }),
};
