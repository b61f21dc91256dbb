// Every closed list of names the product uses, defined once, at the bottom of the packages. No zod
// here: the SDK loader, the domain rules and the web app's initial bundle import these
// (`@vitrine/domain/vocabulary`, or `@vitrine/protocol/vocabulary`) without bundling zod; the
// protocol's schemas build their enums from them (`z.enum(LOCALES)`). The values are the spec's strings: change them only with the spec.

// ---------------------------------------------------------------------------------------------
// Languages and money (spec §1)
// ---------------------------------------------------------------------------------------------

/** The 11 languages of spec §1; English is the default. */
export const LOCALES = ['en', 'da', 'sv', 'no', 'fi', 'nl', 'pl', 'de', 'es', 'fr', 'ko'] as const;
export type Locale = (typeof LOCALES)[number];

/** The currencies of spec §1 (ISO 4217); prices are integer minor units of one of them. */
export const CURRENCIES = ['DKK', 'SEK', 'NOK', 'PLN', 'EUR', 'GBP'] as const;
export type Currency = (typeof CURRENCIES)[number];

// ---------------------------------------------------------------------------------------------
// Embedding and host messaging (spec §1 "Contexts", §2, §6, §7)
// ---------------------------------------------------------------------------------------------

/** The sales channels the widget runs in (spec §1 "Contexts"). */
export const WIDGET_CONTEXTS = ['checkout', 'on_site', 'own-brand', 'store-offers'] as const;
export type WidgetContext = (typeof WIDGET_CONTEXTS)[number];

/** Embed display modes (spec §2 "The embed display mode values are modal, fillParent and inline"). */
export const EMBED_MODES = ['modal', 'fillParent', 'inline'] as const;
export type EmbedMode = (typeof EMBED_MODES)[number];

/** How product links open: the host's NAVIGATION feature and the page's player setting (spec §9). */
export const NAVIGATION_MODES = ['NEW_TAB', 'SAME_TAB'] as const;
export type Navigation = (typeof NAVIGATION_MODES)[number];

/** Basket modes the host can force (spec §6 FORCE_BASKET_MODE; "{product}" is VITRINE). */
export const FORCED_BASKET_MODES = ['WEBSHOP', 'FAVORITES', 'VITRINE', 'LINKS'] as const;
export type ForcedBasketMode = (typeof FORCED_BASKET_MODES)[number];

/** Envelope version of host messages: every message is `{ vitrine: 1, playerId, type, payload }`. */
export const HOST_PROTOCOL_VERSION = 1;

/** Largest host message either side accepts, as JSON bytes; bigger ones are dropped unread. */
export const HOST_MESSAGE_MAX_BYTES = 64 * 1024;

/** Actions the host page can perform (spec §6); the player asks only for those the host lists. */
export const HOST_ACTIONS = [
  'OPEN_CART',
  'GET_CART_CONTENTS',
  'UPDATE_CART_CONTENTS',
  'GET_PRODUCT_REDIRECT_URL',
  'GET_USER_DATA',
  'GET_PRODUCT_DATA',
  'GET_PRODUCT_DATA_LIST',
  'TOGGLE_IS_FAVORITE',
  'SOME_CHECKOUT',
] as const;
export type HostAction = (typeof HOST_ACTIONS)[number];

/**
 * Types of the messages the player sends to the host page (spec §7 "Messages to the host page");
 * `playback_position` is beyond the spec's list (where the player is, for the SDK's restore()).
 */
export const PLAYER_TO_HOST_MESSAGE_TYPES = [
  'close',
  'maximize',
  'minimize',
  'go_to_url',
  'get_user_account_data',
  'get_user_product_data',
  'get_user_product_data_list',
  'host_open_cart',
  'host_request_cart_state',
  'host_cart_state_changed',
  'player_ready',
  'content_loaded',
  'track_event',
  'video_ready',
  'can_share',
  'toggle_is_favorite',
  'view_resized',
  'show_favorites',
  'gallery_show_updated',
  'playback_position',
] as const;
export type PlayerToHostType = (typeof PLAYER_TO_HOST_MESSAGE_TYPES)[number];

