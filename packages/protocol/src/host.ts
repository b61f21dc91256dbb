import { HOST_ACTIVE_STORES_MAX, isNumeric } from '@vitrine/domain';
import { z } from 'zod';
import {
  FORCED_BASKET_MODES,
  HOST_ACTIONS,
  HOST_PROTOCOL_VERSION,
  type HostToPlayerType,
  NAVIGATION_MODES,
  type PlayerToHostType,
} from './vocabulary.ts';

/**
 * Messages between the embedded player (an iframe on /widget/…) and the retailer's page, sent
 * with window.postMessage (spec §7 "Messages to the host page" and "Messages from the host").
 * Every message is an envelope `{ vitrine: HOST_PROTOCOL_VERSION, playerId, type, payload }`;
 * `playerId` tells several players on one page apart. Both sides check the sender's origin
 * before parsing, parse with these schemas, never post with targetOrigin '*', and ignore
 * anything that does not parse. The version, size limit, actions and message types are in
 * vocabulary.ts.
 */

const Text = z.string().max(2000);
/**
 * An id from the host page: a string, or a number (spec §5: an id value is numeric if it is a
 * number or a numeric string), which the player keeps as its text, so 42 and "42" are one product.
 */
const Id = z.preprocess(
  (value) => (typeof value === 'number' && isNumeric(value) ? String(value) : value),
  z.string().min(1).max(200),
);
/** A size in pixels from the host page: a number or a numeric string (spec §5), never negative. */
const Size = z.preprocess(
  (value) => (typeof value === 'string' && isNumeric(value) ? Number(value) : value),
  z.number().nonnegative(),
);

/** Actions the host page can perform (spec §6); the player sends a message only for those the host listed. */
export const HostAction = z.enum(HOST_ACTIONS);
export type HostAction = z.infer<typeof HostAction>;

export const ForcedBasketMode = z.enum(FORCED_BASKET_MODES);

/** Features the host page switches on (spec §6). */
export const HostFeatures = z
  .object({
    MINIMIZED_PLAYER: z.boolean().optional(),
    NAVIGATION: z.enum(NAVIGATION_MODES).optional(),
    FORCE_BASKET_MODE: ForcedBasketMode.optional(),
  })
  .strict();
export type HostFeatures = z.infer<typeof HostFeatures>;

/** The host's capability sets (spec §3 "On-site SDK capability sets"). */
export const HostCapabilities = z
  .object({
    usableActions: z.array(HostAction).max(20),
    emittableEvents: z.array(z.string().max(100)).max(50),
    supportedFeatures: HostFeatures,
  })
  .strict();
export type HostCapabilities = z.infer<typeof HostCapabilities>;

export const ProductLookup = z.object({ product_id: Id, sku: Text.nullable(), url: Text.nullable() });
export type ProductLookup = z.infer<typeof ProductLookup>;

const Money = z.number().nonnegative().max(1e9);

/** Product data the host sends for its user (spec §3 "Host product data"); it replaces the catalogue's. */
export const HostProductData = z.object({
  product_id: Id,
  sku: Text.nullable().optional(),
  url: Text.nullable().optional(),
  name: Text.optional(),
  price: Money.optional(),
  suggestedRetailPrice: Money.nullable().optional(),
  b2bRetailPrice: Money.nullable().optional(),
  retail_markup: z.number().nullable().optional(),
  minPurchaseQty: z.number().int().min(1).max(10_000).optional(),
  images: z.array(Text).max(20).optional(),
  isFavorite: z.boolean().optional(),
  salable: z.boolean().optional(),
  options: z
    .array(
      z.object({
        id: Id,
        optionType: Text,
        optionValues: z
          .array(
            z.object({
              id: Id,
              images: z.array(Text).max(20).optional(),
              styleUrl: Text.nullable().optional(),
              minimumPrice: Money.nullable().optional(),
            }),
          )
          .max(100),
      }),
    )
    .max(20)
    .optional(),
  variants: z
    .array(
      z.object({
        id: Id,
        price: Money,
        options: z.array(z.object({ optionId: Id, optionValueId: Id })).max(20),
      }),
    )
    .max(500)
    .optional(),
});
export type HostProductData = z.infer<typeof HostProductData>;

export const HostUser = z.object({
  userAccountId: z.string().max(200).nullable(),
  name: Text.nullable().optional(),
});

export const HostCartLine = z.object({
  product_id: Id,
  variant_id: Id.nullable(),
  quantity: z.number().int().min(0).max(10_000),
});
export const HostCartState = z.object({
  lines: z.array(HostCartLine).max(500),
  itemCount: z.number().int().min(0),
});

const message = <T extends string, P extends z.ZodType>(type: T, payload: P) =>
  z.object({
    vitrine: z.literal(HOST_PROTOCOL_VERSION),
    playerId: Id,
    type: z.literal(type),
    payload,
  });
