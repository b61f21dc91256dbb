/**
 * The query of an embedded player's URL: written by the SDK (`widgetUrl`), read by the web
 * (`readEmbedParams`). Zod-free: the SDK bundles it and the web reads it before loading zod.
 */
export const EMBED_QUERY = {
  /** `1`: the page runs embedded and talks to its host page. */
  embed: 'embed',
  /** The SDK's id of this player, in every host message's envelope. */
  playerId: 'playerId',
  /** The host page's origin; the only one the player talks to. */
  hostOrigin: 'hostOrigin',
  /** The widget context (spec §2). */
  context: 'context',
  /** The display mode, one of EMBED_MODES. */
  mode: 'mode',
  /** `1`: the player starts minimized. */
  minimized: 'minimized',
  /** The language the host page asks for. */
  language: 'lang',
  /** The show to go on from (a player brought back from the host's previous page)… */
  resumeEvent: 'resumeEvent',
  /** …the second to go on from… */
  resumeAt: 'resumeAt',
  /** …and `1` when it was playing. */
  autoplay: 'autoplay',
  /** Seconds into a recorded show to start at (a search result, a shared moment); any link may carry it. */
  startTime: 't',
  /** The store page's search text (its search box shows the results); any link may carry it. */
  search: 'q',
  /** The retailer's product (SKU or external id) whose newest clip the "Seen live" player shows. */
  seenLive: 'product',
} as const;

/** A query parameter's name as it appears in the URL. */
export type EmbedQueryName = (typeof EMBED_QUERY)[keyof typeof EMBED_QUERY];

/** The value of the flag parameters (`embed`, `minimized`, `autoplay`) that means on. */
export const EMBED_FLAG_ON = '1';

export { EMBED_MODES, type EmbedMode } from './vocabulary.ts';

/** Longest player id the host protocol accepts (the envelope's `playerId`). */
export const MAX_PLAYER_ID_LENGTH = 200;
