import {
  formatDecimalPrice,
  minorUnitDigits,
  priceFor,
  productStockOf,
  productTimeline,
  shownCurrency,
  stockSignal,
} from '@vitrine/domain';
import type { EventProduct, LiveEvent, PriceList, StoreInfo } from '@vitrine/protocol';
import type { Currency, Locale } from '@vitrine/protocol/vocabulary';

// schema.org JSON-LD of the public pages (https://schema.org): the store as an OnlineStore, a show
// as a VideoObject published by a BroadcastEvent, its chapters as Clips, its products as Product
// with an Offer. Pure: the page head model hands in what it loaded and absolute URLs.

const CONTEXT = 'https://schema.org';

/**
 * The price a public page states for a product in its language: the one place that picks it, so
 * the currency rule can change here alone. The rule is the player's (domain `priceFor`): the
 * currency of the page's language when the product has a price in it, else the store's own.
 */
export function pagePrice(
  prices: PriceList,
  locale: Locale,
  storeCurrency: Currency,
): { amount: number; currency: Currency } | null {
  return priceFor(prices, shownCurrency(locale), storeCurrency);
}

/** ISO 8601 instant of a millisecond timestamp. */
const isoInstant = (timestamp: number) => new Date(timestamp).toISOString();

/** ISO 8601 duration of whole seconds: 3725 → "PT1H2M5S". */
export function isoDuration(totalSeconds: number): string {
  const whole = Math.max(0, Math.round(totalSeconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = whole % 60;
  return `PT${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds || whole === 0 ? `${seconds}S` : ''}`;
}

export interface StoreFacts {
  info: StoreInfo;
  /** The shop page's canonical URL. */
  url: string;
  /** The logo as an absolute URL, or null. */
  logo: string | null;
}

/** The JSON-LD `@id` of a store, so a show's objects can name its publisher and seller. */
export const storeId = (store: StoreFacts) => `${store.url}#store`;

/** The store as an OnlineStore (an Organization that sells online). */
export function onlineStore(store: StoreFacts): object {
  const { info } = store;
  const { address } = info;
  const hasAddress = Boolean(address.street || address.postCode || address.city);
  return {
    '@context': CONTEXT,
    '@type': 'OnlineStore',
    '@id': storeId(store),
    name: info.name,
    url: store.url,
    ...(info.description ? { description: info.description } : {}),
    ...(store.logo ? { logo: store.logo, image: store.logo } : {}),
    ...(address.email ? { email: address.email } : {}),
    ...(address.phone ? { telephone: address.phone } : {}),
    ...(info.cvr ? { vatID: info.cvr } : {}),
    ...(hasAddress
      ? {
          address: {
            '@type': 'PostalAddress',
            ...(address.street ? { streetAddress: address.street } : {}),
            ...(address.postCode ? { postalCode: address.postCode } : {}),
            ...(address.city ? { addressLocality: address.city } : {}),
          },
        }
      : {}),
  };
}

export interface ShowFacts {
  event: LiveEvent;
  products: readonly EventProduct[];
  name: string;
  description: string;
  /** The show's canonical URL (its player page). */
  url: string;
  /** The poster as an absolute URL, or null. */
  thumbnail: string | null;
  /** The replay's video as an absolute URL, or null (not recorded yet, or no file). */
  videoUrl: string | null;
}

/** Seconds the recording lasts, or null while the show has not ended. */
export function recordingSeconds(event: LiveEvent): number | null {
  const { liveStartTime, liveEndTime } = event.event;
  return liveStartTime !== null && liveEndTime !== null ? (liveEndTime - liveStartTime) / 1000 : null;
}

/**
 * A replay's chapters as Clips: one per product, from its first presentation to the next
 * product's (the player's "Video" tab), in seconds into the recording.
 */
function chapterClips(show: ShowFacts, duration: number): object[] {
  const clips: object[] = [];
  const seen = new Set<string>();
  for (const entry of productTimeline(show.products, show.event)) {
    if (seen.has(entry.uid)) continue;
    seen.add(entry.uid);
    const product = show.products[entry.index];
    const start = Math.max(0, Math.floor(entry.start));
    const end = Math.min(duration, Number.isFinite(entry.end) ? Math.ceil(entry.end) : duration);
    if (!product || start >= duration || end <= start) continue;
    clips.push({ '@type': 'Clip', name: product.product.name, startOffset: start, endOffset: end });
  }
  return clips;
}

/** What a show's and a clip's VideoObject start with alike: its id, name, description, page and picture. */
function videoObject(video: { url: string; name: string; description: string; thumbnail: string | null }) {
  return {
    '@context': CONTEXT,
    '@type': 'VideoObject',
    '@id': `${video.url}#video`,
    name: video.name,
    description: video.description,
    url: video.url,
    ...(video.thumbnail ? { thumbnailUrl: [video.thumbnail] } : {}),
  };
}

/**
 * A show as the VideoObject its page plays, published by a live BroadcastEvent (the form search
 * engines read for live streams): start and end of the broadcast; for a replay its length, video
 * file, player and chapters.
 */
export function showVideo(show: ShowFacts, store: StoreFacts): object {
  const { event } = show.event;
  const status = event.currentStatus;
  const duration = status === 'vod' ? recordingSeconds(show.event) : null;
  const startDate = event.liveStartTime ?? event.eventStartTimestamp;
  const clips = duration === null ? [] : chapterClips(show, duration);
  return {
    ...videoObject(show),
    uploadDate: isoInstant(startDate),
    ...(duration !== null ? { duration: isoDuration(duration) } : {}),
    ...(status !== 'planned' ? { embedUrl: show.url } : {}),
    ...(status === 'vod' && show.videoUrl ? { contentUrl: show.videoUrl } : {}),
    publisher: { '@id': storeId(store) },
    publication: {
      '@type': 'BroadcastEvent',
      name: show.name,
      isLiveBroadcast: true,
      startDate: isoInstant(startDate),
      ...(event.liveEndTime !== null ? { endDate: isoInstant(event.liveEndTime) } : {}),
    },
    ...(clips.length > 0 ? { hasPart: clips } : {}),
  };
}

const AVAILABILITY = {
  'sold-out': 'https://schema.org/OutOfStock',
  'only-one-left': 'https://schema.org/LimitedAvailability',
  'only-a-few-left': 'https://schema.org/LimitedAvailability',
} as const;

/**
 * A presented product with its Offer in the page's currency (none when the store hides prices
 * or the product has no price there): its stock as availability, the campaign's order deadline
 * as the price's end.
 */
export function presentedProduct(
  eventProduct: EventProduct,
  show: ShowFacts,
  store: StoreFacts,
  options: {
    locale: Locale;
    storeCurrency: Currency;
    hidePrices: boolean;
    absolute(url: string): string | null;
  },
): object {
  const { product } = eventProduct;
  const price = options.hidePrices ? null : pagePrice(product.prices, options.locale, options.storeCurrency);
  const signal = stockSignal(productStockOf(product));
  const deadline = show.event.campaign.deadline;
  const images = product.images.flatMap((image) => options.absolute(image) ?? []);
  return {
    '@context': CONTEXT,
    '@type': 'Product',
    name: product.name,
    ...(product.description ? { description: product.description } : {}),
    ...(images.length > 0 ? { image: images } : {}),
    ...(product.sku ? { sku: product.sku } : {}),
    ...(price
      ? {
          offers: {
            '@type': 'Offer',
            url: show.url,
            price: formatDecimalPrice(price.amount, minorUnitDigits(price.currency)),
            priceCurrency: price.currency,
            availability: signal ? AVAILABILITY[signal] : 'https://schema.org/InStock',
            ...(deadline !== null ? { priceValidUntil: isoInstant(deadline).slice(0, 10) } : {}),
            seller: { '@id': storeId(store) },
          },
        }
      : {}),
  };
}

/** The facts of a clip's page: its show, product, file and where it lies in the show. */
export interface ClipFacts {
  name: string;
  description: string;
  /** The clip page's canonical URL. */
  url: string;
  /** The MP4, absolute. */
  videoUrl: string;
  thumbnail: string | null;
  durationSeconds: number;
  recordedAt: number;
  productName: string | null;
  /** The show's page, whose video the clip is part of. */
  showUrl: string;
  showName: string;
}

/**
 * A clip as a VideoObject of its own (its MP4 and page), part of the show's video, with the
 * product's moment as its one Clip (the key moment search engines show).
 */
export function clipVideo(clip: ClipFacts, store: StoreFacts): object {
  return {
    ...videoObject(clip),
    uploadDate: isoInstant(clip.recordedAt),
    duration: isoDuration(clip.durationSeconds),
    contentUrl: clip.videoUrl,
    embedUrl: clip.url,
    publisher: { '@id': storeId(store) },
    isPartOf: {
      '@type': 'VideoObject',
      '@id': `${clip.showUrl}#video`,
      name: clip.showName,
      url: clip.showUrl,
    },
    hasPart: [
      {
        '@type': 'Clip',
        name: clip.productName ?? clip.name,
        startOffset: 0,
        endOffset: Math.max(1, Math.round(clip.durationSeconds)),
        url: clip.url,
      },
    ],
  };
}
