import type { EventCurrentStatus } from './vocabulary.ts';

/** The fields of a live event record (spec §3) the derived video object is made from. */
export interface VideoSourceRecord {
  id: string;
  event: {
    eventName: string;
    currentStatus: EventCurrentStatus;
    campaignId: string;
    storeInfo: { id: string };
    cdn: string | null;
    cdnLiveVideoId: string | null;
    cdnVideoId: string | null;
    cdnMp4VideoUrl: string | null;
    liveStartTime: number | null;
    liveEndTime: number | null;
    liveVideoFormat: { width: number; height: number; picture: string | null } | null;
    liveVideoCover: string | null;
    coverPhotoPath: string | null;
    videoHasOverlay: boolean;
  };
  video: { cdn: string | null; currentStatus: EventCurrentStatus };
}

/** The derived video object of spec §3: what the player needs to know about an event's video. */
export interface DerivedVideo {
  liveVideoId: string | null;
  videoId: string | null;
  videoStarted: boolean;
  videoEnded: boolean;
  dimension: { width: number; height: number } | null;
  picture: string | null;
  currentStatus: EventCurrentStatus;
  cdn: string | null;
  mp4VideoUrl: string | null;
  videoHasOverlay: boolean;
  campaignUid: string;
  pageUid: string;
  eventUid: string;
  eventName: string;
  /** The image shown before playback: the video's own picture, else the live cover, else the event cover. */
  poster: string | null;
}

export function deriveVideo(record: VideoSourceRecord): DerivedVideo {
  const { event } = record;
  const format = event.liveVideoFormat;
  return {
    liveVideoId: event.cdnLiveVideoId,
    videoId: event.cdnVideoId,
    videoStarted: event.liveStartTime !== null,
    videoEnded: event.liveEndTime !== null,
    dimension: format ? { width: format.width, height: format.height } : null,
    picture: format?.picture ?? null,
    currentStatus: record.video.currentStatus,
    cdn: record.video.cdn ?? event.cdn,
    mp4VideoUrl: event.cdnMp4VideoUrl,
    videoHasOverlay: event.videoHasOverlay,
    campaignUid: event.campaignId,
    pageUid: event.storeInfo.id,
    eventUid: record.id,
    eventName: event.eventName,
    poster: format?.picture ?? event.liveVideoCover ?? event.coverPhotoPath,
  };
}

/**
 * The event a campaign link opens when it names none: the live one, else the next planned one,
 * else the most recent recording.
 */
export function pickCampaignEvent<
  T extends { event: { currentStatus: EventCurrentStatus; eventStartTimestamp: number } },
>(events: readonly T[]): T | undefined {
  const of = (status: EventCurrentStatus) =>
    events
      .filter((record) => record.event.currentStatus === status)
      .sort((a, b) => a.event.eventStartTimestamp - b.event.eventStartTimestamp);
  return of('live')[0] ?? of('planned')[0] ?? of('vod').at(-1);
}
