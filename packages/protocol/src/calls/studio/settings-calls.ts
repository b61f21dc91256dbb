import { IMAGE_UPLOAD_MEDIA_TYPES, MAX_IMAGE_UPLOAD_BYTES } from '@vitrine/domain';
import { z } from 'zod';
import { CurrencyCode, LocaleCode, MediaUrl, PriceList, Uid } from '../../common.ts';
import { PlayerSettings, PlayerSettingsInput } from '../../store.ts';
import {
  EmbeddingSettings,
  PickupStore,
  PickupStoresSettings,
  SalesSettings,
  ShippingSettings,
  StoreInfoSettings,
  StoreTermsSettings,
  shippingMethodFields,
} from '../../store-settings.ts';
import { call } from '../define-call.ts';

/** Everything the studio's settings screen shows, as stored (defaults filled in). */
export const StoreSettings = z.object({
  info: z.object({
    name: z.string(),
    description: z.string(),
    cvr: z.string(),
    address: z.object({
      name: z.string(),
      street: z.string(),
      postCode: z.string(),
      city: z.string(),
      email: z.string(),
      phone: z.string(),
    }),
    timeZone: z.string(),
  }),
  terms: z.string(),
  logo: MediaUrl.nullable(),
  /** Every player setting of spec §3, defaults filled in. */
  player: PlayerSettings,
  embedding: z.object({ allowedOrigins: z.array(z.string()) }),
  sales: z.object({
    language: LocaleCode,
    languages: z.array(LocaleCode),
    currency: CurrencyCode,
    currencies: z.array(CurrencyCode),
  }),
  shipping: z.object({ methods: z.object(shippingMethodFields), freeDeliveryOver: PriceList }),
  pickupStores: z.array(PickupStore.required({ uid: true })),
});
export type StoreSettings = z.infer<typeof StoreSettings>;

/**
 * The settings as a member's role may read them (issue 33 item 13): an owner gets everything; a
 * host, who does not handle payment settings (README), gets the store's face without what touches
 * money or who may frame the checkout (embedding, sales, shipping, pickup stores: null).
 */
export const StudioStoreSettings = StoreSettings.extend({
  embedding: StoreSettings.shape.embedding.nullable(),
  sales: StoreSettings.shape.sales.nullable(),
  shipping: StoreSettings.shape.shipping.nullable(),
  pickupStores: StoreSettings.shape.pickupStores.nullable(),
});
export type StudioStoreSettings = z.infer<typeof StudioStoreSettings>;

/** Whether the settings hold the owner's parts too (the answer to an owner). */
export const hasOwnerSettings = (settings: StudioStoreSettings): settings is StoreSettings =>
  settings.embedding !== null &&
  settings.sales !== null &&
  settings.shipping !== null &&
  settings.pickupStores !== null;

const StorePath = z.object({ pageUid: Uid });

/** Every settings change answers the whole settings, so the screen shows what was stored. */
const change = <T extends z.ZodType>(summary: string, request: T) => ({
  summary,
  params: StorePath,
  request,
  response: StudioStoreSettings,
});

const SETTINGS = '/staff/stores/:pageUid/settings';

/**
 * The studio's store settings calls. Hosts run the store's face (info, terms, logo, player); what
 * touches money or who may frame the checkout (currencies, freight, pickup, embedding origins) is
 * the owner's.
 */
export const settingsCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  getStoreSettings: call({
    method: 'GET',
    path: SETTINGS,
    auth: { staff: 'host' },
    summary:
      "The store's settings, defaults filled in (hosts and owners; moderators have no settings). Embedding, sales, shipping and pickup stores are the owner's: null for a host.",
    params: StorePath,
    response: StudioStoreSettings,
  }),
  putStoreEmbedding: call({
    method: 'PUT',
    path: `${SETTINGS}/embedding`,
    auth: { staff: 'owner' },
    ...change(
      'The origins allowed to embed the player and talk to it (the SDK and the frame policy use them): owners only, as an origin can frame the checkout.',
      EmbeddingSettings,
    ),
  }),
  putStoreInfo: call({
    method: 'PUT',
    path: `${SETTINGS}/info`,
    auth: { staff: 'host' },
    ...change(
      'Store info: name, description, company number, address and e-mail, and the time zone shows are scheduled in (hosts and owners).',
      StoreInfoSettings,
    ),
  }),
  putStoreLogo: call({
    method: 'PUT',
    path: `${SETTINGS}/logo`,
    auth: { staff: 'host' },
    summary:
      'Uploads the store logo (JPEG, PNG, WebP, GIF or AVIF; at most 10 MB and 40 megapixels), kept resized; anything not an image is a 4xx (hosts and owners).',
    params: StorePath,
    binaryBody: { mediaTypes: IMAGE_UPLOAD_MEDIA_TYPES, maxBytes: MAX_IMAGE_UPLOAD_BYTES },
    response: StudioStoreSettings,
  }),
  deleteStoreLogo: call({
    method: 'DELETE',
    path: `${SETTINGS}/logo`,
    auth: { staff: 'host' },
    summary: 'Removes the store logo (hosts and owners).',
    params: StorePath,
    response: StudioStoreSettings,
  }),
  putStorePickupStores: call({
    method: 'PUT',
    path: `${SETTINGS}/pickup-stores`,
    auth: { staff: 'owner' },
    ...change(
      'The shops orders can be picked up in, with address and opening hours; none means the store address (owners only, with shipping).',
      PickupStoresSettings,
    ),
  }),
  putStorePlayerSettings: call({
    method: 'PUT',
    path: `${SETTINGS}/player`,
    auth: { staff: 'host' },
    ...change(
      'Every player setting of spec §3 (colours, badges, prices, comments, overlay, minimized player, navigation); a setting left out takes its default (hosts and owners).',
      PlayerSettingsInput,
    ),
  }),
  putStoreSales: call({
    method: 'PUT',
    path: `${SETTINGS}/sales`,
    auth: { staff: 'owner' },
    ...change(
      'The languages and currencies the store sells in, and the main one of each (owners only: it decides what money is taken).',
      SalesSettings,
    ),
  }),
  putStoreShipping: call({
    method: 'PUT',
    path: `${SETTINGS}/shipping`,
    auth: { staff: 'owner' },
    ...change(
      'Shipping methods offered, freight per currency and the free-delivery threshold per currency (owners only: money).',
      ShippingSettings,
    ),
  }),
  putStoreTerms: call({
    method: 'PUT',
    path: `${SETTINGS}/terms`,
    auth: { staff: 'host' },
    ...change(
      "The store's terms and conditions, shown at the storefront's /terms for this store (hosts and owners).",
      StoreTermsSettings,
    ),
  }),
};
