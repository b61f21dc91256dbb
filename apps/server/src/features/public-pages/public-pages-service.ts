import {
  groupShopEvents,
  isShownOnShopPage,
  leadShopEvent,
  pickCampaignEvent,
  shopCardCover,
} from '@vitrine/domain';
import type { LiveEvent, PublicClip } from '@vitrine/protocol';
import type { Locale } from '@vitrine/protocol/vocabulary';
import { HttpError } from '../../http/errors.ts';
import type { EventService } from '../events/event-service.ts';
import type { StoreService } from '../stores/store-service.ts';
import type { PageHead } from './page-head.ts';
import { clipPageHead, type StorePageFacts, shopPageHead, showPageHead } from './page-head-model.ts';
import {
  clipPath,
  type PublicPageAddress,
  publicPageAddress,
  shopPath,
  showPath,
} from './public-page-address.ts';
import type { SitemapEntry } from './sitemap.ts';

/** A sitemap file holds at most 50,000 addresses (sitemaps.org); ours count each language's. */
export const SITEMAP_MAX_URLS = 50_000;

/**
 * How long a page head is reused. Every viewer who opens a show's link loads its page: a show
 * going live brings thousands within seconds, and each head costs several queries. A head a few
 * seconds old (a live status, a stock level) is as good to a crawler or a chat app.
 */
export const PAGE_HEAD_CACHE_MS = 5_000;
/** Heads kept at most (the oldest go first); paths come from anyone, so the cache is bounded. */
const PAGE_HEAD_CACHE_ENTRIES = 1_000;

/**
 * The public pages' heads and the sitemap: what search engines and chat apps learn about the
 * stores and their shows, from the stores' and events' services. Drafts and private shows give
 * nothing away: their pages get no head, and the sitemap lists only what the shop pages list.
 */
