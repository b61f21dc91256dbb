/**
 * Business constants of spec §9, each defined once. Other code imports these names
 * rather than repeating the numbers.
 */

/** Planned and vod events stay listed this long after their start / campaign deadline. */
export const EVENT_WINDOW_GRACE_MS = 15 * 60_000;
/** Default delay between the host's camera and the streaming server. */
export const DEFAULT_BROADCAST_DELAY_MS = 750;
/** CDN delay of the one video delivery provider that has one; every other provider has none. */
export const DELAYED_CDN_PROVIDER_DELAY_MS = 5000;
export const PING_INTERVAL_MS = 30_000;
export const PING_TIMEOUT_MS = 10_000;
export const TOKEN_REFRESH_INTERVAL_MS = 30 * 60_000;
export const REACTION_THROTTLE_MS = 2000;
export const COMMENT_HISTORY_MS = 120 * 60_000;
export const COMMENT_HISTORY_LIMIT = 100;
export const VOD_COMMENT_LEAD_WINDOW_MS = 10 * 60_000;
export const PRIVATE_MESSAGE_FRESHNESS_MS = 30_000;
export const WINNER_NOTIFICATION_EXTRA_DELAY_MS = 5000;
/** Most ids (or store ids) one lookup may carry; larger sets are split into batches. */
export const LOOKUP_BATCH_LIMIT = 10;
/**
 * Most store ids the host's set_active_store_ids may name: the player follows them in batches of
 * LOOKUP_BATCH_LIMIT (one subscription each), so a retailer with many stores gets several batches;
 * the bound keeps one message from opening unbounded subscriptions.
 */
export const HOST_ACTIVE_STORES_MAX = 100;
export const EVENT_UPDATES_QUERY_LIMIT = 50;
export const DEFAULT_MINIMIZED_MARGIN_PX = 20;
/**
 * The "one particular video delivery provider" of spec §4 "Stream type" and §9: it has the
 * DELAYED_CDN_PROVIDER_DELAY_MS CDN delay, and its stream type follows the event status.
 */
export const DELAYED_CDN_PROVIDER = 'ivs';
/** Cue source of the host's control center; these cues win when several sources cue a product (spec §4). */
export const CONTROL_CENTER_CUE_SOURCE = 'control-center';
/** Stock at or below which "Only a few left" is shown (spec §4 "Orders and payment", §9 stock booster labels). */
export const LOW_STOCK_THRESHOLD = 5;
/**
 * Purchases of one product a viewer must see (the purchases live query delivers those made while
 * they watch) before the product is labelled "popular" (spec §4 "Orders and payment" stock signals).
 * Three, so one shopper buying twice does not make a product look popular.
 */
export const POPULAR_PURCHASE_COUNT = 3;
/** How long a "{name} just bought {product}" badge stays on screen after the purchase arrives. */
export const PURCHASE_BADGE_DURATION_MS = 6000;
