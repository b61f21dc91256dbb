import {
  cueTimeOf,
  deriveVideo,
  isShownOnShopPage,
  SEARCH_MAX_MATCHES,
  SEARCH_PAGE_SIZE,
  searchTerms,
  startTimeParam,
} from '@vitrine/domain';
import {
  EMBED_QUERY,
  type EventProduct,
  type LiveEvent,
  type ShowSearchHit,
  type ShowSearchRequest,
  type ShowSearchResults,
  type ShowSearchShow,
  webPath,
} from '@vitrine/protocol';
import type { AbuseLimiter } from '../../http/abuse-limits.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import type { EventService } from '../events/event-service.ts';

/**
 * Searches one address may make a minute. A search box sends one per pause in typing; thousands
 * of shoppers can share a carrier-NAT address, so the bound is on floods, not on people.
 */
export const SEARCH_LIMIT_PER_ADDRESS = { max: 600, windowMs: 60_000 };
/** Shows looked at for one search's products (the newest first): a bound on one search's work. */
export const SEARCH_MAX_SHOWS = 100;

const STATE_ORDER = { live: 0, planned: 1, vod: 2 } as const;

/**
 * Search across shows (issue 32 item 5): products whose words match, from the catalogue, with
 * the public shows their shop pages list now (events), and for a recording where the product's
 * first chapter starts. What no shop page lists (drafts, private shows, expired replays) is never
 * answered, nor are products in no listed show.
 */
export function createShowSearchService(deps: {
  catalog: Pick<CatalogService, 'searchProducts'>;
  events: Pick<EventService, 'publicEventsWithProducts'>;
  limits: Pick<AbuseLimiter, 'enforceAddress'>;
  now: () => number;
}) {
  const { catalog, events, limits, now } = deps;

  function showOf(event: LiveEvent, product: EventProduct, lang: string | undefined): ShowSearchShow {
    const details = event.event;
    const state = details.currentStatus;
    const cue = state === 'vod' ? cueTimeOf(product, event, -1) : null;
    const offset = cue === null ? null : Math.floor(cue);
    const query = new URLSearchParams();
    if (offset !== null) query.set(EMBED_QUERY.startTime, startTimeParam(offset));
    if (lang) query.set(EMBED_QUERY.language, lang);
    const path = webPath('show', {
      pageUid: details.storeInfo.id,
      campaignUid: details.campaignId,
      eventUid: event.id,
    });
    return {
      eventId: event.id,
      campaignUid: details.campaignId,
      pageUid: details.storeInfo.id,
      eventName: details.eventName,
      state,
      eventStartTimestamp: details.eventStartTimestamp,
      cover: deriveVideo(event).poster,
      offset,
      path: query.size > 0 ? `${path}?${query}` : path,
    };
  }

  return {
    /** One page of a search, counted against the asking address's limit first. */
    async search(request: ShowSearchRequest, address: string): Promise<ShowSearchResults> {
      await limits.enforceAddress('search', address, SEARCH_LIMIT_PER_ADDRESS);
      const products = await catalog.searchProducts(
        searchTerms(request.text),
        request.pageUid ?? null,
        SEARCH_MAX_MATCHES,
      );
      const at = now();
      const listed = (
        await events.publicEventsWithProducts(
          products.map((product) => product.uid),
          SEARCH_MAX_SHOWS,
        )
      ).filter(({ event }) => isShownOnShopPage(event, at));
      const hits: ShowSearchHit[] = products.flatMap((product) => {
        const shows = listed
          .flatMap(({ event, products: shown }) => {
            const inShow = shown.find((candidate) => candidate.productUid === product.uid);
            return inShow ? [showOf(event, inShow, request.lang)] : [];
          })
          .sort(
            (a, b) =>
              STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
              // Upcoming soonest first; live and recorded newest first.
              (a.state === 'planned'
                ? a.eventStartTimestamp - b.eventStartTimestamp
                : b.eventStartTimestamp - a.eventStartTimestamp),
          );
        return shows.length > 0
          ? [{ product: { uid: product.uid, name: product.name, image: product.image }, shows }]
          : [];
      });
      const start = request.page * SEARCH_PAGE_SIZE;
      return {
        hits: hits.slice(start, start + SEARCH_PAGE_SIZE),
        page: request.page,
        more: hits.length > start + SEARCH_PAGE_SIZE,
      };
    },
  };
}

export type ShowSearchService = ReturnType<typeof createShowSearchService>;