/** Types of the messages the host page sends to the player (spec §7 "Messages from the host"). */
export const HOST_TO_PLAYER_MESSAGE_TYPES = [
  'capabilities',
  'close',
  'minimize',
  'share',
  'host_cart_update_error',
  'host_cart_state_changed',
  'playlist_update',
  'cache_preload_events',
  'cache_activate_event',
  'parent_resize',
  'language_change',
  'user_account_data',
  'user_product_data',
  'user_product_data_list',
  'set_active_store_ids',
] as const;
export type HostToPlayerType = (typeof HOST_TO_PLAYER_MESSAGE_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// Shows (spec §3 "Live event")
// ---------------------------------------------------------------------------------------------

/** An event's publication status; only public events are displayed (spec §4). */
export const EVENT_STATUSES = ['draft', 'private', 'public'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/** An event's currentStatus: planned (prelive), live or vod (spec §4). */
export const EVENT_CURRENT_STATUSES = ['planned', 'live', 'vod'] as const;
export type EventCurrentStatus = (typeof EVENT_CURRENT_STATUSES)[number];

// ---------------------------------------------------------------------------------------------
// Checkout, orders and payment (spec §3 "Checkout", §4 "Orders and payment", §5)
// ---------------------------------------------------------------------------------------------

/** The lifecycle of a checkout: a cart (open), then an order, then locked once sent to packing. */
export const CHECKOUT_STATUSES = ['open', 'ordered', 'locked'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/**
 * An order's life after it is sent to packing (issue 33 item 11): `packing` is where
 * "Sent to packing" leaves it (the checkout's `locked`), then packed, shipped (carrier and
 * tracking number) and delivered (or collected). Refunds are apart: money, not parcels.
 */
export const FULFILMENT_STATUSES = ['packing', 'packed', 'shipped', 'delivered'] as const;
export type FulfilmentStatus = (typeof FULFILMENT_STATUSES)[number];

/** Carriers whose tracking page the studio links by template; any other carrier gets a pasted URL. */
export const KNOWN_CARRIERS = ['postnord', 'gls', 'dao', 'bring', 'dhl', 'ups', 'dpd', 'fedex'] as const;
export type KnownCarrier = (typeof KNOWN_CARRIERS)[number];

/** Shipping methods as the checkout offers them. */
export const SHIPPING_METHOD_KINDS = ['home_delivery', 'store_pickup', 'parcel_shop'] as const;
export type ShippingMethodKind = (typeof SHIPPING_METHOD_KINDS)[number];

/** Why a checkout cannot be ordered yet (spec §5 "Checkout state messages"), in the spec's order. */
export const CHECKOUT_PROBLEMS = [
  'noShippingMethod',
  'noPaymentMethod',
  'termsNotAccepted',
  'noPickupPoint',
  'noDeliveryCountry',
  'deliveryAddressMissing',
] as const;
export type CheckoutProblem = (typeof CHECKOUT_PROBLEMS)[number];

/**
 * A payment attempt's state: awaiting confirmation from when the shopper is sent to the provider,
 * received once the provider confirms the money; declined and abandoned attempts are retried.
 */
export const TRANSACTION_STATUSES = ['awaiting_confirmation', 'received', 'declined', 'abandoned'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Events a payment provider reports by webhook. */
export const PAYMENT_EVENT_TYPES = [
  /** The shopper approved; the provider confirms asynchronously (status stays awaiting_confirmation). */
  'payment.authorized',
  /** Money received: the transaction counts. */
  'payment.succeeded',
  'payment.failed',
  /** The shopper left the payment page: the payment was interrupted and can be retried. */
  'payment.canceled',
  'payment.refunded',
] as const;
export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number];

/** What is missing in the contact step for social-live viewers (spec §5), in the form's order. */
export const CONTACT_PROBLEMS = ['phoneOrEmail', 'consent', 'name'] as const;
export type ContactProblem = (typeof CONTACT_PROBLEMS)[number];

// ---------------------------------------------------------------------------------------------
// Live queries
// ---------------------------------------------------------------------------------------------

/** How a document of a live query changed. */
export const CHANGE_TYPES = ['added', 'modified', 'removed'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

// ---------------------------------------------------------------------------------------------
// Analytics
// ---------------------------------------------------------------------------------------------

/**
 * What analytics needs and spec §7 leaves open: a player that is playing sends this every
 * WATCH_HEARTBEAT_INTERVAL_MS with the seconds it played since the last one (watchedSeconds),
 * live or replay (playback) and, when known, how far behind the live edge it is (delayMs).
 */
export const WATCH_HEARTBEAT_EVENT = 'player.heartbeat';
/** How often a playing player sends WATCH_HEARTBEAT_EVENT. */
export const WATCH_HEARTBEAT_INTERVAL_MS = 30_000;

/** Whether a player plays the show live or its recording. */
export const PLAYBACKS = ['live', 'replay'] as const;
export type Playback = (typeof PLAYBACKS)[number];
