import { webPath } from '@vitrine/protocol';

/**
 * A page of the web app that search engines and chat apps may see (spec §2 routes): a store's
 * shop page, or one show of a campaign (the campaign's most relevant one when the address names
 * none). Every other page (checkout, studio, widget-only pages) is no public page.
 */
export type PublicPageAddress =
  | { kind: 'shop'; pageUid: string }
  | { kind: 'show'; pageUid: string; campaignUid: string; eventUid: string | null }
  | { kind: 'clip'; pageUid: string; clipUid: string };

/** Widget paths whose second segment is a page of its own, not a campaign. */
const WIDGET_PAGES = new Set(['tiktok', 'multi-event', 'clips']);

/**
 * The public page a path shows, or null. `/` is the default store's shop page; the widget's
 * checkout variants (`…/{checkoutUid}`) are a shopper's own and never public.
 */
export function publicPageAddress(pathname: string, defaultPageUid: string): PublicPageAddress | null {
  const segments: string[] = [];
  for (const raw of pathname.split('/')) {
    if (raw === '') continue;
    try {
      segments.push(decodeURIComponent(raw));
    } catch {
      return null;
    }
  }
  if (segments.length === 0) return { kind: 'shop', pageUid: defaultPageUid };
  const [first, pageUid, third, fourth, fifth, sixth] = segments;
  if (first !== 'widget' || !pageUid || WIDGET_PAGES.has(pageUid)) return null;
  if (segments.length === 2) return { kind: 'shop', pageUid };
  if (segments.length === 3 && third && !WIDGET_PAGES.has(third))
    return { kind: 'show', pageUid, campaignUid: third, eventUid: null };
  if (segments.length === 4 && third === 'clips' && fourth) return { kind: 'clip', pageUid, clipUid: fourth };
  if (segments.length === 6 && third === 'campaign' && fourth && fifth === 'event' && sixth)
    return { kind: 'show', pageUid, campaignUid: fourth, eventUid: sixth };
  return null;
}

/** The canonical path of a store's shop page: `/` for the default store, else its widget page. */
export function shopPath(pageUid: string, defaultPageUid: string): string {
  return pageUid === defaultPageUid ? '/' : webPath('shop', { pageUid });
}

/**
 * The canonical path of a show: the event's own address, which stays the same when the campaign
 * link (`/widget/{pageUid}/{campaignUid}`) moves on to the campaign's next show.
 */
export function showPath(pageUid: string, campaignUid: string, eventUid: string): string {
  return webPath('show', { pageUid, campaignUid, eventUid });
}

/** The canonical path of a clip's page. */
export function clipPath(pageUid: string, clipUid: string): string {
  return webPath('clip', { pageUid, clipUid });
}
