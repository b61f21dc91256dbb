import { randomBytes } from 'node:crypto';
import { productStockOf } from '@vitrine/domain';
import type {
  Product,
  ProductInput,
  StudioProduct,
  StudioProductQuery,
  StudioProductSummary,
} from '@vitrine/protocol';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import type { StoreService } from '../stores/store-service.ts';
import type { CatalogService } from './catalog-service.ts';

interface SummaryRow {
  uid: string;
  name: string;
  sku: string;
  external_id: string;
  image: string | null;
  prices: StudioProductSummary['prices'];
  stock: number | null;
  variant_count: number | string;
  archived_at: number | string | null;
  updated_ms: number | string;
}

/** A new product uid: URL-safe, unguessable (product pages of drafts are not enumerable). */
export const newProductUid = () => randomBytes(12).toString('base64url');

/** `%` and `_` are literal in a search, not LIKE wildcards. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

/**
 * The studio's view of a store's catalogue: listing with search and paging, archiving, and
 * writing products with the rules the shop relies on (a variant product's stock is its variants').
 */
export function createStudioCatalogueService(
  db: Database,
  catalog: CatalogService,
  stores: Pick<StoreService, 'pageExists'>,
  now: () => number,
) {
  /** The products with their studio fields, of store `pageUid` only, in `uids` order. */
  async function studioProducts(pageUid: string, uids: readonly string[]): Promise<StudioProduct[]> {
    if (uids.length === 0) return [];
    const products = (await catalog.productsByUid(uids)).filter((product) => product.pageUid === pageUid);
    const rows = await db.query<{
      uid: string;
      archived_at: string | number | null;
      updated_ms: string | number;
    }>(
      `SELECT uid, archived_at, (extract(epoch FROM updated_at) * 1000)::bigint AS updated_ms
       FROM products WHERE uid = ANY($1) AND page_uid = $2`,
      [uids, pageUid],
    );
    const extra = new Map(rows.map((row) => [row.uid, row]));
    const byUid = new Map(products.map((product) => [product.uid, product]));
    return uids.flatMap((uid) => {
      const product = byUid.get(uid);
      const row = extra.get(uid);
      if (!product || !row) return [];
      return [{ ...product, archived: row.archived_at !== null, updatedAt: Number(row.updated_ms) }];
    });
  }

  async function studioProduct(pageUid: string, productUid: string): Promise<StudioProduct> {
    const [product] = await studioProducts(pageUid, [productUid]);
    // Another store's product is as unknown as one that does not exist.
    if (!product) throw notFound(`No product "${productUid}" in this store.`);
    return product;
  }

  /** The input as stored: a variant product's stock is the sum of its variants'. */
  const normalized = (input: ProductInput): ProductInput => ({ ...input, stock: productStockOf(input) });

  return {
    studioProduct,
    studioProducts,

    async list(
      pageUid: string,
      query: StudioProductQuery,
    ): Promise<{ products: StudioProductSummary[]; total: number; offset: number; limit: number }> {
      const conditions = ['page_uid = $1'];
      const values: unknown[] = [pageUid];
      if (query.archived === 'active') conditions.push('archived_at IS NULL');
      if (query.archived === 'archived') conditions.push('archived_at IS NOT NULL');
      if (query.q) {
        values.push(likePattern(query.q));
        const n = values.length;
        conditions.push(
          `(name ILIKE $${n} OR sku ILIKE $${n} OR external_id ILIKE $${n} OR EXISTS (
             SELECT 1 FROM product_variants v WHERE v.product_uid = products.uid AND v.sku ILIKE $${n}))`,
        );
      }
      const where = conditions.join(' AND ');
      const [counted] = await db.query<{ total: number | string }>(
        `SELECT count(*) AS total FROM products WHERE ${where}`,
        values,
      );
      const rows = await db.query<SummaryRow>(
        `SELECT uid, name, sku, external_id, images->>0 AS image, prices, stock, archived_at,
           (SELECT count(*) FROM product_variants v WHERE v.product_uid = products.uid) AS variant_count,
           (extract(epoch FROM updated_at) * 1000)::bigint AS updated_ms
         FROM products WHERE ${where}
         ORDER BY updated_at DESC, uid
         LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
        [...values, query.limit, query.offset],
      );
      return {
        products: rows.map((row) => ({
          uid: row.uid,
          name: row.name,
          sku: row.sku,
          externalId: row.external_id,
          image: row.image,
          prices: row.prices,
          stock: row.stock,
          variantCount: Number(row.variant_count),
          archived: row.archived_at !== null,
          updatedAt: Number(row.updated_ms),
        })),
        total: Number(counted?.total ?? 0),
        offset: query.offset,
        limit: query.limit,
      };
    },

    async create(pageUid: string, input: ProductInput): Promise<StudioProduct> {
      const uid = newProductUid();
      await catalog.upsertProduct(pageUid, uid, normalized(input));
      return studioProduct(pageUid, uid);
    },

    /**
     * Replaces a product, or creates it under `productUid` when the store has none by that uid:
     * automation (the admin key) keeps its own uids, as an import does. A uid of another store's
     * product, or a store that does not exist, is a 404, as in every studio call.
     */
    async update(pageUid: string, productUid: string, input: ProductInput): Promise<StudioProduct> {
      const [holder] = await db.query<{ page_uid: string }>('SELECT page_uid FROM products WHERE uid = $1', [
        productUid,
      ]);
      if (holder && holder.page_uid !== pageUid) throw notFound(`No product "${productUid}" in this store.`);
      if (!holder && !(await stores.pageExists(pageUid))) throw notFound(`No store "${pageUid}".`);
      await catalog.upsertProduct(pageUid, productUid, normalized(input));
      return studioProduct(pageUid, productUid);
    },

    /** A copy under a new uid, active, without the external id (a handle names one product). */
    async duplicate(pageUid: string, productUid: string, copySuffix = ' (copy)'): Promise<StudioProduct> {
      const {
        uid: _uid,
        pageUid: _page,
        archived: _archived,
        updatedAt: _updated,
        ...input
      } = await studioProduct(pageUid, productUid);
      const name = `${input.name.slice(0, 300 - copySuffix.length)}${copySuffix}`;
      return this.create(pageUid, { ...input, name, externalId: '' });
    },

    async setArchived(pageUid: string, productUid: string, archived: boolean): Promise<StudioProduct> {
      await studioProduct(pageUid, productUid);
      await db.query(
        `UPDATE products SET archived_at = CASE WHEN $3 THEN COALESCE(archived_at, $4) ELSE NULL END, updated_at = now()
         WHERE uid = $1 AND page_uid = $2`,
        [productUid, pageUid, archived, now()],
      );
      return studioProduct(pageUid, productUid);
    },

    /** Which of `uids` are archived: new shows do not take them (the shows feature asks). */
    async archivedUids(pageUid: string, uids: readonly string[]): Promise<Set<string>> {
      if (uids.length === 0) return new Set();
      const rows = await db.query<{ uid: string }>(
        'SELECT uid FROM products WHERE page_uid = $1 AND uid = ANY($2) AND archived_at IS NOT NULL',
        [pageUid, uids],
      );
      return new Set(rows.map((row) => row.uid));
    },

    /**
     * The store's products a CSV's handles name: by external id, else by uid (an export writes
     * the uid as handle of a product without one). Answers handle → product.
     */
    async productsByHandles(
      pageUid: string,
      handles: readonly string[],
    ): Promise<Map<string, StudioProduct>> {
      if (handles.length === 0) return new Map();
      const rows = await db.query<{ uid: string; external_id: string }>(
        `SELECT uid, external_id FROM products
         WHERE page_uid = $1 AND (external_id = ANY($2) OR uid = ANY($2))
         ORDER BY updated_at DESC`,
        [pageUid, handles],
      );
      const products = new Map(
        (
          await studioProducts(
            pageUid,
            rows.map((row) => row.uid),
          )
        ).map((p) => [p.uid, p]),
      );
      const found = new Map<string, StudioProduct>();
      for (const row of rows) {
        const product = products.get(row.uid);
        if (!product) continue;
        // An external id match wins over a uid match; the newest product wins among equals.
        if (row.external_id && handles.includes(row.external_id) && !found.has(row.external_id))
          found.set(row.external_id, product);
      }
      for (const row of rows) {
        const product = products.get(row.uid);
        if (product && handles.includes(row.uid) && !found.has(row.uid)) found.set(row.uid, product);
      }
      return found;
    },

    /** Every product of the store, archived ones included, oldest first (an export). */
    async allProducts(pageUid: string): Promise<StudioProduct[]> {
      const rows = await db.query<{ uid: string }>(
        'SELECT uid FROM products WHERE page_uid = $1 ORDER BY name, uid',
        [pageUid],
      );
      return studioProducts(
        pageUid,
        rows.map((row) => row.uid),
      );
    },

    /** Writes imported products, archived or active as the file says, in one transaction. */
    async importProducts(
      pageUid: string,
      products: readonly { uid: string; input: ProductInput; archived: boolean }[],
    ): Promise<void> {
      await catalog.upsertProducts(
        pageUid,
        products.map((product) => ({ ...product, input: normalized(product.input) })),
      );
    },
  };
}

export type StudioCatalogueService = ReturnType<typeof createStudioCatalogueService>;
export type { Product };
