import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { INTL_TAG_BY_LOCALE } from '@vitrine/domain';
import { LOCALES, type Locale } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';

/**
 * Every language file must mirror en.json: the same keys (walked generically, so new English
 * keys are checked without touching this file), non-empty strings, the plural forms the
 * language's CLDR rules call for, and the same {{placeholders}}. Namespaces that load on demand
 * (a folder per namespace, e.g. checkout/, interaction/) are checked the same way.
 */

/** All plural categories i18next may append to a key (`_zero`, `_one`, …). */
const PLURAL_CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;

/** '' for the main translation files, else the folder of an on-demand namespace. */
const NAMESPACE_FOLDERS = [
  '',
  ...readdirSync(new URL('./', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${entry.name}/`)
    .sort(),
];

/** Flattens nested objects to dot-separated key paths; leaves keep their value, whatever type it is. */
function flatten(value: unknown, prefix = '', into = new Map<string, unknown>()): Map<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, into);
  } else {
    into.set(prefix, value);
  }
  return into;
}

/** Splits `a.b_one` into base `a.b` and category `one`; null when the key has no plural suffix. */
function splitPlural(key: string): { base: string; category: string } | null {
  const match = /^(.*)_([a-z]+)$/.exec(key);
  if (!match || !(PLURAL_CATEGORIES as readonly string[]).includes(match[2]!)) return null;
  return { base: match[1]!, category: match[2]! };
}

function placeholders(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  return [...new Set([...text.matchAll(/\{\{\s*([^}]+?)\s*\}\}/g)].map((m) => m[1]!))].sort();
}

function pluralCategoriesOf(locale: Locale): string[] {
  return [...new Intl.PluralRules(INTL_TAG_BY_LOCALE[locale]).resolvedOptions().pluralCategories].sort();
}

describe.each(NAMESPACE_FOLDERS)('locales/%s', (folder) => {
  const fileUrl = (locale: Locale): URL => new URL(`./${folder}${locale}.json`, import.meta.url);
  const readLocale = (locale: Locale): unknown => JSON.parse(readFileSync(fileUrl(locale), 'utf8'));

  const english = flatten(readLocale('en'));

  /** Plural base keys: those English writes with an `_one` or `_other` form. */
  const pluralBases = new Set(
    [...english.keys()]
      .map(splitPlural)
      .filter((split) => split !== null && (split.category === 'one' || split.category === 'other'))
      .map((split) => split!.base),
  );

  const isPluralForm = (key: string): boolean => {
    const split = splitPlural(key);
    return split !== null && pluralBases.has(split.base);
  };

  const plainKeys = [...english.keys()].filter((key) => !isPluralForm(key));

  /** The placeholders of a plural base: every one used in any of English's forms. */
  function pluralPlaceholders(base: string): string[] {
    const all = [...english.entries()]
      .filter(([key]) => splitPlural(key)?.base === base)
      .flatMap(([, text]) => placeholders(text));
    return [...new Set(all)].sort();
  }

  describe('en.json', () => {
    it('has keys, and every value is a non-empty string', () => {
      expect(english.size).toBeGreaterThan(0);
      for (const [key, text] of english) {
        expect(typeof text === 'string' && text.trim() !== '', `en: ${key} must be a non-empty string`).toBe(
          true,
        );
      }
    });
  });

  describe.each(LOCALES)('locale %s', (locale) => {
    it('has a file', () => {
      expect(existsSync(fileUrl(locale)), `${locale}.json is missing`).toBe(true);
    });

    it('has every English key as a non-empty string', () => {
      const translation = flatten(readLocale(locale));
      const missing = plainKeys.filter((key) => !translation.has(key));
      expect(missing, `${locale}.json lacks keys`).toEqual([]);
      const empty = plainKeys.filter((key) => {
        const text = translation.get(key);
        return translation.has(key) && (typeof text !== 'string' || text.trim() === '');
      });
      expect(empty, `${locale}.json has empty or non-string values`).toEqual([]);
    });

    it('has no keys beyond English and its own plural forms', () => {
      const translation = flatten(readLocale(locale));
      const categories = pluralCategoriesOf(locale);
      const allowed = new Set(plainKeys);
      for (const base of pluralBases) for (const category of categories) allowed.add(`${base}_${category}`);
      const extra = [...translation.keys()].filter((key) => !allowed.has(key));
      expect(extra, `${locale}.json has keys that en.json does not`).toEqual([]);
    });

    it('has exactly the plural categories of its Intl.PluralRules', () => {
      const translation = flatten(readLocale(locale));
      const expected = pluralCategoriesOf(locale);
      for (const base of pluralBases) {
        const present = [...translation.keys()]
          .map(splitPlural)
          .filter((split) => split?.base === base)
          .map((split) => split!.category)
          .sort();
        expect(present, `${locale}.json plural forms of ${base}`).toEqual(expected);
        for (const category of present) {
          const text = translation.get(`${base}_${category}`);
          expect(
            typeof text === 'string' && text.trim() !== '',
            `${locale}: ${base}_${category} is empty`,
          ).toBe(true);
        }
      }
    });

    it('keeps every {{placeholder}} of the English text, and adds none', () => {
      const translation = flatten(readLocale(locale));
      const problems: string[] = [];
      const compare = (key: string, expected: string[]) => {
        if (!translation.has(key)) return; // reported by the key checks
        const actual = placeholders(translation.get(key));
        const lost = expected.filter((name) => !actual.includes(name));
        const added = actual.filter((name) => !expected.includes(name));
        if (lost.length > 0) problems.push(`${key} lacks {{${lost.join('}}, {{')}}}`);
        if (added.length > 0) problems.push(`${key} has unknown {{${added.join('}}, {{')}}}`);
      };
      for (const key of plainKeys) compare(key, placeholders(english.get(key)));
      for (const base of pluralBases) {
        const expected = pluralPlaceholders(base);
        for (const category of PLURAL_CATEGORIES) compare(`${base}_${category}`, expected);
      }
      expect(problems, `${locale}.json placeholders`).toEqual([]);
    });
  });
});
