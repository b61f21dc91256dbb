import type { App } from '../app.ts';

/**
 * Gives `showUid` the replay address a show's recording leaves, as the live service does when a
 * show that went live a minute before `endedAt` ends; the recording's files are the caller's.
 */
export function setRecordedReplay(app: Pick<App, 'services'>, showUid: string, endedAt: number) {
  return app.services.events.setStreamVideo(showUid, {
    currentStatus: 'vod',
    liveStartTime: endedAt - 60_000,
    liveEndTime: endedAt,
    videoUrl: `/live/${showUid}/replay.m3u8`,
    videoStartTime: endedAt - 60_000,
  });
}
