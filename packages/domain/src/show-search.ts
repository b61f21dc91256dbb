/** The longest search text a shopper may send: a product name or a few words, never a document. */
export const SEARCH_TEXT_MAX_LENGTH = 100;
/** Words of a search that count; more would only make the database's work grow. */
export const SEARCH_MAX_TERMS = 8;
/** Products a search answers per page. */
export const SEARCH_PAGE_SIZE = 20;
/** Matching products looked at in all (the pages a search can reach): a bound on one query's work. */
export const SEARCH_MAX_MATCHES = 200;

/**
 * The words of a shopper's search, lower-cased, each only letters and digits (anything else
 * separates words), at most SEARCH_MAX_TERMS, duplicates dropped. Every word is then safe to
 * write into a PostgreSQL `to_tsquery` as a prefix (`word:*`): no operator can come from the text.
 */
export function searchTerms(text: string): string[] {
  const words = text
    .normalize('NFC')
    .toLocaleLowerCase('und')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  return [...new Set(words)].slice(0, SEARCH_MAX_TERMS);
}

/** The `to_tsquery` text of search words: every word as a prefix, all of them required. */
export function prefixQuery(terms: readonly string[]): string {
  return terms.map((term) => `${term}:*`).join(' & ');
}

/**
 * A start time from a link's `t` parameter: whole or decimal seconds (`95`, `95.5`), or
 * `1m35s` / `1h2m3s` like common video sites. Null for anything else, so a bad link plays from
 * the start instead of failing.
 */
export function parseStartTime(value: string | null): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d{1,6}(\.\d{1,3})?$/.test(text)) return Number(text);
  const match = /^(?:(\d{1,3})h)?(?:(\d{1,4})m)?(?:(\d{1,6})s)?$/.exec(text);
  if (!match || text === '') return null;
  const [, hours = '0', minutes = '0', seconds = '0'] = match;
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
}

/** A start time as its link parameter: whole seconds (players seek to keyframes anyway). */
export function startTimeParam(seconds: number): string {
  return String(Math.max(0, Math.floor(seconds)));
}
