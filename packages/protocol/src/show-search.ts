import { SEARCH_MAX_MATCHES, SEARCH_PAGE_SIZE, SEARCH_TEXT_MAX_LENGTH, searchTerms } from '@vitrine/domain';
import { z } from 'zod';
import { LocaleCode, MediaUrl, Timestamp, Uid } from './common.ts';
import { EventCurrentStatus } from './events.ts';

/** The last page a search reaches (pages count from 0): SEARCH_MAX_MATCHES products in all. */
export const SEARCH_LAST_PAGE = Math.ceil(SEARCH_MAX_MATCHES / SEARCH_PAGE_SIZE) - 1;

/**
 * A shopper's search for products across the public shows: words of a product's name,
 * description or SKU (each a prefix: "mu" finds "mug"), optionally in one store; `lang` is the
 * language the shopper reads in, which the answer's show links carry; `page` counts from 0.
 */
export const ShowSearchRequest = z
  .object({
    text: z
      .string()
      .max(SEARCH_TEXT_MAX_LENGTH, `must be at most ${SEARCH_TEXT_MAX_LENGTH} characters`)
      .refine((text) => searchTerms(text).length > 0, 'must contain a word to search for'),
    pageUid: Uid.optional(),
    lang: LocaleCode.optional(),
    page: z.number().int().min(0).max(SEARCH_LAST_PAGE, `must be at most ${SEARCH_LAST_PAGE}`).default(0),
  })
  .strict();
export type ShowSearchRequest = z.infer<typeof ShowSearchRequest>;

/** A show a found product is in, and where in it. */
export const ShowSearchShow = z.object({
  eventId: Uid,
  campaignUid: Uid,
  pageUid: Uid,
  eventName: z.string(),
  /** live, planned (upcoming) or vod (recorded). */
  state: EventCurrentStatus,
  eventStartTimestamp: Timestamp,
  cover: MediaUrl.nullable(),
  /**
   * For a recording: seconds into the replay where the product was first presented (its first
   * chapter), or null when it has no cue. Always null for live and upcoming shows.
   */
  offset: z.number().nonnegative().nullable(),
  /** The show's page on this site, opening at `offset` (`?t=`) and in `lang` when asked. */
  path: z.string(),
});
export type ShowSearchShow = z.infer<typeof ShowSearchShow>;

/** A product found, and the public shows it is in (live first, then upcoming, then recorded). */
export const ShowSearchHit = z.object({
  product: z.object({ uid: Uid, name: z.string(), image: MediaUrl.nullable() }),
  shows: z.array(ShowSearchShow).min(1),
});
export type ShowSearchHit = z.infer<typeof ShowSearchHit>;

export const ShowSearchResults = z.object({
  hits: z.array(ShowSearchHit),
  page: z.number().int().nonnegative(),
  /** Whether the next page has more. */
  more: z.boolean(),
});
export type ShowSearchResults = z.infer<typeof ShowSearchResults>;
