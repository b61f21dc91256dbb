import type { LiveEvent } from '@vitrine/protocol';

/**
 * The event a campaign link opens when it names none: the live one, else the next planned one,
 * else the most recent recording.
 */
export function pickCampaignEvent(events: readonly LiveEvent[]): LiveEvent | undefined {
  const byStart = (a: LiveEvent, b: LiveEvent) => a.event.eventStartTimestamp - b.event.eventStartTimestamp;
  const of = (status: LiveEvent['event']['currentStatus']) =>
    events.filter((event) => event.event.currentStatus === status).sort(byStart);
  return of('live')[0] ?? of('planned')[0] ?? of('vod').at(-1);
}