export function createPublicPagesService(deps: {
  stores: StoreService;
  events: EventService;
  /** Clips' pages and their sitemap entries (the clips feature). */
  clips?: {
    clipPage(pageUid: string, clipUid: string): Promise<{ clip: PublicClip; event: LiveEvent } | null>;
    sitemapClips(limit: number): Promise<{ pageUid: string; clipUid: string; updatedAt: number }[]>;
  };
  /** The store at `/`: the configured one, else the first store made ('' while there is none). */
  defaultPageUid: () => Promise<string>;
  now: () => number;
}) {
  const { stores, events, defaultPageUid } = deps;

  /** The store's facts, or null for an unknown store. */
  async function storePageFacts(pageUid: string): Promise<StorePageFacts | null> {
    try {
      const [info, settings] = await Promise.all([stores.storeInfo(pageUid), stores.settings(pageUid)]);
      return {
        info,
        language: settings.sales.language,
        languages: settings.sales.languages,
        currency: settings.sales.currency,
        timeZone: settings.info.timeZone,
        allowedOrigins: settings.embedding.allowedOrigins,
        hidePrices: settings.player.hidePrices,
      };
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) return null;
      throw error;
    }
  }

  /** A public page's head, made from its store's and show's facts (see pageHead). */
  async function makePageHead(
    address: PublicPageAddress,
    lang: string | null,
    origin: string,
  ): Promise<PageHead | null> {
    const store = await storePageFacts(address.pageUid);
    if (!store) return null;
    const shopCanonicalPath = shopPath(address.pageUid, await defaultPageUid());
    if (address.kind === 'shop') {
      const now = deps.now();
      const lead = leadShopEvent(groupShopEvents(await events.shopEventList(address.pageUid, now), now));
      return shopPageHead(
        store,
        { origin, canonicalPath: shopCanonicalPath, lang },
        lead ? shopCardCover(lead.event) : null,
      );
    }
    if (address.kind === 'clip') {
      const page = await deps.clips?.clipPage(address.pageUid, address.clipUid);
      if (!page) return null;
      return clipPageHead(store, page.clip, page.event, {
        origin,
        canonicalPath: clipPath(address.pageUid, address.clipUid),
        lang,
        shopCanonicalPath,
        showPath: showPath(address.pageUid, page.event.event.campaignId, page.event.id),
      });
    }

    const campaignEvents = await events.eventsByCampaigns([address.campaignUid]);
    const show = address.eventUid
      ? campaignEvents.find((candidate) => candidate.id === address.eventUid)
      : pickCampaignEvent(campaignEvents);
    if (!show || show.event.storeInfo.id !== address.pageUid || show.event.status !== 'public') return null;
    const products = await events.eventProducts(show.id);
    return showPageHead(store, show, products, {
      origin,
      canonicalPath: showPath(address.pageUid, address.campaignUid, show.id),
      lang,
      shopCanonicalPath,
    });
  }

  /** Recent heads (as promises, so requests arriving together share one making), by page. */
  const recentHeads = new Map<string, { expires: number; head: Promise<PageHead | null> }>();

  function cachedHead(key: string, make: () => Promise<PageHead | null>): Promise<PageHead | null> {
    const now = deps.now();
    const recent = recentHeads.get(key);
    if (recent && recent.expires > now) return recent.head;
    recentHeads.delete(key);
    if (recentHeads.size >= PAGE_HEAD_CACHE_ENTRIES) {
      const oldest = recentHeads.keys().next().value;
      if (oldest !== undefined) recentHeads.delete(oldest);
    }
    const head = make();
    recentHeads.set(key, { expires: now + PAGE_HEAD_CACHE_MS, head });
    // A failure is not kept: the next request tries again.
    head.catch(() => recentHeads.delete(key));
    return head;
  }

  return {
    /**
     * The head of the page at `pathname`, or null when it is no public page: an unknown store or
     * show, a draft, a private show, a checkout, the studio. Reused for PAGE_HEAD_CACHE_MS.
     */
    async pageHead(pathname: string, search: URLSearchParams, origin: string): Promise<PageHead | null> {
      const address = publicPageAddress(pathname, await defaultPageUid());
      if (!address) return null;
      const lang = search.get('lang');
      const key = JSON.stringify([origin, address, lang]);
      return cachedHead(key, () => makePageHead(address, lang, origin));
    },

    /**
     * The sitemap's addresses: every store's shop page and every show its shop page lists now
     * (public; upcoming, live, or a replay still on sale), each with its language versions.
     * A shop page changed when the store or one of its listed shows did.
     */
    async sitemapEntries(): Promise<SitemapEntry[]> {
      const now = deps.now();
      const [storeList, eventList] = await Promise.all([
        stores.storeListing(SITEMAP_MAX_URLS),
        events.publicEventListing(SITEMAP_MAX_URLS),
      ]);
      const languagesOf = new Map<string, readonly Locale[]>(storeList.map((s) => [s.uid, s.languages]));
      const shows: SitemapEntry[] = [];
      const latestShowChange = new Map<string, number>();
      for (const { event, updatedAt } of eventList) {
        const pageUid = event.event.storeInfo.id;
        const languages = languagesOf.get(pageUid);
        if (!languages || !isShownOnShopPage(event, now)) continue;
        latestShowChange.set(pageUid, Math.max(latestShowChange.get(pageUid) ?? 0, updatedAt));
        shows.push({
          path: showPath(pageUid, event.event.campaignId, event.id),
          lastModified: updatedAt,
          languages,
        });
      }
      const clips: SitemapEntry[] = [];
      for (const clip of (await deps.clips?.sitemapClips(SITEMAP_MAX_URLS)) ?? []) {
        const languages = languagesOf.get(clip.pageUid);
        if (languages)
          clips.push({ path: clipPath(clip.pageUid, clip.clipUid), lastModified: clip.updatedAt, languages });
      }
      const defaultPage = await defaultPageUid();
      const shops: SitemapEntry[] = storeList.map((store) => ({
        path: shopPath(store.uid, defaultPage),
        lastModified: Math.max(store.updatedAt, latestShowChange.get(store.uid) ?? 0),
        languages: store.languages,
      }));
      // Each entry is listed once per language and once plain (x-default).
      const kept: SitemapEntry[] = [];
      let urls = 0;
      for (const entry of [...shops, ...shows, ...clips]) {
        urls += entry.languages.length + 1;
        if (urls > SITEMAP_MAX_URLS) break;
        kept.push(entry);
      }
      return kept;
    },
  };
}

export type PublicPagesService = ReturnType<typeof createPublicPagesService>;
