import { z } from 'zod';
import { CurrencyCode, LocaleCode, PriceList, Uid } from './common.ts';
import { SHIPPING_METHOD_KINDS } from './vocabulary.ts';

// A store's settings as the studio reads and changes them (issue 14 §2). The storefront reads
// its share through storeInfo and the playerSettings live query; checkout reads freight and
// pickup stores through the stores service.

/** Whether a name is an IANA time zone this runtime knows ("Europe/Copenhagen", "UTC"). */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * An embedding origin in the form browsers send it (`event.origin`): scheme, host and port in
 * lower case, without a path; null when the text is not an http(s) origin. A trailing slash is forgiven.
 */
export function normalizeOrigin(text: string): string | null {
  const match =
    /^(https?):\/\/([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?\/?$/i.exec(
      text.trim(),
    );
  if (!match) return null;
  const [, scheme = '', host = '', port] = match;
  const defaultPort = scheme.toLowerCase() === 'https' ? '443' : '80';
  if (port !== undefined && (Number(port) > 65_535 || Number(port) === 0)) return null;
  const portPart = port === undefined || Number(port) === Number(defaultPort) ? '' : `:${Number(port)}`;
  return `${scheme.toLowerCase()}://${host.toLowerCase()}${portPart}`;
}

/** The time zone of a store that chose none: the demo's and the first retailers'. */
export const DEFAULT_STORE_TIME_ZONE = 'Europe/Copenhagen';

export const TimeZone = z.string().refine(isTimeZone, 'must be a time zone like Europe/Copenhagen');

/** An origin allowed to embed the player; sent as typed, kept as browsers send it. */
export const EmbedOrigin = z
  .string()
  .max(300, 'must be at most 300 characters')
  .refine((text) => normalizeOrigin(text) !== null, 'must be an origin like https://shop.example (no path)')
  .transform((text) => normalizeOrigin(text) ?? text);

/** The e-mail field of a form: empty, or an e-mail address. */
const OptionalEmail = z
  .string()
  .trim()
  .max(200, 'must be at most 200 characters')
  .refine((text) => text === '' || z.email().safeParse(text).success, 'must be an e-mail address');

export const StoreInfoSettings = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    description: z.string().max(5000, 'must be at most 5000 characters'),
    /** The company registration number (CVR in Denmark). */
    cvr: z.string().trim().max(50, 'must be at most 50 characters'),
    address: z
      .object({
        /** The company's legal name. */
        name: z.string().trim().max(200, 'must be at most 200 characters'),
        street: z.string().trim().max(300, 'must be at most 300 characters'),
        postCode: z.string().trim().max(20, 'must be at most 20 characters'),
        city: z.string().trim().max(100, 'must be at most 100 characters'),
        email: OptionalEmail,
        phone: z.string().trim().max(50, 'must be at most 50 characters'),
      })
      .strict(),
    /** Shows are scheduled and shown in this IANA time zone. */
    timeZone: TimeZone,
  })
  .strict();
export type StoreInfoSettings = z.infer<typeof StoreInfoSettings>;

export const StoreTermsSettings = z
  .object({ terms: z.string().max(50_000, 'must be at most 50000 characters') })
  .strict();

export const EmbeddingSettings = z
  .object({
    allowedOrigins: z
      .array(EmbedOrigin)
      .max(50, 'may hold at most 50 origins')
      .refine((origins) => new Set(origins).size === origins.length, 'lists an origin twice'),
  })
  .strict();
export type EmbeddingSettings = z.infer<typeof EmbeddingSettings>;

/** The languages and currencies a store sells in; the main ones are the storefront's defaults. */
export const SalesSettings = z
  .object({
    language: LocaleCode,
    languages: z.array(LocaleCode).min(1, 'must hold at least one language'),
    currency: CurrencyCode,
    currencies: z.array(CurrencyCode).min(1, 'must hold at least one currency'),
  })
  .strict()
  .refine((value) => value.languages.includes(value.language), {
    message: 'must be one of the languages sold',
    path: ['language'],
  })
  .refine((value) => value.currencies.includes(value.currency), {
    message: 'must be one of the currencies sold',
    path: ['currency'],
  });
export type SalesSettings = z.infer<typeof SalesSettings>;

/** One shipping method: whether checkout offers it, and its freight per currency in minor units. */
export const ShippingMethodSetting = z.object({ enabled: z.boolean(), prices: PriceList }).strict();
export type ShippingMethodSetting = z.infer<typeof ShippingMethodSetting>;

export const shippingMethodFields = Object.fromEntries(
  SHIPPING_METHOD_KINDS.map((kind) => [kind, ShippingMethodSetting]),
) as Record<(typeof SHIPPING_METHOD_KINDS)[number], typeof ShippingMethodSetting>;

export const ShippingSettings = z
  .object({
    /** A method is offered in a currency when enabled and priced in it. */
    methods: z
      .object(shippingMethodFields)
      .strict()
      .refine((methods) => Object.values(methods).some((method) => method.enabled), {
        message: 'at least one shipping method must be offered',
      }),
    /** Per currency, the subtotal (minor units) from which delivery costs nothing. */
    freeDeliveryOver: PriceList,
  })
  .strict();
export type ShippingSettings = z.infer<typeof ShippingSettings>;

/** A shop where orders can be picked up ("store pickup"). */
export const PickupStore = z
  .object({
    /** Kept across edits so a checkout's chosen store stays valid; a new store has none yet. */
    uid: Uid.optional(),
    name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    street: z.string().trim().min(1, 'must not be empty').max(300, 'must be at most 300 characters'),
    postCode: z.string().trim().max(20, 'must be at most 20 characters'),
    city: z.string().trim().max(100, 'must be at most 100 characters'),
    /** Free text, e.g. "Mon–Fri 10–18, Sat 10–14". */
    openingHours: z.string().trim().max(500, 'must be at most 500 characters'),
  })
  .strict();
export type PickupStore = z.infer<typeof PickupStore>;

export const PickupStoresSettings = z
  .object({ pickupStores: z.array(PickupStore).max(50, 'may hold at most 50 stores') })
  .strict();
