import { prefixQuery } from '@vitrine/domain';
import type { Product, ProductInput } from '@vitrine/protocol';
import type { Database, Queryable } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';
import { safeDescriptionHtml } from './description-html.ts';

/** A product's searchable words: exactly the expression products_search_idx (migration 0048) indexes. */
export const SEARCH_DOCUMENT = "to_tsvector('simple', name || ' ' || description || ' ' || sku)";

interface ProductRow {
  uid: string;
  page_uid: string;
  external_id: string;
  name: string;
  description: string;
  description_html: string | null;
  sku: string;
  url: string | null;
  images: string[];
  prices: Product['prices'];
  compare_at_prices: Product['prices'];
  stock: number | null;
  options: Product['options'];
}

interface VariantRow {
  uid: string;
  product_uid: string;
  name: string;
  sku: string;
  prices: Product['prices'];
  compare_at_prices: Product['prices'];
  stock: number | null;
  options: Product['variants'][number]['options'];
}

/** The "was" prices of a row, left out when there are none (documents stay as they were). */
const compareAt = (prices: Product['prices'] | null | undefined) =>
  prices && Object.keys(prices).length > 0 ? { compareAtPrices: prices } : {};

/** Rows per INSERT: well under PostgreSQL's 65,535 parameters, few round trips for an import. */
const PRODUCTS_PER_INSERT = 200;
const VARIANTS_PER_INSERT = 1_000;

/** `($1, $2, …), ($n+1, …)`: the VALUES of `rows` rows of `width` parameters each. */
function valueTuples(rows: number, width: number): string {
  return Array.from(
    { length: rows },
    (_, row) =>
      `(${Array.from({ length: width }, (_, column) => `$${row * width + column + 1}`).join(', ')})`,
  ).join(', ');
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}

/**
 * Inserts or replaces products and their variants, inside the caller's transaction, in a few
 * statements whatever their number (a CSV import writes thousands of rows).
 */
async function writeProducts(
  tx: Queryable,
  pageUid: string,
  products: readonly { uid: string; input: ProductInput; archived?: boolean }[],
  now: number,
): Promise<void> {
  if (products.length === 0) return;
  const uids = products.map((product) => product.uid);
  const [foreign] = await tx.query<{ uid: string }>(
    'SELECT uid FROM products WHERE uid = ANY($1) AND page_uid <> $2 LIMIT 1',
    [uids, pageUid],
  );
  if (foreign) throw new HttpError(409, 'conflict', `Product "${foreign.uid}" belongs to another store.`);
  for (const batch of chunks(products, PRODUCTS_PER_INSERT)) {
    await tx.query(
      `INSERT INTO products (uid, page_uid, external_id, name, description, sku, url, images, prices, stock, options,
         compare_at_prices, description_html)
       VALUES ${valueTuples(batch.length, 13)}
       ON CONFLICT (uid) DO UPDATE SET
         external_id = EXCLUDED.external_id, name = EXCLUDED.name, description = EXCLUDED.description,
         sku = EXCLUDED.sku, url = EXCLUDED.url, images = EXCLUDED.images, prices = EXCLUDED.prices,
         stock = EXCLUDED.stock, options = EXCLUDED.options, compare_at_prices = EXCLUDED.compare_at_prices,
         description_html = EXCLUDED.description_html, updated_at = now()`,
      batch.flatMap(({ uid, input }) => [
        uid,
        pageUid,
        input.externalId,
        input.name,
        input.description,
        input.sku,
        input.url,
        JSON.stringify(input.images),
        JSON.stringify(input.prices),
        input.stock,
        JSON.stringify(input.options),
        JSON.stringify(input.compareAtPrices ?? {}),
        // Whoever sent it (the studio, the admin API, an import), only the allow-list's part is kept.
        safeDescriptionHtml(input.descriptionHtml),
      ]),
    );
  }
  await tx.query('DELETE FROM product_variants WHERE product_uid = ANY($1)', [uids]);
  const variantRows = products.flatMap(({ uid, input }) =>
    input.variants.map((variant, position) => [
      variant.uid,
      uid,
      position,
      variant.name,
      variant.sku,
      JSON.stringify(variant.prices),
      variant.stock,
      JSON.stringify(variant.options),
      JSON.stringify(variant.compareAtPrices ?? {}),
    ]),
  );
  for (const batch of chunks(variantRows, VARIANTS_PER_INSERT)) {
    await tx.query(
      `INSERT INTO product_variants (uid, product_uid, position, name, sku, prices, stock, options, compare_at_prices)
       VALUES ${valueTuples(batch.length, 9)}`,
      batch.flat(),
    );
  }
  // Archived or active as said (an import's Status column); others keep what they were.
  const archived = products.filter((product) => product.archived === true).map((product) => product.uid);
  const active = products.filter((product) => product.archived === false).map((product) => product.uid);
  if (archived.length > 0)
    await tx.query('UPDATE products SET archived_at = COALESCE(archived_at, $2) WHERE uid = ANY($1)', [
      archived,
      now,
    ]);
  if (active.length > 0)
    await tx.query('UPDATE products SET archived_at = NULL WHERE uid = ANY($1)', [active]);
}

