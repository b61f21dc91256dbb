import { useState } from 'react';

/**
 * Paging through a list by keyset cursor (orders, contacts, mails, the audit log): the cursors of
 * the pages walked so far are kept as a stack, so "previous" returns to exactly the page seen
 * before. Hand `previous` and `next(…)` to the `Pager`.
 */
/**
 * The rows a page shows, numbered from 1: `first`…`last`, or null when it shows none, so an
 * empty list says "No entries" rather than "Entries 1–0" (issue 33 item 13).
 */
export function pageRange(first: number, shown: number): { first: number; last: number } | null {
  return shown > 0 ? { first, last: first + shown - 1 } : null;
}

export function useCursorPages(pageSize: number) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const first = (cursors.length - 1) * pageSize + 1;
  return {
    /** The cursor the page shown starts from; undefined on the first page. */
    cursor: cursors.at(-1),
    /** Rows `first`…`last` (numbered from 1) of a page showing `shown` rows; null for none. */
    range: (shown: number) => pageRange(first, shown),
    /** Back to the first page (the filters changed). */
    restart: () => setCursors([undefined]),
    previous: cursors.length > 1 ? () => setCursors((previous) => previous.slice(0, -1)) : null,
    /** Goes on from the list's answer's next cursor; null when there is none (the last page). */
    next: (cursor: string | null | undefined) =>
      cursor ? () => setCursors((previous) => [...previous, cursor]) : null,
  };
}

export type CursorPages = ReturnType<typeof useCursorPages>;
