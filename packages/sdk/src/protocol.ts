/**
 * The host-messaging contract as the SDK sees it: TypeScript types with no runtime dependency, so
 * the loader stays small. The names (version, actions, contexts, modes, message types) come from
 * the zod-free vocabulary of packages/protocol; the payload shapes are written here, and
 * `protocol-compat.ts` fails the typecheck when they drift from the zod schemas of
 * packages/protocol/src/host.ts.
 */
import type {
  ForcedBasketMode,
  HOST_PROTOCOL_VERSION,
  HostAction,
  Navigation,
} from '@vitrine/protocol/vocabulary';

export type {
  EmbedMode,
  ForcedBasketMode,
  HostAction,
  Navigation,
  WidgetContext,
} from '@vitrine/protocol/vocabulary';
export {
  EMBED_MODES,
  HOST_ACTIONS,
  HOST_MESSAGE_MAX_BYTES,
  HOST_PROTOCOL_VERSION,
  WIDGET_CONTEXTS,
} from '@vitrine/protocol/vocabulary';

/** Features the host page switches on (spec §6); the player rejects unknown keys. */
export interface HostFeatures {
  /** The player may minimize to a corner box (default on, spec §9). */
  MINIMIZED_PLAYER?: boolean;
  /** How product links open (default NEW_TAB, spec §9). */
  NAVIGATION?: Navigation;
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

/** A message as it travels, in either direction. */
export interface Envelope<T extends string = string, P = unknown> {
  vitrine: typeof HOST_PROTOCOL_VERSION;
  playerId: string;
  type: T;
  payload: P;
}
