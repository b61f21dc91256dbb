import { deriveVideo, INTL_TAG_BY_LOCALE } from '@vitrine/domain';
import type { EventProduct, LiveEvent, PublicClip, StoreInfo } from '@vitrine/protocol';
import type { Currency, Locale } from '@vitrine/protocol/vocabulary';
import type { PageHead } from './page-head.ts';
import { fillText, PAGE_HEAD_TEXTS } from './page-head-texts.ts';
import {
  clipVideo,
  onlineStore,
  presentedProduct,
  type ShowFacts,
  type StoreFacts,
  showVideo,
} from './structured-data.ts';

/** Search engines cut descriptions near this length; ours end on a whole word before it. */
export const DESCRIPTION_MAX_CHARS = 200;
/** How many product names a show's description names. */
const DESCRIPTION_PRODUCT_NAMES = 3;
/** The player's size in a Twitter/X player card when the video's own is unknown (portrait 9:16). */
const DEFAULT_PLAYER_SIZE = { width: 360, height: 640 };
/** Origins whose framing of the player a Twitter/X player card needs. */
const TWITTER_FRAME_ORIGINS = ['https://x.com', 'https://twitter.com'];

/** The store facts a page head is made of (loaded by the public pages service). */
export interface StorePageFacts {
  info: StoreInfo;
  /** The store's main language and the languages it sells in (main first). */
  language: Locale;
  languages: readonly Locale[];
  currency: Currency;
  timeZone: string;
  allowedOrigins: readonly string[];
  hidePrices: boolean;
}

/** Where the page is: the site's origin, its canonical path and the `?lang` it was asked in. */
export interface PageRequest {
  /** `https://shop.example.com`, without a trailing slash. */
  origin: string;
  canonicalPath: string;
  /** The `lang` query parameter, or null. */
  lang: string | null;
}

