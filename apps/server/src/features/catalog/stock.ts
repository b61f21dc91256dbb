import type { Queryable } from '../../db/database.ts';

/**
 * Free stock of products and variants (the catalog's `stock` columns: units still free to
 * reserve; NULL is not stock-managed). Carts take units out and give them back through these
 * functions only, inside the caller's transaction.
 *
 * Lock order: a product row before its variant rows, products in uid order, so transactions that
 * touch several never wait on each other in a cycle. A variant product's own stock is the sum of
 * its variants (see the demo seed) and moves with them.
 */

export interface StockItem {
  productUid: string;
  /** null for a product without variants. */
  variantUid: string | null;
  qty: number;
}

/**
 * Takes `qty` units of a product or variant, in one call of take_stock (migration 0026): one
 * conditional UPDATE per row, so under concurrent buyers the row lock makes each UPDATE see the
 * previous one's result, stock never goes below zero and never more units are handed out than
 * there were; a variant's product row is locked first (lock order). False when fewer than `qty`
 * are left. A cart's add calls take_stock from its own last statement (checkout-store.ts
 * saveDocsAndTakeStock, for a batch of adds at once).
 */
export async function reserveStock(tx: Queryable, item: StockItem): Promise<boolean> {
  const [row] = await tx.query<{ taken: boolean }>('SELECT take_stock($1, $2, $3) AS taken', [
    item.productUid,
    item.variantUid,
    item.qty,
  ]);
  return row?.taken === true;
}

/**
 * The units of a product or variant free now: null when not stock-managed, undefined when there is
 * no such product or variant. A read only: a sale is decided by reserveStock.
 */
export async function freeStock(
  q: Queryable,
  item: Omit<StockItem, 'qty'>,
): Promise<number | null | undefined> {
  const [row] =
    item.variantUid === null
      ? await q.query<{ stock: number | null }>('SELECT stock FROM products WHERE uid = $1', [
          item.productUid,
        ])
      : await q.query<{ stock: number | null }>(
          'SELECT stock FROM product_variants WHERE product_uid = $1 AND uid = $2',
          [item.productUid, item.variantUid],
        );
  return row?.stock;
}

/** Gives units back (removed, cancelled or expired cart lines). Items of deleted products or variants are skipped. */
export async function releaseStock(tx: Queryable, items: readonly StockItem[]): Promise<void> {
  const ordered = [...items].sort(
    (a, b) =>
      a.productUid.localeCompare(b.productUid) ||
      (a.variantUid ?? '').localeCompare(b.variantUid ?? '') ||
      a.qty - b.qty,
  );
  for (const item of ordered) {
    await tx.query('UPDATE products SET stock = stock + $2 WHERE uid = $1 AND stock IS NOT NULL', [
      item.productUid,
      item.qty,
    ]);
    if (item.variantUid !== null) {
      await tx.query(
        'UPDATE product_variants SET stock = stock + $3 WHERE product_uid = $1 AND uid = $2 AND stock IS NOT NULL',
        [item.productUid, item.variantUid, item.qty],
      );
    }
  }
}
