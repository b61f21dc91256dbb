import { POPULAR_PURCHASE_COUNT } from './constants.ts';

/** The part of a purchase (protocol PurchaseDoc) the rules read. */
export interface PurchaseSignal {
  uid: string;
  productUid: string;
  buyerName: string;
  time: number;
}

/**
 * The products labelled "popular": those bought at least POPULAR_PURCHASE_COUNT times among the
 * purchases seen. Each purchase counts once, however often it is delivered (by uid).
 */
export function popularProductUids(purchases: readonly PurchaseSignal[]): Set<string> {
  const seen = new Set<string>();
  const counts = new Map<string, number>();
  for (const purchase of purchases) {
    if (seen.has(purchase.uid)) continue;
    seen.add(purchase.uid);
    counts.set(purchase.productUid, (counts.get(purchase.productUid) ?? 0) + 1);
  }
  const popular = new Set<string>();
  for (const [productUid, count] of counts) if (count >= POPULAR_PURCHASE_COUNT) popular.add(productUid);
  return popular;
}

export interface PurchaseBadge {
  purchaseUid: string;
  productUid: string;
  /** The buyer's first name, or null when the order carried none (the badge then says "Someone"). */
  buyerName: string | null;
}

/**
 * The badge for the newest purchase of a product this show presents, or null. Purchases of
 * products not in the show are skipped: the badge names the product, and the viewer could not
 * find it in the list.
 */
export function latestPurchaseBadge(
  purchases: readonly PurchaseSignal[],
  showsProduct: (productUid: string) => boolean,
): PurchaseBadge | null {
  let newest: PurchaseSignal | null = null;
  for (const purchase of purchases) {
    if (!showsProduct(purchase.productUid)) continue;
    if (!newest || purchase.time >= newest.time) newest = purchase;
  }
  if (!newest) return null;
  const buyerName = newest.buyerName.trim();
  return { purchaseUid: newest.uid, productUid: newest.productUid, buyerName: buyerName || null };
}
