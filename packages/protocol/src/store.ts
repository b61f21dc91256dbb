import { z } from 'zod';
import { CurrencyCode, HexColor, LocaleCode, MediaUrl, PriceList, Uid } from './common.ts';
import { DEFAULT_STORE_TIME_ZONE, PickupStore, ShippingSettings, TimeZone } from './store-settings.ts';
import { NAVIGATION_MODES } from './vocabulary.ts';

export const StoreAddress = z.object({
  name: z.string().max(200).default(''),
  /** Street and number; the pickup location's address line. */
  street: z.string().max(300).default(''),
  postCode: z.string().max(20).default(''),
  city: z.string().max(100).default(''),
  email: z.string().max(200).default(''),
  phone: z.string().max(50).default(''),
});

export const StorefrontCard = z.object({
  title: z.string().max(200),
  text: z.string().max(2000).default(''),
  image: MediaUrl.nullable().default(null),
});

/** Store info as read by `/functions/customerpage/storeInfo` (spec §3, §7). */
export const StoreInfo = z.object({
  uid: Uid,
  address: StoreAddress,
  terms: z.string(),
  description: z.string(),
  cvr: z.string(),
  name: z.string(),
  logo: MediaUrl.nullable(),
  storefront: z.object({ cards: z.record(z.string(), StorefrontCard), frontpageText: z.string() }),
});
export type StoreInfo = z.infer<typeof StoreInfo>;

export const StoreInfoRequest = z.object({ pageUid: Uid });
export type StoreInfoRequest = z.infer<typeof StoreInfoRequest>;

/** Player settings as stored: every field optional, defaults applied by the domain rule. */
export const PlayerSettingsInput = z
  .object({
    primaryColor: HexColor,
    secondaryColor: HexColor,
    showPopularityBadges: z.boolean(),
    showPurchaseBadges: z.boolean(),
    hidePrices: z.boolean(),
    allowCommentsOnPrelive: z.boolean(),
    allowCommentsOnLive: z.boolean(),
    productOverlayPosition: z.enum(['left', 'right']),
    productOverlayInvisible: z.boolean(),
    showVitrineBranding: z.boolean(),
    minimizedPlayer: z.boolean(),
    minimizedHorizontalPosition: z.enum(['left', 'right']),
    minimizedVerticalPosition: z.enum(['top', 'bottom']),
    minimizedHorizontalMargin: z.number().int().min(0).max(500),
    minimizedVerticalMargin: z.number().int().min(0).max(500),
    navigation: z.enum(NAVIGATION_MODES),
  })
  .partial()
  .strict();
export type PlayerSettingsInput = z.infer<typeof PlayerSettingsInput>;

export const PlayerSettings = PlayerSettingsInput.required();
export type PlayerSettings = z.infer<typeof PlayerSettings>;

/** Default of `maxUnitsPerShopper`: enough for a gift round, too few to empty a show's stock. */
export const DEFAULT_MAX_UNITS_PER_SHOPPER = 10;

/**
 * A store's rules against hoarding and stuffing (issue 12), every field optional:
 * - `maxUnitsPerShopper`: units of one product (all its variants) one shopper may hold in the
 *   store's carts and unpaid orders together; bought units (paid or sent to packing) do not
 *   count (default DEFAULT_MAX_UNITS_PER_SHOPPER).
 * - `raffleWinners`: `anyEntrant` (default) or `contactable` — only entrants who are signed in
 *   with an account or left their contact details in the store can be drawn, once per person.
 * - `pollVotes`: `perAccount` (default: every viewer, anonymous ones too) or `perPerson` — only
 *   a contactable viewer may vote, and one person (account e-mail or contact e-mail/phone) once.
 */
export const IntegritySettingsInput = z
  .object({
    maxUnitsPerShopper: z.number().int().min(1).max(99),
    raffleWinners: z.enum(['anyEntrant', 'contactable']),
    pollVotes: z.enum(['perAccount', 'perPerson']),
  })
  .partial()
  .strict();
export type IntegritySettingsInput = z.infer<typeof IntegritySettingsInput>;
export const IntegritySettings = IntegritySettingsInput.required();
export type IntegritySettings = z.infer<typeof IntegritySettings>;

/** Admin upsert of a page (store): its store info, language, currency and player settings. */
export const PageInput = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(5000).default(''),
    terms: z.string().max(50_000).default(''),
    cvr: z.string().max(50).default(''),
    logo: MediaUrl.nullable().default(null),
    address: StoreAddress.default({ name: '', street: '', postCode: '', city: '', email: '', phone: '' }),
    storefront: z
      .object({
        cards: z.record(z.string(), StorefrontCard).default({}),
        frontpageText: z.string().max(5000).default(''),
      })
      .default({ cards: {}, frontpageText: '' }),
    language: LocaleCode.default('en'),
    currency: CurrencyCode.default('DKK'),
    /** Origins allowed to embed the player (used by host messaging). */
    allowedOrigins: z.array(z.url()).max(50).default([]),
    playerSettings: PlayerSettingsInput.default({}),
    integritySettings: IntegritySettingsInput.default({}),
    /**
     * Per currency, the order subtotal (minor units) from which home and parcel-shop delivery cost
     * nothing; a currency without an entry always pays freight.
     */
    freeDeliveryOver: PriceList.default({}),
    /** Shows are scheduled and shown in this IANA time zone. */
    timeZone: TimeZone.default(DEFAULT_STORE_TIME_ZONE),
    /** Languages and currencies sold besides the main ones; empty: every one. */
    languages: z.array(LocaleCode).default([]),
    currencies: z.array(CurrencyCode).default([]),
    /** Shipping methods and freight; a method left out keeps the default offer. */
    shippingMethods: ShippingSettings.shape.methods.optional(),
    /** Shops to pick orders up in; none: the store's own address. */
    pickupStores: z.array(PickupStore).max(50).default([]),
  })
  .strict();
export type PageInput = z.infer<typeof PageInput>;
