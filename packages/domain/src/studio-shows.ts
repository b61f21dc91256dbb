import type { EventCurrentStatus } from './vocabulary.ts';

/** The tabs of the studio's list of shows. */
export const SHOW_GROUPS = ['upcoming', 'live', 'past', 'draft'] as const;
export type ShowGroup = (typeof SHOW_GROUPS)[number];

/**
 * Where a show is listed in the studio: a draft under drafts whatever its clock says (nobody
 * outside the studio sees it); a published one by its video's status.
 */
export function showGroup(
  status: 'draft' | 'private' | 'public',
  currentStatus: EventCurrentStatus,
): ShowGroup {
  if (status === 'draft') return 'draft';
  if (currentStatus === 'live') return 'live';
  return currentStatus === 'vod' ? 'past' : 'upcoming';
}

/**
 * Whether a published show may go back to being a draft: only before it has been live, since
 * viewers have then watched it and shoppers may have bought from it.
 */
export function canUnpublishShow(currentStatus: EventCurrentStatus): boolean {
  return currentStatus === 'planned';
}

/** A show's place on the storefront: the player of one event of one campaign (spec §2). */
export function showStorefrontPath(show: { pageUid: string; campaignUid: string; eventId: string }): string {
  const segment = encodeURIComponent;
  return `/widget/${segment(show.pageUid)}/campaign/${segment(show.campaignUid)}/event/${segment(show.eventId)}`;
}

/** Where the server answers a published show's public calendar file (RFC 5545, see calendar-file.ts). */
export const SHOW_CALENDAR_PATH = '/calendar/:eventId/show.ics';

/** The calendar file's path of one show. */
export function showCalendarPath(eventId: string): string {
  return SHOW_CALENDAR_PATH.replace(':eventId', encodeURIComponent(eventId));
}

/**
 * The HTML a retailer pastes into their shop to embed the show's player inline (docs/embedding.md):
 * the SDK from this server and one init call. Values are JSON-encoded, so no id can break out of
 * the script.
 */
export function showEmbedSnippet(
  origin: string,
  show: { pageUid: string; campaignUid: string; eventId: string },
): string {
  const options = JSON.stringify({
    pageUid: show.pageUid,
    campaignUid: show.campaignUid,
    eventUid: show.eventId,
    mode: 'inline',
    container: '#vitrine-show',
  })
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e');
  return [
    `<script src="${origin}/sdk.js"></script>`,
    '<div id="vitrine-show"></div>',
    `<script>Vitrine.init(${options});</script>`,
  ].join('\n');
}
