import { runtimeConfig } from '../../lib/runtime-config.ts';

/**
 * Query parameter of `/terms` naming the store whose terms are shown (spec §2 "terms", §3 Store
 * info): the route itself is fixed, and every store links to it, so the store travels with the link.
 */
export const TERMS_STORE_PARAM = 'store';

/** The link to a store's terms; the default store's keep the bare `/terms`. */
export function termsPath(pageUid: string): string {
  if (pageUid === runtimeConfig.defaultPageUid) return '/terms';
  return `/terms?${new URLSearchParams({ [TERMS_STORE_PARAM]: pageUid })}`;
}

/** The store a `/terms` address asks for: its `store` parameter, else the default store. */
export function termsStoreOf(url: URL): string {
  return url.searchParams.get(TERMS_STORE_PARAM)?.trim() || runtimeConfig.defaultPageUid;
}

/** Where "back to the store" leads from its terms: the store's front page. */
export function storeFrontPath(pageUid: string): string {
  return pageUid === runtimeConfig.defaultPageUid ? '/' : `/widget/${encodeURIComponent(pageUid)}`;
}
