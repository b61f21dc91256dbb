import type { Product, ProductInput } from '@vitrine/protocol';
import type { Database, Queryable } from '../../db/database.ts';
import { HttpError } from '../../http/errors.ts';

interface ProductRow {
  uid: string;
  page_uid: string;
  external_id: string;
  name: string;
  description: string;
  sku: string;
  url: string | null;
  images: string[];
  prices: Product['prices'];
  stock: number | null;
  options: Product['options'];
}

interface VariantRow {
  uid: string;
  product_uid: string;
  name: string;
  sku: string;
  prices: Product['prices'];
  stock: number | null;
  options: Product['variants'][number]['options'];
}

/** Inserts or replaces a product and its variants, inside the caller's transaction. */
async function writeProduct(
  tx: Queryable,
  pageUid: string,
  productUid: string,
  input: ProductInput,
): Promise<void> {
  const [owner] = await tx.query<{ page_uid: string }>('SELECT page_uid FROM products WHERE uid = $1', [
    productUid,
  ]);
  if (owner && owner.page_uid !== pageUid) {
    throw new HttpError(409, 'conflict', `Product "${productUid}" belongs to another store.`);
  }
  await tx.query(
    `INSERT INTO products (uid, page_uid, external_id, name, description, sku, url, images, prices, stock, options)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (uid) DO UPDATE SET
       external_id = EXCLUDED.external_id, name = EXCLUDED.name, description = EXCLUDED.description,
       sku = EXCLUDED.sku, url = EXCLUDED.url, images = EXCLUDED.images, prices = EXCLUDED.prices,
       stock = EXCLUDED.stock, options = EXCLUDED.options, updated_at = now()`,
    [
      productUid,
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
    ],
  );
  await tx.query('DELETE FROM product_variants WHERE product_uid = $1', [productUid]);
  if (input.variants.length === 0) return;
  // One INSERT for all variants: an import writes thousands.
  const values: unknown[] = [];
  const tuples = input.variants.map((variant, position) => {
    values.push(
      variant.uid,
      productUid,
      position,
      variant.name,
      variant.sku,
      JSON.stringify(variant.prices),
      variant.stock,
      JSON.stringify(variant.options),
    );
    const base = position * 8;
    return `($${base + 1}, $${base + 2}, $${base + 3}, $${base + 4}, $${base + 5}, $${base + 6}, $${base + 7}, $${base + 8})`;
  });
  await tx.query(
    `INSERT INTO product_variants (uid, product_uid, position, name, sku, prices, stock, options)
     VALUES ${tuples.join(', ')}`,
    values,
  );
}

/** Products of a store with their options and variants (spec §3 "Product (shop side)"). */
export function createCatalogService(db: Database) {
  return {
    async upsertProduct(pageUid: string, productUid: string, input: ProductInput): Promise<void> {
      await db.transaction((tx) => writeProduct(tx, pageUid, productUid, input));
    },

    /** Writes several products in one transaction (a CSV import): all of them or none. */
    async upsertProducts(
      pageUid: string,
      products: readonly { uid: string; input: ProductInput }[],
    ): Promise<void> {
      await db.transaction(async (tx) => {
        for (const product of products) await writeProduct(tx, pageUid, product.uid, product.input);
      });
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
        sku: row.sku,
        url: row.url,
        images: row.images,
        prices: row.prices,
        stock: row.stock,
        options: row.options,
        variants: variants
          .filter((variant) => variant.product_uid === row.uid)
          .map((variant) => ({
            uid: variant.uid,
            name: variant.name,
            sku: variant.sku,
            prices: variant.prices,
            stock: variant.stock,
            options: variant.options,
          })),
      }));
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
