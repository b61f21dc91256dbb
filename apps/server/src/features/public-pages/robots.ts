/**
 * Paths crawlers leave alone: the studio (staff), checkout and order pages (a shopper's own), and
 * the pages that only work inside a retailer's frame or for one shopper (contact capture, the
 * multi-event widget, a show's checkout variant, sign-in). The API paths answer POSTs and reads
 * the app makes; the shows' own pages and the app's assets stay open, so a crawler that runs the
 * app sees what a shopper sees. `*` and `$` are the wildcards of RFC 9309's common extension.
 */
export const DISALLOWED_PATHS = [
  '/studio',
  '/options/',
  '/select-checkout-location/',
  '/*/create$',
  '/*/*/confirm$',
  '/*/*/success$',
  '/*/*/*/error$',
  '/tiktok$',
  '/*/tiktok$',
  '/widget/multi-event',
  '/widget/*/multi-event',
  '/widget/*/campaign/*/event/*/checkout/',
  // The SDK's "Seen live" player (`?product=`): a clip's own page is its canonical address.
  '/widget/*/clips?',
  '/login',
  '/auth',
  '/admin/',
  '/staff/',
  '/payments/',
] as const;

/** robots.txt: every crawler, the paths above disallowed, and where the sitemap is. */
export function renderRobots(origin: string): string {
  return [
    'User-agent: *',
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
