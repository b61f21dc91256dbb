import { CURRENCIES, type Currency, LOCALES, type Locale } from './vocabulary.ts';

/** English is the default of the 11 languages (spec §1). */
export const DEFAULT_LOCALE: Locale = 'en';

export const DEFAULT_CURRENCY: Currency = 'DKK';
/** The currency used when the stored value is the literal text "undefined" (spec §5). */
export const UNDEFINED_TEXT_CURRENCY: Currency = 'GBP';

/** Currency shown per language (spec §1). English shares Danish's DKK. */
export const CURRENCY_BY_LOCALE: Record<Locale, Currency> = {
  en: 'DKK',
  da: 'DKK',
  sv: 'SEK',
  no: 'NOK',
  pl: 'PLN',
  fi: 'EUR',
  nl: 'EUR',
  de: 'EUR',
  es: 'EUR',
  fr: 'EUR',
  ko: 'EUR',
};

/** BCP 47 tags for Intl formatting; Norwegian is written Bokmål. */
export const INTL_TAG_BY_LOCALE: Record<Locale, string> = {
  en: 'en-GB',
  da: 'da-DK',
  sv: 'sv-SE',
  no: 'nb-NO',
  fi: 'fi-FI',
  nl: 'nl-NL',
  pl: 'pl-PL',
  de: 'de-DE',
  es: 'es-ES',
  fr: 'fr-FR',
  ko: 'ko-KR',
};

const LANGUAGE_ALIASES: Record<string, Locale> = { nb: 'no', nn: 'no' };

export function isSupportedLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * Maps any locale code ("da", "da-DK", "nb_NO", "KO") to a supported locale, falling back
 * to the default when the language is unsupported (spec §5).
 */
export function resolveLocale(value: string | null | undefined): Locale {
  return supportedLocale(value) ?? DEFAULT_LOCALE;
}

export function isSupportedCurrency(value: unknown): value is Currency {
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);
}

/**
 * Resolves the currency to show (spec §5): a supported currency code is kept; the text
 * "undefined" (left behind by a client that stringified a missing value) becomes GBP;
 * anything else falls back to the locale's currency, or DKK when no locale is known.
 */
export function resolveCurrency(value: string | null | undefined, locale?: string | null): Currency {
  if (value === 'undefined') return UNDEFINED_TEXT_CURRENCY;
  const upper = value?.trim().toUpperCase();
  if (isSupportedCurrency(upper)) return upper;
  return locale ? CURRENCY_BY_LOCALE[resolveLocale(locale)] : DEFAULT_CURRENCY;
}

/**
 * Where the shopper's language comes from, strongest first (issue 27): an explicit choice — a
 * `?lang`, the host page's language_change (spec §7), a pick with the language menu on this
 * device (a `?lang` is kept as one, so a link that drops it on navigation keeps the choice) —,
 * then the language the shopper saved for the store (spec §3 "Reservation", §7
 * loadUserReservation), then the browser's language when Vitrine speaks it, then the store's own
 * language. A choice on this device outranks the saved one: the reservation follows the shown
 * language when the shopper adds to the cart or opens the checkout, so it can be older.
 */
export const LANGUAGE_SOURCES = ['query', 'host', 'picked', 'saved', 'browser', 'store'] as const;
export type LanguageSource = (typeof LANGUAGE_SOURCES)[number];
export type LanguageCandidates = Partial<Record<LanguageSource, string | null>>;

/** The supported language a code names ("sv-SE", "nb_NO"), or null when Vitrine does not speak it. */
export function supportedLocale(value: string | null | undefined): Locale | null {
  if (!value) return null;
  const language = value.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const aliased = LANGUAGE_ALIASES[language] ?? language;
  return isSupportedLocale(aliased) ? aliased : null;
}

/**
 * The language to show from what is known so far, with where it came from. An explicit or saved
 * code Vitrine does not speak falls back to English (spec §5); a browser language it does not
 * speak gives way to the store's language. Nothing known at all: English, from the store.
 */
export function startLanguage(candidates: LanguageCandidates): { locale: Locale; source: LanguageSource } {
  for (const source of LANGUAGE_SOURCES) {
    const value = candidates[source];
    if (!value) continue;
    if (source === 'browser' && supportedLocale(value) === null) continue;
    return { locale: resolveLocale(value), source };
  }
  return { locale: DEFAULT_LOCALE, source: 'store' };
}