const empty = z.object({}).strict().default({});

/** The envelope schema of each message of a payload map, as a union tied type by type. */
type MessageSchema<Payloads extends Record<string, z.ZodType>> = {
  [T in keyof Payloads & string]: ReturnType<typeof message<T, Payloads[T]>>;
}[keyof Payloads & string];

/**
 * The discriminated union of one direction's messages from its payload map. Each map is checked
 * with `satisfies Record<…Type, z.ZodType>`, so it names exactly the vocabulary's message types.
 */
function messageUnion<Payloads extends Record<string, z.ZodType>>(payloads: Payloads) {
  // Object.entries forgets which payload belongs to which type; `message` builds each envelope
  // from its own pair, so each one is the MessageSchema of its type.
  const [first, ...rest] = Object.entries(payloads).map(
    ([type, payload]) => message(type, payload) as MessageSchema<Payloads>,
  );
  if (!first) throw new Error('a message union needs at least one message type');
  return z.discriminatedUnion('type', [first, ...rest]);
}

/** Payload of each message the player sends to the host page (spec §7 "Messages to the host page"). */
const playerToHostPayloads = {
  close: empty,
  maximize: empty,
  minimize: empty,
  go_to_url: z.object({ url: Text, newTab: z.boolean() }),
  get_user_account_data: empty,
  get_user_product_data: ProductLookup,
  get_user_product_data_list: z.object({ products: z.array(ProductLookup).max(100) }),
  host_open_cart: empty,
  host_request_cart_state: empty,
  host_cart_state_changed: z.object({
    product_id: Id,
    variant_id: Id.nullable(),
    quantity: z.number().int().min(0).max(10_000),
  }),
  player_ready: z.object({
    pageUid: Id,
    campaignUid: Id.nullable(),
    eventUid: Id.nullable(),
    // The page's minimized corner and margins (its player settings), for the SDK to place it.
    minimizedBox: z
      .object({
        horizontal: z.enum(['left', 'right']),
        vertical: z.enum(['top', 'bottom']),
        horizontalMargin: z.number().int().min(0).max(500),
        verticalMargin: z.number().int().min(0).max(500),
      })
      .optional(),
  }),
  content_loaded: z.object({ eventUid: Id }),
  track_event: z.object({ trackingEvent: Text, trackingInfo: z.record(z.string(), z.unknown()).optional() }),
  video_ready: z.object({ eventUid: Id }),
  can_share: empty,
  toggle_is_favorite: z.object({ product: ProductLookup, isFavorite: z.boolean(), eventUid: Id }),
  view_resized: z.object({ width: z.number().nonnegative(), height: z.number().nonnegative() }),
  show_favorites: z.object({ eventUid: Id }),
  gallery_show_updated: z.object({ eventUid: Id }),
  // Beyond spec §7's list: where the player is (show and seconds into its video), reported while
  // it plays, so the SDK can bring a minimized player back at that point on the host's next page.
  playback_position: z.object({
    campaignUid: Id.nullable(),
    eventUid: Id,
    time: z.number().nonnegative().max(1e7),
    playing: z.boolean(),
  }),
} satisfies Record<PlayerToHostType, z.ZodType>;

/** Messages the player sends to the host page. */
export const PlayerToHostMessage = messageUnion(playerToHostPayloads);
export type PlayerToHostMessage = z.infer<typeof PlayerToHostMessage>;

/** Payload of each message the host page sends to the player (spec §7 "Messages from the host"). */
const hostToPlayerPayloads = {
  capabilities: HostCapabilities,
  close: empty,
  minimize: empty,
  share: empty,
  host_cart_update_error: z.object({ product_id: Id.nullable(), message: Text.optional() }),
  host_cart_state_changed: HostCartState,
  playlist_update: z.object({
    items: z.array(z.object({ eventId: Id })).max(100),
    activeItemId: Id.nullable(),
  }),
  cache_preload_events: z.object({ eventIds: z.array(Id).max(10) }),
  cache_activate_event: z.object({ eventId: Id }),
  parent_resize: z.object({ width: Size, height: Size }),
  language_change: z.object({ language: z.string().min(2).max(20) }),
  user_account_data: HostUser,
  user_product_data: HostProductData,
  user_product_data_list: z.object({ products: z.array(HostProductData).max(100) }),
  set_active_store_ids: z.object({ storeIds: z.array(Id).max(HOST_ACTIVE_STORES_MAX) }),
} satisfies Record<HostToPlayerType, z.ZodType>;

/** Messages the host page sends to the player. */
export const HostToPlayerMessage = messageUnion(hostToPlayerPayloads);
export type HostToPlayerMessage = z.infer<typeof HostToPlayerMessage>;
