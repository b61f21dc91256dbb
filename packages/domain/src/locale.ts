import { CURRENCIES, type Currency, LOCALES, type Locale } from '@vitrine/protocol/vocabulary';

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
  if (!value) return DEFAULT_LOCALE;
  const language = value.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  const aliased = LANGUAGE_ALIASES[language] ?? language;
  return isSupportedLocale(aliased) ? aliased : DEFAULT_LOCALE;
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
 * Where a language the player may show comes from, strongest first: an explicit `?lang`, the
 * host page's language_change (spec §7), a choice made in this browser with the language picker,
 * the language the shopper saved for the store (spec §3 "Reservation", §7 loadUserReservation),
 * then the browser's language. A choice on this device outranks the saved one: the reservation
 * only follows the shown language when the cart or checkout opens, so it can be older.
 */
export const LANGUAGE_SOURCES = ['query', 'host', 'picked', 'saved', 'browser'] as const;
export type LanguageSource = (typeof LANGUAGE_SOURCES)[number];
export type LanguageCandidates = Partial<Record<LanguageSource, string | null>>;

/** The language to show from what is known so far, with where it came from (the default: 'browser'). */
export function startLanguage(candidates: LanguageCandidates): { locale: Locale; source: LanguageSource } {
  for (const source of LANGUAGE_SOURCES) {
    const value = candidates[source];
    if (value) return { locale: resolveLocale(value), source };
  }
  return { locale: DEFAULT_LOCALE, source: 'browser' };
}
