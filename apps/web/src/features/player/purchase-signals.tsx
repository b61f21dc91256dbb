import type { PurchaseBadge } from '@vitrine/domain';
import { latestPurchaseBadge, PURCHASE_BADGE_DURATION_MS, popularProductUids } from '@vitrine/domain';
import type { EventProduct } from '@vitrine/protocol';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';

const NOBODY_POPULAR: ReadonlySet<string> = new Set();

export interface PurchaseSignalsProps {
  pageUid: string;
  campaignUid: string;
  /** The show's products as displayed (host data laid over), for the badge's name and image. */
  products: readonly EventProduct[];
  showPopularityBadges: boolean;
  showPurchaseBadges: boolean;
  /** Catalogue product uids now labelled "popular", for the product list's stock labels. */
  onPopularChange(productUids: ReadonlySet<string>): void;
}

/**
 * Popularity and purchase badges from the purchases live query. Loaded on demand and mounted only
 * while a badge setting is on, so a page that shows neither never opens the subscription and the
 * player's first bundle stays small.
 */
export default function PurchaseSignals(props: PurchaseSignalsProps) {
  const { pageUid, campaignUid, products, showPopularityBadges, showPurchaseBadges, onPopularChange } = props;
  const live = useLiveQuery('purchases', { pageUid, campaignUid });
  const purchases = live.docs;

  const popular = useMemo(
    () => (showPopularityBadges ? popularProductUids(purchases) : NOBODY_POPULAR),
    [showPopularityBadges, purchases],
  );
  // Reported by content, so an unchanged set does not re-render the player.
  const popularKey = [...popular].sort().join(' ');
  // biome-ignore lint/correctness/useExhaustiveDependencies: popularKey stands for the set's content
  useEffect(() => onPopularChange(popular), [popularKey, onPopularChange]);
  useEffect(() => () => onPopularChange(NOBODY_POPULAR), [onPopularChange]);

  const badge = useMemo(() => {
    if (!showPurchaseBadges) return null;
    const shown = new Set(products.map((product) => product.productUid));
    return latestPurchaseBadge(purchases, (productUid) => shown.has(productUid));
  }, [showPurchaseBadges, purchases, products]);
  return <PurchaseToast badge={badge} products={products} />;
}

/**
 * "{name} just bought {product}" over the video for PURCHASE_BADGE_DURATION_MS after the purchase
 * arrives; a newer purchase replaces it and restarts the time. Names are rendered as text only.
 */
function PurchaseToast({
  badge,
  products,
}: {
  badge: PurchaseBadge | null;
  products: readonly EventProduct[];
}) {
  const { t } = useTranslation();
  const [expiredUid, setExpiredUid] = useState<string | null>(null);
  const purchaseUid = badge?.purchaseUid ?? null;
  useEffect(() => {
    if (!purchaseUid) return;
    const timer = setTimeout(() => setExpiredUid(purchaseUid), PURCHASE_BADGE_DURATION_MS);
    return () => clearTimeout(timer);
  }, [purchaseUid]);
  if (!badge || badge.purchaseUid === expiredUid) return null;
  const product = products.find((candidate) => candidate.productUid === badge.productUid);
  if (!product) return null;
  const text = badge.buyerName
    ? t('player.purchaseBadge.named', { name: badge.buyerName, product: product.product.name })
    : t('player.purchaseBadge.someone', { product: product.product.name });
  return (
    <output className="purchase-badge" aria-live="polite">
      {product.product.images[0] && <img src={product.product.images[0]} alt="" />}
      <span>{text}</span>
    </output>
  );
}
