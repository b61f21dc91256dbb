import { LOCALES } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';
import {
  CURRENCY_BY_LOCALE,
  isSupportedCurrency,
  isSupportedLocale,
  resolveCurrency,
  resolveLocale,
  startLanguage,
  supportedLocale,
} from './locale.ts';

describe('locale defaults', () => {
  it('maps every supported locale to a supported currency (spec §5 "falls back to ... the locale\'s currency")', () => {
    for (const locale of LOCALES) {
      expect(isSupportedCurrency(CURRENCY_BY_LOCALE[locale])).toBe(true);
    }
  });
});

describe('resolveLocale', () => {
  it('keeps a supported two-letter code as is (spec §5 "Other rules")', () => {
    expect(resolveLocale('da')).toBe('da');
    expect(resolveLocale('de')).toBe('de');
    expect(resolveLocale('ko')).toBe('ko');
  });

  it("reduces a region-tagged code 'da-DK' to its language 'da' (spec §5 \"Other rules\")", () => {
    expect(resolveLocale('da-DK')).toBe('da');
    expect(resolveLocale('sv-SE')).toBe('sv');
    expect(resolveLocale('en-US')).toBe('en');
  });

  it("maps Norwegian Bokmål 'nb' (and Nynorsk 'nn') to the supported 'no' (spec §5 \"Other rules\")", () => {
    expect(resolveLocale('nb')).toBe('no');
    expect(resolveLocale('nn')).toBe('no');
    expect(resolveLocale('no')).toBe('no');
  });

  it("accepts underscores and any letter case: 'NB_no' → 'no', 'KO' → 'ko' (spec §5 \"Other rules\")", () => {
    expect(resolveLocale('NB_no')).toBe('no');
    expect(resolveLocale('nb_NO')).toBe('no');
    expect(resolveLocale('KO')).toBe('ko');
    expect(resolveLocale('Da-dk')).toBe('da');
  });

  it('ignores surrounding whitespace (spec §5 "Other rules")', () => {
    expect(resolveLocale(' fr-FR ')).toBe('fr');
  });

  it('falls back to the default \'en\' for the empty string (spec §5 "falls back to the default when it is unsupported", §9)', () => {
    expect(resolveLocale('')).toBe('en');
    expect(resolveLocale('   ')).toBe('en');
  });

  it("falls back to the default 'en' for an unsupported language 'xx' (spec §5, §9 \"Default locale\")", () => {
    expect(resolveLocale('xx')).toBe('en');
    expect(resolveLocale('xx-DK')).toBe('en');
    expect(resolveLocale('it')).toBe('en');
  });

  it('falls back to the default \'en\' for null and undefined (spec §5, §9 "Default locale")', () => {
    expect(resolveLocale(null)).toBe('en');
    expect(resolveLocale(undefined)).toBe('en');
  });

  it('does not accept a region alone or a longer word that starts with a supported code (spec §5 "Other rules")', () => {
    expect(resolveLocale('DK')).toBe('en');
    expect(resolveLocale('danish')).toBe('en');
  });
});

describe('isSupportedLocale', () => {
  it('accepts exactly the 11 supported language codes (spec §1, §5)', () => {
    expect(LOCALES).toHaveLength(11);
    for (const locale of LOCALES) expect(isSupportedLocale(locale)).toBe(true);
  });

  it('rejects region-tagged, upper-case, unknown and non-string values (spec §5 "Other rules")', () => {
    expect(isSupportedLocale('da-DK')).toBe(false);
    expect(isSupportedLocale('DA')).toBe(false);
    expect(isSupportedLocale('xx')).toBe(false);
    expect(isSupportedLocale(null)).toBe(false);
    expect(isSupportedLocale(1)).toBe(false);
  });
});

