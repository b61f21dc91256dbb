import { z } from 'zod';

/**
 * Messages between the embedded player (an iframe on /widget/…) and the retailer's page, sent
 * with window.postMessage (spec §7 "Messages to the host page" and "Messages from the host").
 * Every message is an envelope `{ vitrine: HOST_PROTOCOL_VERSION, playerId, type, payload }`;
 * `playerId` tells several players on one page apart. Both sides check the sender's origin
 * before parsing, parse with these schemas, never post with targetOrigin '*', and ignore
 * anything that does not parse.
 */
export const HOST_PROTOCOL_VERSION = 1;

/** Largest message either side accepts, as JSON; bigger ones are dropped unread. */
export const HOST_MESSAGE_MAX_BYTES = 64 * 1024;

const Text = z.string().max(2000);
const Id = z.string().min(1).max(200);

/** Actions the host page can perform (spec §6); the player sends a message only for those the host listed. */
export const HostAction = z.enum([
  'OPEN_CART',
  'GET_CART_CONTENTS',
  'UPDATE_CART_CONTENTS',
  'GET_PRODUCT_REDIRECT_URL',
  'GET_USER_DATA',
  'GET_PRODUCT_DATA',
  'GET_PRODUCT_DATA_LIST',
  'TOGGLE_IS_FAVORITE',
  'SOME_CHECKOUT',
]);
export type HostAction = z.infer<typeof HostAction>;

export const ForcedBasketMode = z.enum(['WEBSHOP', 'FAVORITES', 'VITRINE', 'LINKS']);

/** Features the host page switches on (spec §6). */
export const HostFeatures = z
  .object({
    MINIMIZED_PLAYER: z.boolean().optional(),
    NAVIGATION: z.enum(['NEW_TAB', 'SAME_TAB']).optional(),
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

/** Messages the player sends to the host page. */
export const PlayerToHostMessage = z.discriminatedUnion('type', [
  message('close', empty),
  message('maximize', empty),
  message('minimize', empty),
  message('go_to_url', z.object({ url: Text, newTab: z.boolean() })),
  message('get_user_account_data', empty),
  message('get_user_product_data', ProductLookup),
  message('get_user_product_data_list', z.object({ products: z.array(ProductLookup).max(100) })),
  message('host_open_cart', empty),
  message('host_request_cart_state', empty),
  message(
    'host_cart_state_changed',
    z.object({ product_id: Id, variant_id: Id.nullable(), quantity: z.number().int().min(0).max(10_000) }),
  ),
  message(
    'player_ready',
    z.object({
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
  ),
  message('content_loaded', z.object({ eventUid: Id })),
  message(
    'track_event',
    z.object({ trackingEvent: Text, trackingInfo: z.record(z.string(), z.unknown()).optional() }),
  ),
  message('video_ready', z.object({ eventUid: Id })),
  message('can_share', empty),
  message('toggle_is_favorite', z.object({ product: ProductLookup, isFavorite: z.boolean(), eventUid: Id })),
  message('view_resized', z.object({ width: z.number().nonnegative(), height: z.number().nonnegative() })),
  message('show_favorites', z.object({ eventUid: Id })),
  message('gallery_show_updated', z.object({ eventUid: Id })),
  // Beyond spec §7's list: where the player is (show and seconds into its video), reported while
  // it plays, so the SDK can bring a minimized player back at that point on the host's next page.
  message(
    'playback_position',
    z.object({
      campaignUid: Id.nullable(),
      eventUid: Id,
      time: z.number().nonnegative().max(1e7),
      playing: z.boolean(),
    }),
  ),
]);
export type PlayerToHostMessage = z.infer<typeof PlayerToHostMessage>;

/** Messages the host page sends to the player. */
export const HostToPlayerMessage = z.discriminatedUnion('type', [
  message('capabilities', HostCapabilities),
  message('close', empty),
  message('minimize', empty),
  message('share', empty),
  message('host_cart_update_error', z.object({ product_id: Id.nullable(), message: Text.optional() })),
  message('host_cart_state_changed', HostCartState),
  message(
    'playlist_update',
    z.object({ items: z.array(z.object({ eventId: Id })).max(100), activeItemId: Id.nullable() }),
  ),
  message('cache_preload_events', z.object({ eventIds: z.array(Id).max(10) })),
  message('cache_activate_event', z.object({ eventId: Id })),
  message('parent_resize', z.object({ width: z.number().nonnegative(), height: z.number().nonnegative() })),
  message('language_change', z.object({ language: z.string().min(2).max(20) })),
  message('user_account_data', HostUser),
  message('user_product_data', HostProductData),
  message('user_product_data_list', z.object({ products: z.array(HostProductData).max(100) })),
  message('set_active_store_ids', z.object({ storeIds: z.array(Id).max(10) })),
]);
export type HostToPlayerMessage = z.infer<typeof HostToPlayerMessage>;
