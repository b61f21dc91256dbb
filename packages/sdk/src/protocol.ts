/**
 * The host-messaging contract as the SDK sees it: plain constants and TypeScript types, with no
 * runtime dependency, so the loader stays small. `packages/protocol/src/host.ts` (zod) is the
 * reference; `protocol-compat.ts` fails the typecheck and `validate.test.ts` fails the tests
 * when the two drift apart.
 */

/** Envelope version: every message is `{ vitrine: 1, playerId, type, payload }`. */
export const HOST_PROTOCOL_VERSION = 1;

/** Largest message either side accepts, as JSON bytes; bigger ones are dropped unread. */
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

/** Sales channels the widget runs in (spec §1). */
export const WIDGET_CONTEXTS = ['checkout', 'on_site', 'own-brand', 'store-offers'] as const;
export type WidgetContext = (typeof WIDGET_CONTEXTS)[number];

/** Embed display modes (spec §2). */
export const EMBED_MODES = ['modal', 'fillParent', 'inline'] as const;
export type EmbedMode = (typeof EMBED_MODES)[number];

export type ForcedBasketMode = 'WEBSHOP' | 'FAVORITES' | 'VITRINE' | 'LINKS';

/** Features the host page switches on (spec §6); the player rejects unknown keys. */
export interface HostFeatures {
  /** The player may minimize to a corner box (default on, spec §9). */
  MINIMIZED_PLAYER?: boolean;
  /** How product links open (default NEW_TAB, spec §9). */
  NAVIGATION?: 'NEW_TAB' | 'SAME_TAB';
  FORCE_BASKET_MODE?: ForcedBasketMode;
}

/** The host's capability sets (spec §3), sent to the player in answer to `player_ready`. */
export interface HostCapabilities {
  usableActions: HostAction[];
  emittableEvents: string[];
  supportedFeatures: HostFeatures;
}

/** How the player names a product when it asks the host about it. */
export interface ProductLookup {
  product_id: string;
  sku: string | null;
  url: string | null;
}

/** Product data the host sends for its user (spec §3 "Host product data"); it replaces the catalogue's. */
export interface HostProductData {
  /** The `product_id` the player asked about, echoed; data for products it did not ask about is ignored. */
  product_id: string;
  sku?: string | null;
  url?: string | null;
  name?: string;
  /** In the store's currency, major units (549 means 549,00 kr). */
  price?: number;
  suggestedRetailPrice?: number | null;
  b2bRetailPrice?: number | null;
  retail_markup?: number | null;
  minPurchaseQty?: number;
  images?: string[];
  isFavorite?: boolean;
  salable?: boolean;
  options?: {
    id: string;
    optionType: string;
    optionValues: { id: string; images?: string[]; styleUrl?: string | null; minimumPrice?: number | null }[];
  }[];
  variants?: { id: string; price: number; options: { optionId: string; optionValueId: string }[] }[];
}

export interface HostUser {
  userAccountId: string | null;
  name?: string | null;
}

export interface HostCartLine {
  product_id: string;
  variant_id: string | null;
  quantity: number;
}

export interface HostCartState {
  lines: HostCartLine[];
  itemCount: number;
}

type Empty = Record<string, never>;

/** Payload of each message the player sends to the host page (spec §7 "Messages to the host page"). */
export interface PlayerToHostPayloads {
  close: Empty;
  maximize: Empty;
  minimize: Empty;
  go_to_url: { url: string; newTab: boolean };
  get_user_account_data: Empty;
  get_user_product_data: ProductLookup;
  get_user_product_data_list: { products: ProductLookup[] };
  host_open_cart: Empty;
  host_request_cart_state: Empty;
  /** The shopper set this line's quantity in the player (0 removes it). */
  host_cart_state_changed: HostCartLine;
  player_ready: {
    pageUid: string;
    campaignUid: string | null;
    eventUid: string | null;
    /** The page's minimized corner and margins (player settings); init's `minimized` wins over it. */
    minimizedBox?: {
      horizontal: 'left' | 'right';
      vertical: 'top' | 'bottom';
      horizontalMargin: number;
      verticalMargin: number;
    };
  };
  content_loaded: { eventUid: string };
  track_event: { trackingEvent: string; trackingInfo?: Record<string, unknown> };
  video_ready: { eventUid: string };
  can_share: Empty;
  toggle_is_favorite: { product: ProductLookup; isFavorite: boolean; eventUid: string };
  view_resized: { width: number; height: number };
  show_favorites: { eventUid: string };
  gallery_show_updated: { eventUid: string };
  /** Where the player is: the show and seconds into its video (not in spec §7; used by restore()). */
  playback_position: { campaignUid: string | null; eventUid: string; time: number; playing: boolean };
}
export type PlayerToHostType = keyof PlayerToHostPayloads;

/** Payload of each message the host page sends to the player (spec §7 "Messages from the host"). */
export interface HostToPlayerPayloads {
  capabilities: HostCapabilities;
  close: Empty;
  minimize: Empty;
  share: Empty;
  host_cart_update_error: { product_id: string | null; message?: string };
  host_cart_state_changed: HostCartState;
  playlist_update: { items: { eventId: string }[]; activeItemId: string | null };
  cache_preload_events: { eventIds: string[] };
  cache_activate_event: { eventId: string };
  parent_resize: { width: number; height: number };
  language_change: { language: string };
  user_account_data: HostUser;
  user_product_data: HostProductData;
  user_product_data_list: { products: HostProductData[] };
  set_active_store_ids: { storeIds: string[] };
}
export type HostToPlayerType = keyof HostToPlayerPayloads;

/**
 * Required payload fields per message from the player, as the SDK checks them: `s` string,
 * `S` string or null, `b` boolean, `n` finite number, `o` object, `a` array. Fields not listed
 * are passed through unchecked (the handler decides what to trust).
 */
export const PLAYER_TO_HOST_FIELDS: {
  [T in PlayerToHostType]: Record<string, 's' | 'S' | 'b' | 'n' | 'o' | 'a'>;
} = {
  close: {},
  maximize: {},
  minimize: {},
  go_to_url: { url: 's', newTab: 'b' },
  get_user_account_data: {},
  get_user_product_data: { product_id: 's' },
  get_user_product_data_list: { products: 'a' },
  host_open_cart: {},
  host_request_cart_state: {},
  host_cart_state_changed: { product_id: 's', variant_id: 'S', quantity: 'n' },
  player_ready: { pageUid: 's', campaignUid: 'S', eventUid: 'S' },
  content_loaded: { eventUid: 's' },
  track_event: { trackingEvent: 's' },
  video_ready: { eventUid: 's' },
  can_share: {},
  toggle_is_favorite: { product: 'o', isFavorite: 'b', eventUid: 's' },
  view_resized: { width: 'n', height: 'n' },
  show_favorites: { eventUid: 's' },
  gallery_show_updated: { eventUid: 's' },
  playback_position: { campaignUid: 'S', eventUid: 's', time: 'n', playing: 'b' },
};

export const HOST_TO_PLAYER_TYPES: readonly HostToPlayerType[] = [
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
];

/** A message as it travels, in either direction. */
export interface Envelope<T extends string = string, P = unknown> {
  vitrine: typeof HOST_PROTOCOL_VERSION;
  playerId: string;
  type: T;
  payload: P;
}
