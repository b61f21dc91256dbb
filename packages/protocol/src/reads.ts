import { LOOKUP_BATCH_LIMIT } from '@vitrine/domain';
import { z } from 'zod';
import { MediaUrl, PriceList, Uid } from './common.ts';
import { EventProduct, LiveEvent } from './events.ts';
import { PlayerSettings } from './store.ts';

/** What a shop card shows of an event's products besides the event record itself. */
export const ShopEventSummary = z.object({
  productCount: z.number().int().nonnegative(),
  previewProducts: z.array(
    z.object({ uid: Uid, name: z.string(), image: MediaUrl.nullable(), prices: PriceList }),
  ),
});
export const ShopEvent = LiveEvent.extend({ shopSummary: ShopEventSummary });
export type ShopEvent = z.infer<typeof ShopEvent>;

export const ShopEvents = z.object({
  live: z.array(ShopEvent),
  planned: z.array(ShopEvent),
  vod: z.array(ShopEvent),
});
export type ShopEvents = z.infer<typeof ShopEvents>;

/** The page's embedding facts the player needs before it talks to a host page (spec §7 host messages). */
export const Embedding = z.object({ allowedOrigins: z.array(z.string()) });
export type Embedding = z.infer<typeof Embedding>;

/** A batch of at most LOOKUP_BATCH_LIMIT (10) ids, the lookup limit of spec §7 and §9. */
const IdBatch = z.array(Uid).min(1).max(LOOKUP_BATCH_LIMIT, `at most ${LOOKUP_BATCH_LIMIT} ids per lookup`);

/**
 * The catalogue of named reads of spec §7 "Realtime reads". Each is served as a one-shot
 * snapshot at `POST /reads/{name}` (and `GET /reads/{name}?params={JSON}`, with an ETag); the realtime gateway serves the same names as live queries.
 */
export const ReadCatalogue = {
  playerSettings: { params: z.object({ pageUid: Uid }).strict(), result: PlayerSettings },
  'liveEvents.shop': { params: z.object({ pageUid: Uid }).strict(), result: ShopEvents },
  'liveEvents.byId': { params: z.object({ ids: IdBatch }).strict(), result: z.array(LiveEvent) },
  'liveEvents.byCampaign': {
    params: z.object({ campaignIds: IdBatch }).strict(),
    result: z.array(LiveEvent),
  },
  liveEventProducts: { params: z.object({ eventId: Uid }).strict(), result: z.array(EventProduct) },
  /** Where the page may be embedded: the embedded player talks only to a host page of these origins. */
  embedding: { params: z.object({ pageUid: Uid }).strict(), result: Embedding },
} as const;

export type ReadName = keyof typeof ReadCatalogue;
export type ReadParams<N extends ReadName> = z.infer<(typeof ReadCatalogue)[N]['params']>;
export type ReadResult<N extends ReadName> = z.infer<(typeof ReadCatalogue)[N]['result']>;
export const ReadName = z.enum(Object.keys(ReadCatalogue) as [ReadName, ...ReadName[]]);
