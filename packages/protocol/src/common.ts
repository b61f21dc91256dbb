import { z } from 'zod';
import { CURRENCIES, LOCALES, WIDGET_CONTEXTS } from './vocabulary.ts';

/** Identifiers of pages, campaigns, events and products: URL-safe, as they appear in routes. */
export const Uid = z
  .string()
  .min(1, 'must not be empty')
  .max(128, 'must be at most 128 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'may contain only letters, digits, "-" and "_"');
export type Uid = z.infer<typeof Uid>;

/** An integer that fits a PostgreSQL INTEGER column. */
export const Int32 = z.number().int().min(-2_147_483_648).max(2_147_483_647, 'must be at most 2147483647');
/** A stock count: a non-negative Int32. */
export const StockCount = Int32.min(0, 'must not be negative');

/** Milliseconds since the Unix epoch. */
export const Timestamp = z.number().int().nonnegative();

export const CurrencyCode = z.enum(CURRENCIES);
export const LocaleCode = z.enum(LOCALES);

/** Integer minor units per currency; prices are never sent by a client, only by the admin API. */
/**
 * The highest price of one unit, in minor units (100,000,000.00 in a two-decimal currency): far
 * above any product's price, and low enough that totals of many lines stay exact numbers.
 */
export const MAX_PRICE_MINOR_UNITS = 10_000_000_000;

export const PriceList = z.partialRecord(
  CurrencyCode,
  z
    .number()
    .int()
    .nonnegative()
    .max(MAX_PRICE_MINOR_UNITS, `must be at most ${MAX_PRICE_MINOR_UNITS} minor units`),
);
export type PriceList = z.infer<typeof PriceList>;

export const HexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour like #29323D');

/** A URL or a site-relative path ("/demo-media/cover.jpg"). */
export const MediaUrl = z
  .string()
  .max(2048)
  // A path on this server, or an absolute http(s) URL; `//host/…` (protocol-relative) and `/\host`
  // would silently point at another host, so they are refused like any other scheme.
  .refine(
    (value) => (value.startsWith('/') && !/^\/[/\\]/.test(value)) || /^https?:\/\/[^/\\]/.test(value),
    'must be an http(s) URL or a path',
  );

/** The body of every 4xx/5xx answer. */
export const ErrorBody = z.object({ error: z.string(), message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The sales channel the widget runs in (spec §1). */
export const WidgetContext = z.enum(WIDGET_CONTEXTS);
export type WidgetContext = z.infer<typeof WidgetContext>;