describe('resolveCurrency', () => {
  it('keeps a supported currency code (spec §5 "Other rules")', () => {
    expect(resolveCurrency('DKK')).toBe('DKK');
    expect(resolveCurrency('EUR', 'da')).toBe('EUR');
    expect(resolveCurrency('GBP', 'sv')).toBe('GBP');
  });

  it('upper-cases a lowercase supported code: \'sek\' → SEK (spec §5 "Other rules")', () => {
    expect(resolveCurrency('sek')).toBe('SEK');
    expect(resolveCurrency(' nok ')).toBe('NOK');
    expect(resolveCurrency('Pln', 'da')).toBe('PLN');
  });

  it('turns the text \'undefined\' into GBP (spec §5 "to GBP when the value is the text undefined", §9)', () => {
    expect(resolveCurrency('undefined')).toBe('GBP');
  });

  it("turns the text 'undefined' into GBP even when a locale with another currency is known (spec §5, §9)", () => {
    expect(resolveCurrency('undefined', 'sv')).toBe('GBP');
    expect(resolveCurrency('undefined', 'da')).toBe('GBP');
  });

  it("does not treat a real undefined value like the text 'undefined': it falls back to DKK (spec §5, §9)", () => {
    expect(resolveCurrency(undefined)).toBe('DKK');
  });

  it('falls back to the locale currency for an unsupported code (spec §5 "or the locale\'s currency")', () => {
    expect(resolveCurrency('USD', 'sv')).toBe('SEK');
    expect(resolveCurrency('JPY', 'no')).toBe('NOK');
    expect(resolveCurrency('XYZ', 'pl')).toBe('PLN');
    expect(resolveCurrency('USD', 'de')).toBe('EUR');
  });

  it("resolves the locale's currency through locale codes like 'sv-SE' and 'nb_NO' (spec §5 \"Other rules\")", () => {
    expect(resolveCurrency('USD', 'sv-SE')).toBe('SEK');
    expect(resolveCurrency('USD', 'nb_NO')).toBe('NOK');
  });

  it('falls back to the locale currency for missing or empty values (spec §5 "Other rules")', () => {
    expect(resolveCurrency(null, 'sv')).toBe('SEK');
    expect(resolveCurrency(undefined, 'fi')).toBe('EUR');
    expect(resolveCurrency('', 'no')).toBe('NOK');
  });

  it('falls back to DKK when there is no locale (spec §5 "falls back to DKK", §9 "Default currency")', () => {
    expect(resolveCurrency('USD')).toBe('DKK');
    expect(resolveCurrency(null)).toBe('DKK');
    expect(resolveCurrency('', null)).toBe('DKK');
    expect(resolveCurrency('USD', '')).toBe('DKK');
  });

  it("falls back to DKK, English's currency, for an unsupported locale 'xx' (spec §5, §9)", () => {
    expect(resolveCurrency('USD', 'xx')).toBe('DKK');
  });
});

describe('startLanguage (which language the player starts in)', () => {
  const all = { query: 'fr', host: 'de-DE', picked: 'sv', saved: 'da', browser: 'pl-PL' };

  it("ranks ?lang, the host, this browser's pick, the saved reservation, then the browser", () => {
    expect(startLanguage(all)).toEqual({ locale: 'fr', source: 'query' });
    expect(startLanguage({ ...all, query: null })).toEqual({ locale: 'de', source: 'host' });
    expect(startLanguage({ ...all, query: null, host: null })).toEqual({ locale: 'sv', source: 'picked' });
    expect(startLanguage({ saved: 'da', browser: 'pl-PL' })).toEqual({ locale: 'da', source: 'saved' });
    expect(startLanguage({ browser: 'pl-PL' })).toEqual({ locale: 'pl', source: 'browser' });
  });

  it('starts a returning shopper with no ?lang in the language saved for the store', () => {
    expect(startLanguage({ query: '', saved: 'da', browser: 'en-US' })).toEqual({
      locale: 'da',
      source: 'saved',
    });
  });

  it("gives a browser language Vitrine does not speak way to the store's language, then English", () => {
    expect(startLanguage({ browser: 'xx', store: 'da' })).toEqual({ locale: 'da', source: 'store' });
    expect(startLanguage({ browser: 'sv-FI', store: 'da' })).toEqual({ locale: 'sv', source: 'browser' });
    expect(startLanguage({ browser: 'xx' })).toEqual({ locale: 'en', source: 'store' });
    expect(startLanguage({})).toEqual({ locale: 'en', source: 'store' });
  });

  it('an explicit choice in any of the 11 languages outranks a saved one, the browser and the store', () => {
    for (const locale of LOCALES) {
      const other = LOCALES.find((candidate) => candidate !== locale) ?? 'en';
      for (const source of ['query', 'host', 'picked'] as const) {
        expect(startLanguage({ [source]: locale, saved: other, browser: other, store: other })).toEqual({
          locale,
          source,
        });
      }
      expect(startLanguage({ saved: locale, browser: other, store: other })).toEqual({
        locale,
        source: 'saved',
      });
      expect(startLanguage({ browser: locale, store: other })).toEqual({ locale, source: 'browser' });
      expect(startLanguage({ browser: 'tlh', store: locale })).toEqual({ locale, source: 'store' });
    }
  });

  it('reads supported languages from any regional code, and nothing from unsupported ones', () => {
    expect(supportedLocale('nb_NO')).toBe('no');
    expect(supportedLocale('ko-KR')).toBe('ko');
    expect(supportedLocale('pt-BR')).toBeNull();
    expect(supportedLocale('')).toBeNull();
  });
});
