import { EVENT_WINDOW_GRACE_MS } from './constants.ts';
import type { EventCurrentStatus } from './vocabulary.ts';

/**
 * The status of a campaign's show from the current statuses of its published events: live when
 * any is live, else planned when any is planned or none is set up yet, else vod (a recording).
 * It decides, for example, whether the campaign's chat takes comments.
 */
export function campaignShowStatus(eventStatuses: readonly EventCurrentStatus[]): EventCurrentStatus {
  if (eventStatuses.includes('live')) return 'live';
  if (eventStatuses.includes('planned') || eventStatuses.length === 0) return 'planned';
  return 'vod';
}

/** The fields of a live event record (spec §3) that decide whether the shop page lists it. */
export interface ShopVisibilityFields {
  event: { status: string; currentStatus: EventCurrentStatus; eventStartTimestamp: number };
  campaign: { deadline: number | null };
}

/**
 * Whether the shop page lists an event (spec §4 "Event status and display"): only public
 * events; planned ones starting no earlier than 15 minutes ago; every live one; vod ones whose
 * campaign deadline is no earlier than 15 minutes ago. A vod without a deadline never expires,
 * so it stays listed.
 */
export function isShownOnShopPage(record: ShopVisibilityFields, now: number): boolean {
  if (record.event.status !== 'public') return false;
  const earliest = now - EVENT_WINDOW_GRACE_MS;
  switch (record.event.currentStatus) {
    case 'planned':
      return record.event.eventStartTimestamp >= earliest;
    case 'live':
      return true;
    case 'vod':
      return record.campaign.deadline === null || record.campaign.deadline >= earliest;
    default:
      // Records come from storage; an unknown status is not listed.
      return false;
  }
}

export interface ShopEventGroups<T> {
  live: T[];
  planned: T[];
  vod: T[];
}

/**
 * Splits the listed events into the shop page's three rows: live now, upcoming soonest first,
 * on demand newest first.
 */
export function groupShopEvents<T extends ShopVisibilityFields>(
  records: readonly T[],
  now: number,
): ShopEventGroups<T> {
  const shown = records.filter((record) => isShownOnShopPage(record, now));
  const byStart = (a: T, b: T) => a.event.eventStartTimestamp - b.event.eventStartTimestamp;
  return {
    live: shown.filter((r) => r.event.currentStatus === 'live').sort(byStart),
    planned: shown.filter((r) => r.event.currentStatus === 'planned').sort(byStart),
    vod: shown.filter((r) => r.event.currentStatus === 'vod').sort((a, b) => byStart(b, a)),
  };
}

/**
 * The show whose card leads the shop page: the first live show (the featured row), else the
 * first of the next row (upcoming, then on demand). Its cover is the page's largest paint, so the
 * page loads it first (the card, and the server's preload in the page's head).
 */
export function leadShopEvent<T>(groups: ShopEventGroups<T>): T | null {
  return groups.live[0] ?? groups.planned[0] ?? groups.vod[0] ?? null;
}

/** The picture a show's card on the shop page shows: its cover photo, else its live video's cover or picture. */
export function shopCardCover(event: {
  coverPhotoPath: string | null;
  liveVideoCover: string | null;
  liveVideoFormat?: { picture: string | null } | null | undefined;
}): string | null {
  return event.coverPhotoPath ?? event.liveVideoCover ?? event.liveVideoFormat?.picture ?? null;
}