/** `text` cut to at most `max` characters on a word boundary, with an ellipsis when cut. */
export function shorten(text: string, max = DESCRIPTION_MAX_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.;:–-]+$/, '')}…`;
}

/** An absolute http(s) URL for a media or page URL (relative ones are on `origin`), or null. */
export function absoluteUrl(url: string, origin: string): string | null {
  try {
    const absolute = new URL(url, `${origin}/`);
    return absolute.protocol === 'https:' || absolute.protocol === 'http:' ? absolute.href : null;
  } catch {
    return null;
  }
}

/**
 * The language a page is described in, its canonical URL and alternates: a `?lang` the store
 * sells in is its own page (canonical with it); without one the page is the store's main
 * language, and its plain URL is the `x-default` the viewer's browser language picks for.
 */
function languageVersions(store: StorePageFacts, request: PageRequest) {
  const base = `${request.origin}${request.canonicalPath}`;
  const asked = store.languages.find((language) => language === request.lang);
  const withLang = (language: Locale) => `${base}?lang=${language}`;
  return {
    locale: asked ?? store.language,
    canonicalUrl: asked ? withLang(asked) : base,
    alternates: [
      ...store.languages.map((language) => ({ hreflang: language, href: withLang(language) })),
      { hreflang: 'x-default', href: base },
    ],
  };
}

const ogLocale = (locale: Locale) => INTL_TAG_BY_LOCALE[locale].replace('-', '_');

function storeFacts(store: StorePageFacts, request: PageRequest, shopCanonicalPath: string): StoreFacts {
  return {
    info: store.info,
    url: `${request.origin}${shopCanonicalPath}`,
    logo: store.info.logo ? absoluteUrl(store.info.logo, request.origin) : null,
  };
}

function commonHead(store: StorePageFacts, request: PageRequest) {
  const versions = languageVersions(store, request);
  const icon = store.info.logo ? absoluteUrl(store.info.logo, request.origin) : null;
  return {
    ...versions,
    /** What every page's head carries alike: its language, address, language versions, the store's icon. */
    basics: {
      lang: versions.locale,
      canonicalUrl: versions.canonicalUrl,
      alternates: versions.alternates,
      icon,
    },
    og: {
      siteName: store.info.name,
      locale: ogLocale(versions.locale),
      alternateLocales: store.languages
        .filter((language) => language !== versions.locale)
        .map((language) => ogLocale(language)),
    },
  };
}

/**
 * The head of a store's shop page: its name and description, the store as an OnlineStore, and the
 * lead show's cover (`leadCover`, domain shopCardCover) fetched first.
 */
export function shopPageHead(
  store: StorePageFacts,
  request: PageRequest,
  leadCover: string | null = null,
): PageHead {
  const common = commonHead(store, request);
  const texts = PAGE_HEAD_TEXTS[common.locale];
  const description = shorten(
    store.info.description || fillText(texts.shopDescription, { store: store.info.name }),
  );
  const facts = storeFacts(store, request, request.canonicalPath);
  return {
    page: 'shop',
    ...common.basics,
    title: store.info.name,
    description,
    preloadImages: [
      ...(leadCover ? [{ url: leadCover, highPriority: true }] : []),
      ...(store.info.logo ? [{ url: store.info.logo, highPriority: false }] : []),
    ],
    openGraph: {
      type: 'website',
      ...common.og,
      image: facts.logo ? { url: facts.logo, width: null, height: null, alt: store.info.name } : null,
      video: null,
    },
    twitterPlayer: null,
    structuredData: [onlineStore(facts)],
  };
}

function showDescription(
  store: StorePageFacts,
  show: LiveEvent,
  products: readonly EventProduct[],
  locale: Locale,
) {
  const texts = PAGE_HEAD_TEXTS[locale];
  const tag = INTL_TAG_BY_LOCALE[locale];
  const { event } = show;
  const values = { store: store.info.name };
  let lead: string;
  if (event.currentStatus === 'planned') {
    const date = new Intl.DateTimeFormat(tag, {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: store.timeZone,
    });
    lead = fillText(texts.plannedDescription, { ...values, date: date.format(event.eventStartTimestamp) });
  } else if (event.currentStatus === 'live') {
    lead = fillText(texts.liveDescription, values);
  } else {
    const date = new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeZone: store.timeZone });
    lead = fillText(texts.replayDescription, {
      ...values,
      date: date.format(event.liveStartTime ?? event.eventStartTimestamp),
    });
  }
  const names = products.slice(0, DESCRIPTION_PRODUCT_NAMES).map(({ product }) => product.name);
  if (names.length === 0) return shorten(lead);
  const list = new Intl.ListFormat(tag, { type: 'conjunction' }).format(names);
  return shorten(`${lead} ${fillText(texts.featuring, { products: list })}`);
}

/** A Twitter/X player card for the page, of the video's size, where the store lets X frame it. */
function twitterPlayerCard(
  store: StorePageFacts,
  canonicalUrl: string,
  dimension: { width: number; height: number } | null | undefined,
): PageHead['twitterPlayer'] {
  return twitterMayFrame(store, canonicalUrl)
    ? { url: canonicalUrl, ...(dimension ?? DEFAULT_PLAYER_SIZE) }
    : null;
}

/** Whether the store lets Twitter/X frame its player (a player card needs it, over https). */
function twitterMayFrame(store: StorePageFacts, canonicalUrl: string): boolean {
  if (!canonicalUrl.startsWith('https:')) return false;
  return store.allowedOrigins.some((origin) => {
    const normalized = absoluteUrl(origin, 'https://invalid')?.replace(/\/$/, '');
    return normalized !== undefined && TWITTER_FRAME_ORIGINS.includes(normalized);
  });
}

/**
 * The head of a show's page (upcoming, live or replay): its name and status in the description,
 * its poster, the replay's MP4 as og:video, a Twitter/X player card where the store lets X frame
 * the player, and as JSON-LD the store, the show's video with its broadcast and chapters, and its
 * products with their offers.
 */
export function showPageHead(
  store: StorePageFacts,
  show: LiveEvent,
  products: readonly EventProduct[],
  request: PageRequest & { shopCanonicalPath: string },
): PageHead {
  const common = commonHead(store, request);
  const video = deriveVideo(show);
  const absolute = (url: string) => absoluteUrl(url, request.origin);
  const poster = video.poster ? absolute(video.poster) : null;
  // The format's size belongs to its own picture only; another poster's size is unknown.
  const posterSize =
    video.picture && video.dimension && video.poster === video.picture ? video.dimension : null;
  const isReplay = show.event.currentStatus === 'vod';
  const videoUrl = isReplay && video.mp4VideoUrl ? absolute(video.mp4VideoUrl) : null;
  const playableInline = videoUrl !== null && new URL(videoUrl).pathname.toLowerCase().endsWith('.mp4');
  const title = `${show.event.eventName} | ${store.info.name}`;
  const description = showDescription(store, show, products, common.locale);
  const storeFact = storeFacts(store, request, request.shopCanonicalPath);
  const facts: ShowFacts = {
    event: show,
    products,
    name: show.event.eventName,
    description,
    url: common.canonicalUrl,
    thumbnail: poster,
    videoUrl,
  };
  return {
    page: 'show',
    ...common.basics,
    title,
    description,
    preloadImages: video.poster ? [{ url: video.poster, highPriority: false }] : [],
    openGraph: {
      type: 'video.other',
      ...common.og,
      image: poster
        ? {
            url: poster,
            width: posterSize?.width ?? null,
            height: posterSize?.height ?? null,
            alt: show.event.eventName,
          }
        : null,
      video:
        playableInline && videoUrl
          ? {
              url: videoUrl,
              type: 'video/mp4',
              width: video.dimension?.width ?? null,
              height: video.dimension?.height ?? null,
            }
          : null,
    },
    twitterPlayer: twitterPlayerCard(store, common.canonicalUrl, video.dimension),
    structuredData: [
      onlineStore(storeFact),
      showVideo(facts, storeFact),
      ...products.map((product) =>
        presentedProduct(product, facts, storeFact, {
          locale: common.locale,
          storeCurrency: store.currency,
          hidePrices: store.hidePrices,
          absolute,
        }),
      ),
    ],
  };
}

/**
 * The head of a clip's page: the product it sells and the show it was cut from, the clip's MP4 as
 * og:video (chat apps play it inline), a Twitter/X player card where the store lets X frame the
 * page, and as JSON-LD the store, the clip's VideoObject (part of the show's, with its Clip) and
 * the product with its offer.
 */
export function clipPageHead(
  store: StorePageFacts,
  clip: PublicClip,
  show: LiveEvent,
  request: PageRequest & { shopCanonicalPath: string; showPath: string },
): PageHead {
  const common = commonHead(store, request);
  const texts = PAGE_HEAD_TEXTS[common.locale];
  const absolute = (url: string) => absoluteUrl(url, request.origin);
  const productName = clip.product?.product.name ?? null;
  const title = `${productName ?? show.event.eventName} | ${store.info.name}`;
  const description = shorten(
    fillText(texts.clipDescription, {
      product: productName ?? show.event.eventName,
      show: show.event.eventName,
      store: store.info.name,
    }),
  );
  const video = deriveVideo(show);
  const productImage = clip.product?.product.images[0];
  // The clip's own first frame first: what a chat app's card and a search result should show.
  const thumbnail =
    (clip.posterUrl ? absolute(clip.posterUrl) : null) ??
    (productImage ? absolute(productImage) : null) ??
    (video.poster ? absolute(video.poster) : null);
  const videoUrl = absolute(clip.videoUrl) ?? `${request.origin}${clip.videoUrl}`;
  const storeFact = storeFacts(store, request, request.shopCanonicalPath);
  const facts: ShowFacts = {
    event: show,
    products: clip.product ? [clip.product] : [],
    name: title,
    description,
    url: common.canonicalUrl,
    thumbnail,
    videoUrl,
  };
  return {
    page: 'clip',
    ...common.basics,
    title,
    description,
    // The page opens on its video, whose poster is its largest paint on a slow phone.
    preloadImages: clip.posterUrl ? [{ url: clip.posterUrl, highPriority: true }] : [],
    openGraph: {
      type: 'video.other',
      ...common.og,
      image: thumbnail
        ? { url: thumbnail, width: null, height: null, alt: productName ?? show.event.eventName }
        : null,
      video: {
        url: videoUrl,
        type: 'video/mp4',
        width: video.dimension?.width ?? null,
        height: video.dimension?.height ?? null,
      },
    },
    twitterPlayer: twitterPlayerCard(store, common.canonicalUrl, video.dimension),
    structuredData: [
      onlineStore(storeFact),
      clipVideo(
        {
          name: title,
          description,
          url: common.canonicalUrl,
          videoUrl,
          thumbnail,
          durationSeconds: clip.durationSeconds,
          recordedAt: clip.recordedAt,
          productName,
          showUrl: `${request.origin}${request.showPath}`,
          showName: show.event.eventName,
        },
        storeFact,
      ),
      ...(clip.product
        ? [
            presentedProduct(clip.product, facts, storeFact, {
              locale: common.locale,
              storeCurrency: store.currency,
              hidePrices: store.hidePrices,
              absolute,
            }),
          ]
        : []),
    ],
  };
}
