import { DELAYED_CDN_PROVIDER } from './constants.ts';
import type { EventCurrentStatus } from './vocabulary.ts';

export type StreamType = 'live' | 'on-demand';

/** The fields of a live event record (spec §3) that decide the stream type. */
export interface StreamTypeRecord {
  event: { currentStatus: EventCurrentStatus };
  video: { cdn: string | null; currentStatus: EventCurrentStatus };
}

/**
 * The status the stream type follows (spec §4 "Stream type"): the event's current status for the
 * delayed provider (DELAYED_CDN_PROVIDER, matched on the video's cdn), the video's own status for
 * every other provider.
 */
export function streamStatus(record: StreamTypeRecord): EventCurrentStatus {
  return record.video.cdn === DELAYED_CDN_PROVIDER ? record.event.currentStatus : record.video.currentStatus;
}

/**
 * Live when the status of `streamStatus` is live, else on-demand (spec §4 "Stream type"). Pass
 * the previously computed stream type as `previous`: a stream that was live stays live when the
 * status moves on to vod ("the stream type is kept and not reset"); this applies to every provider.
 */
export function streamType(record: StreamTypeRecord, previous?: StreamType | null): StreamType {
  const status = streamStatus(record);
  if (status === 'live') return 'live';
  if (status === 'vod' && previous === 'live') return 'live';
  return 'on-demand';
}

/** Event status sent to tracking: live when the live player is used, else the event's current status (spec §4 "Stream type"). */
export function trackingEventStatus(
  record: { event: { currentStatus: EventCurrentStatus } },
  usingLivePlayer: boolean,
): EventCurrentStatus {
  return usingLivePlayer ? 'live' : record.event.currentStatus;
}
