/** Rollups are per show and per minute of wall-clock time (UTC). */
export const ANALYTICS_MINUTE_MS = 60_000;
/** The rollup job's period: a report is complete within a minute after the show. */
export const ANALYTICS_ROLLUP_INTERVAL_MS = 15_000;
/** Raw tracking events are kept this many days by default (VITRINE_TRACKING_RETENTION_DAYS). */
export const TRACKING_RETENTION_DAYS_DEFAULT = 90;

/** The start of the minute `time` falls in. */
export function minuteOf(time: number): number {
  return Math.floor(time / ANALYTICS_MINUTE_MS) * ANALYTICS_MINUTE_MS;
}

/** One raw tracking event, reduced to what the rollup reads. */
export interface AnalyticsRawEvent {
  campaignUid: string;
  /** When the server received it (the viewer's clock is not trusted for minutes). */
  receivedAt: number;
  name: string;
  /** The player's viewer id, else the user; null counts the event but no viewer. */
  viewerKey: string | null;
  replay: boolean;
  /** Heartbeats: seconds played since the previous one. */
  watchedSeconds: number;
  /** The catalogue product the event is about (trackingInfo.productUid). */
  productUid: string | null;
  /** A product was on screen (playingProducts not empty). */
  productShown: boolean;
}

/** Additive counts of one show minute (a later slice adds to them). */
export interface MinuteCounts {
  campaignUid: string;
  minute: number;
  watchSecondsLive: number;
  watchSecondsReplay: number;
  comments: number;
  reactions: number;
  detailsOpened: number;
  adds: number;
}

/** One viewer seen in one minute: viewers per minute are counted from these, never added up. */
export interface ViewerMinute {
  campaignUid: string;
  minute: number;
  viewerKey: string;
  replay: boolean;
  productShown: boolean;
  watchSeconds: number;
}

/** What one viewer did with one product: the funnel counts viewers, not clicks. */
export interface ViewerProduct {
  campaignUid: string;
  productUid: string;
  viewerKey: string;
  detailsOpened: boolean;
  added: boolean;
}

export interface EventRollup {
  minutes: MinuteCounts[];
  viewerMinutes: ViewerMinute[];
  viewerProducts: ViewerProduct[];
}

/**
 * Rolls a slice of raw events up: additive counts per show minute, the (viewer, minute) pairs
 * seen (a viewer counts in a minute when it sent a heartbeat or any event in it) and the
 * (viewer, product) funnel marks. Slices are independent: the store merges additive counts by
 * adding and pairs by union, so rolling events up in any split gives the same totals.
 */
export function rollupEvents(events: readonly AnalyticsRawEvent[]): EventRollup {
  const minutes = new Map<string, MinuteCounts>();
  const viewerMinutes = new Map<string, ViewerMinute>();
  const viewerProducts = new Map<string, ViewerProduct>();
  for (const event of events) {
    const minute = minuteOf(event.receivedAt);
    const minuteKey = `${event.campaignUid}\u0000${minute}`;
    let counts = minutes.get(minuteKey);
    if (!counts) {
      counts = {
        campaignUid: event.campaignUid,
        minute,
        watchSecondsLive: 0,
        watchSecondsReplay: 0,
        comments: 0,
        reactions: 0,
        detailsOpened: 0,
        adds: 0,
      };
      minutes.set(minuteKey, counts);
    }
    const watched = Math.max(0, event.watchedSeconds);
    if (event.replay) counts.watchSecondsReplay += watched;
    else counts.watchSecondsLive += watched;
    if (event.name === 'user.commented') counts.comments += 1;
    else if (event.name === 'user.reacted') counts.reactions += 1;
    else if (event.name === 'catalog.viewed-product-details') counts.detailsOpened += 1;
    else if (event.name === 'cart.added-to-cart') counts.adds += 1;

    if (event.viewerKey === null) continue;
    const presenceKey = `${minuteKey}\u0000${event.viewerKey}`;
    const presence = viewerMinutes.get(presenceKey);
    if (presence) {
      presence.replay ||= event.replay;
      presence.productShown ||= event.productShown;
      presence.watchSeconds += watched;
    } else {
      viewerMinutes.set(presenceKey, {
        campaignUid: event.campaignUid,
        minute,
        viewerKey: event.viewerKey,
        replay: event.replay,
        productShown: event.productShown,
        watchSeconds: watched,
      });
    }
    const detailsOpened = event.name === 'catalog.viewed-product-details';
    const added = event.name === 'cart.added-to-cart';
    if (event.productUid !== null && (detailsOpened || added)) {
      const productKey = `${event.campaignUid}\u0000${event.productUid}\u0000${event.viewerKey}`;
      const mark = viewerProducts.get(productKey);
      if (mark) {
        mark.detailsOpened ||= detailsOpened;
        mark.added ||= added;
      } else {
        viewerProducts.set(productKey, {
          campaignUid: event.campaignUid,
          productUid: event.productUid,
          viewerKey: event.viewerKey,
          detailsOpened,
          added,
        });
      }
    }
  }
  return {
    minutes: [...minutes.values()],
    viewerMinutes: [...viewerMinutes.values()],
    viewerProducts: [...viewerProducts.values()],
  };
}

/** The minute with the most viewers (the first such), or null for a show nobody watched. */
export function peakMinute(minutes: readonly { minute: number; viewers: number }[]): {
  minute: number;
  viewers: number;
} | null {
  let peak: { minute: number; viewers: number } | null = null;
  for (const entry of minutes) if (entry.viewers > 0 && (!peak || entry.viewers > peak.viewers)) peak = entry;
  return peak ? { minute: peak.minute, viewers: peak.viewers } : null;
}

/** A show's revenue in one currency, labelled: items, freight, gross, refunds and net (minor units). */
export interface RevenueFigures {
  currency: string;
  items: number;
  freight: number;
  gross: number;
  refunds: number;
  net: number;
  netWithoutFreight: number;
}

/**
 * Gross, refunds and net, with and without freight, per currency (issue 33 item 12), from the
 * order rollups: gross = items + freight, net = gross − refunds, and net without freight counts
 * the refunds against the items (a refund is money back, whatever it was for). Currencies sorted.
 */
export function revenueFigures(
  rows: readonly { currency: string; revenue: number; freight: number; refunded: number }[],
): RevenueFigures[] {
  const sums = new Map<string, { items: number; freight: number; refunds: number }>();
  for (const row of rows) {
    const sum = sums.get(row.currency) ?? { items: 0, freight: 0, refunds: 0 };
    sum.items += row.revenue;
    sum.freight += row.freight;
    sum.refunds += row.refunded;
    sums.set(row.currency, sum);
  }
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, sum]) => ({
      currency,
      items: sum.items,
      freight: sum.freight,
      gross: sum.items + sum.freight,
      refunds: sum.refunds,
      net: sum.items + sum.freight - sum.refunds,
      netWithoutFreight: sum.items - sum.refunds,
    }));
}
