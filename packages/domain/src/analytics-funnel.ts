import { minuteOf } from './analytics-rollup.ts';

/** A product's time on screen in a show: from a cue's start to its end (or the show's end). */
export interface ProductChapter {
  productUid: string;
  start: number;
  end: number;
}

export interface ChapterCue {
  presentationStartTimestamp: number;
  presentationEndTimestamp: number | null;
  deleted: boolean;
}

/**
 * The chapters (bands on the viewers chart) of a show's products from their cues: deleted cues
 * are left out, an open cue ends at the next product's cue or at `showEnd`, and chapters come
 * sorted by start.
 */
export function productChapters(
  products: readonly { productUid: string; cues: readonly ChapterCue[] }[],
  showEnd: number,
): ProductChapter[] {
  const starts = products
    .flatMap((product) =>
      product.cues.filter((cue) => !cue.deleted).map((cue) => ({ productUid: product.productUid, cue })),
    )
    .sort((a, b) => a.cue.presentationStartTimestamp - b.cue.presentationStartTimestamp);
  return starts
    .map(({ productUid, cue }, index) => {
      const next = starts[index + 1]?.cue.presentationStartTimestamp ?? showEnd;
      const end = cue.presentationEndTimestamp ?? Math.max(next, cue.presentationStartTimestamp);
      return { productUid, start: cue.presentationStartTimestamp, end };
    })
    .filter((chapter) => chapter.end >= chapter.start);
}

/**
 * How many viewers were watching while a product was presented: viewers whose first and last
 * minute overlap one of its chapters (a viewer is taken to watch from their first to their last
 * minute).
 */
export function presentedViewers(
  viewers: readonly { firstMinute: number; lastMinute: number; count?: number }[],
  chapters: readonly ProductChapter[],
): number {
  if (chapters.length === 0) return 0;
  const bands = chapters.map((chapter) => ({ from: minuteOf(chapter.start), to: minuteOf(chapter.end) }));
  let presented = 0;
  for (const viewer of viewers) {
    if (bands.some((band) => viewer.firstMinute <= band.to && viewer.lastMinute >= band.from))
      presented += viewer.count ?? 1;
  }
  return presented;
}

/** Orders per viewer (0…1); 0 without viewers. */
export function conversionRate(orders: number, viewers: number): number {
  return viewers > 0 ? orders / viewers : 0;
}

/** Revenue per order in minor units, rounded; 0 without orders. */
export function averageOrderValue(revenue: number, orders: number): number {
  return orders > 0 ? Math.round(revenue / orders) : 0;
}

/** How long after a show's replay ends an order still counts for the show. */
export const ATTRIBUTION_GRACE_MS = 24 * 60 * 60_000;
/** Carts can fill before a show starts (a countdown, a preview): orders that early count too. */
export const ATTRIBUTION_LEAD_MS = 60 * 60_000;

/**
 * Whether an order of the show's campaign is attributed to the show: placed from an hour before
 * it starts until a day after its replay closes (the campaign's deadline; none: while it lasts).
 * Host-cart adds count as adds wherever the host's shop checks out; only our own orders count here.
 */
export function isOrderAttributed(
  orderedAt: number,
  show: { startsAt: number; replayUntil: number | null },
): boolean {
  if (orderedAt < show.startsAt - ATTRIBUTION_LEAD_MS) return false;
  return show.replayUntil === null || orderedAt <= show.replayUntil + ATTRIBUTION_GRACE_MS;
}
