import type { EventCurrentStatus } from './vocabulary.ts';

/** What a viewer is told about a show (spec §4 "Event status and display", §8 "Video expired"). */
export type ShowState = 'live' | 'planned' | 'recorded' | 'ended' | 'expired';

/** The fields of a live event record (spec §3) that decide the show state. */
export interface ShowStateRecord {
  event: { currentStatus: EventCurrentStatus };
  campaign: { deadline: number | null };
}

/**
 * Whether the campaign deadline is past (spec §4 "Once the campaign deadline is past, the show is
 * expired"): strictly after the deadline; a campaign without a deadline never expires.
 */
export function isShowExpired(record: { campaign: { deadline: number | null } }, now: number): boolean {
  return record.campaign.deadline !== null && now > record.campaign.deadline;
}

/**
 * The show state (spec §4 "Event status and display"): live and planned follow the event's
 * current status; a vod is expired once the campaign deadline is past (products can no longer be
 * bought, prices hidden), else ended when the video has played to its end (offers rewatch), else
 * recorded ("still shoppable"). Expired wins over ended. The deadline only applies to vod.
 */
export function showState(record: ShowStateRecord, now: number, videoEnded: boolean): ShowState {
  switch (record.event.currentStatus) {
    case 'live':
      return 'live';
    case 'planned':
      return 'planned';
    default:
      if (isShowExpired(record, now)) return 'expired';
      return videoEnded ? 'ended' : 'recorded';
  }
}

/** Products can be bought in every state but expired (spec §4, §8 "Video expired, products can no longer be purchased"). */
export function canPurchase(state: ShowState): boolean {
  return state !== 'expired';
}

/** Prices are hidden for an expired show (spec §4 "This hides prices") or when the page's hidePrices setting is on. */
export function pricesHidden(state: ShowState, hidePrices: boolean): boolean {
  return hidePrices || state === 'expired';
}
