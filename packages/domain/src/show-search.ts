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
 * A start time from a link's `t` parameter: whole or decimal seconds (`95`, `95.5`). Null for
 * anything else, so a bad link plays from the start instead of failing. (Seconds only: this runs
 * in the player's first load, where every byte counts.)
 */
export function parseStartTime(value: string | null): number | null {
  return value && /^\d{1,6}(\.\d+)?$/.test(value) ? Number(value) : null;
}

/** A start time as its link parameter: whole seconds (players seek to keyframes anyway). */
export function startTimeParam(seconds: number): string {
  return String(Math.max(0, Math.floor(seconds)));
}
