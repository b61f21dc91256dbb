import { adminCall } from './test-server.ts';

/** The demo show's video file, served by the test server: a show's stream without an encoder. */
export const DEMO_SHOW_VIDEO = '/demo-media/demo-show.mp4';

/** A day from now: an order deadline no test reaches. */
export const dayAhead = (): number => Date.now() + 86_400_000;

/** A show planned to start now, that the test takes live (an encoder, or its host in the room). */
export const plannedNow = () => ({ currentStatus: 'planned', eventStartTimestamp: Date.now() });

/** A show that went live at `startedAt` (now by default), as the admin API records it. */
export const liveSince = (startedAt = Date.now()) => ({
  currentStatus: 'live',
  eventStartTimestamp: startedAt,
  liveStartTime: startedAt,
});

/** A show live for a minute already, its stream the demo show's video (no encoder needed). */
export const liveOnDemoVideo = () => ({ ...liveSince(Date.now() - 60_000), cdnMp4VideoUrl: DEMO_SHOW_VIDEO });

/** A show (an event) as the admin API takes it: its uid (the campaign's by default) and its fields. */
export type AdminShow = { uid?: string; eventName?: string } & Record<string, unknown>;

/** Puts a show of campaign `campaignUid` in store `pageUid` with the admin key. */
export async function putShow(
  pageUid: string,
  campaignUid: string,
  { uid = campaignUid, ...fields }: AdminShow,
): Promise<void> {
  await adminCall('PUT', `/admin/events/${uid}`, { pageUid, campaignId: campaignUid, ...fields });
}

/**
 * Puts a campaign of store `pageUid` and one show in it with the admin key, as automation sets up
 * a store's show; the show bears the campaign's name unless it names itself (`eventName`).
 */
export async function putCampaignShow(
  pageUid: string,
  { uid, ...campaign }: { uid: string; name: string; deadline?: number | null },
  show: AdminShow,
): Promise<void> {
  await adminCall('PUT', `/admin/pages/${pageUid}/campaigns/${uid}`, campaign);
  await putShow(pageUid, uid, { eventName: campaign.name, ...show });
}

/**
 * A public show live since `startedAt` on the demo show's video from the app's own CDN, without
 * delays: a second of its video is a second since it went live, for tests that count watch time.
 */
export const undelayedLiveDemo = (startedAt: number) => ({
  status: 'public',
  ...liveSince(startedAt),
  cdn: 'vitrine',
  cdnVideoStartTime: startedAt,
  cdnMp4VideoUrl: DEMO_SHOW_VIDEO,
  broadcastDelayMs: 0,
  cdnDelayMs: 0,
});

/** A recorded show (a replay) of the demo show's video, which was live from `startedAt`. */
export const replayOfDemoVideo = (startedAt: number) => ({
  ...liveSince(startedAt),
  currentStatus: 'vod',
  cdnMp4VideoUrl: DEMO_SHOW_VIDEO,
});