/** Products of a store with their options and variants (spec §3 "Product (shop side)"). */
export function createCatalogService(db: Database, now: () => number) {
  return {
    async upsertProduct(pageUid: string, productUid: string, input: ProductInput): Promise<void> {
      await db.transaction((tx) => writeProducts(tx, pageUid, [{ uid: productUid, input }], now()));
    },

    /**
     * Writes several products in one transaction (a CSV import): all of them or none. `archived`
     * archives (now, by the service's clock) or restores a product; left out, it stays as it was.
     */
    async upsertProducts(
      pageUid: string,
      products: readonly { uid: string; input: ProductInput; archived?: boolean }[],
    ): Promise<void> {
      await db.transaction((tx) => writeProducts(tx, pageUid, products, now()));
    },

    /**
     * Products (of one store, or of all) whose name, description or SKU has a word starting with
     * each of `terms` (domain searchTerms), best match first, at most `limit`. The expression is
     * the one products_search_idx indexes, so the index serves it.
     */
    async searchProducts(
      terms: readonly string[],
      pageUid: string | null,
      limit: number,
    ): Promise<{ uid: string; pageUid: string; name: string; image: string | null }[]> {
      if (terms.length === 0) return [];
      const rows = await db.query<{ uid: string; page_uid: string; name: string; image: string | null }>(
        `SELECT uid, page_uid, name, images->>0 AS image FROM products
         WHERE ${SEARCH_DOCUMENT} @@ to_tsquery('simple', $1) AND ($2::text IS NULL OR page_uid = $2)
         ORDER BY ts_rank(${SEARCH_DOCUMENT}, to_tsquery('simple', $1)) DESC, name, uid
         LIMIT $3`,
        [prefixQuery(terms), pageUid, limit],
      );
      return rows.map((row) => ({ uid: row.uid, pageUid: row.page_uid, name: row.name, image: row.image }));
    },

    /** The products with these uids, in no particular order; unknown uids are skipped. */
    /** The products; `q` is the caller's transaction when it builds a document to publish. */
    async productsByUid(uids: readonly string[], q: Queryable = db): Promise<Product[]> {
      if (uids.length === 0) return [];
      const rows = await q.query<ProductRow>('SELECT * FROM products WHERE uid = ANY($1)', [uids]);
      const variants = await q.query<VariantRow>(
        'SELECT * FROM product_variants WHERE product_uid = ANY($1) ORDER BY product_uid, position',
        [uids],
      );
      return rows.map((row) => ({
        uid: row.uid,
        pageUid: row.page_uid,
        externalId: row.external_id,
        name: row.name,
        description: row.description,
        ...(row.description_html ? { descriptionHtml: row.description_html } : {}),
        sku: row.sku,
        url: row.url,
        images: row.images,
        prices: row.prices,
        ...compareAt(row.compare_at_prices),
        stock: row.stock,
        options: row.options,
        variants: variants
          .filter((variant) => variant.product_uid === row.uid)
          .map((variant) => ({
            uid: variant.uid,
            name: variant.name,
            sku: variant.sku,
            prices: variant.prices,
            ...compareAt(variant.compare_at_prices),
            stock: variant.stock,
            options: variant.options,
          })),
      }));
    },

    /**
     * Marks a store's product sold out: no unit of it or its variants is left (a product that was
     * not stock-managed becomes so, with none). Carts holding units keep them; their release gives
     * units back as usual. False for a product of another store or none.
     */
    async markSoldOut(pageUid: string, productUid: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        // The product row before its variants: the lock order of stock.ts.
        const [product] = await tx.query(
          'UPDATE products SET stock = 0, updated_at = now() WHERE uid = $1 AND page_uid = $2 RETURNING uid',
          [productUid, pageUid],
        );
        if (!product) return false;
        await tx.query('UPDATE product_variants SET stock = 0 WHERE product_uid = $1', [productUid]);
        return true;
      });
    },

    async pageOfProduct(productUid: string): Promise<string | undefined> {
      const [row] = await db.query<{ page_uid: string }>('SELECT page_uid FROM products WHERE uid = $1', [
        productUid,
      ]);
      return row?.page_uid;
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
