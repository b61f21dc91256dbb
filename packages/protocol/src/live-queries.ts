import { LOOKUP_BATCH_LIMIT } from '@vitrine/domain';
import { z } from 'zod';
import type { ControlRoomLiveDoc } from './calls/studio/control-room-calls.ts';
import { Uid } from './common.ts';
import type { EventProduct } from './events.ts';
import type {
  BulkCommentsDoc,
  CampaignPresentationDoc,
  ChatStandingDoc,
  CheckoutReservationDoc,
  CommentDoc,
  NotificationDoc,
  OnsiteEventUpdateDoc,
  PurchaseDoc,
  ReactionDoc,
  ShowChatDoc,
  UserDoc,
} from './live-documents.ts';
import type { ShopEvent } from './reads.ts';
import type { ViewerCountDoc } from './realtime-presence.ts';
import type { PlayerSettings } from './store.ts';

/** At most 10 ids per lookup (spec §9); larger sets are split into several subscriptions. */
const IdBatch = z.array(Uid).min(1).max(LOOKUP_BATCH_LIMIT, `at most ${LOOKUP_BATCH_LIMIT} ids per lookup`);
const PageCampaign = z.object({ pageUid: Uid, campaignUid: Uid }).strict();
const OwnPageCampaign = z
  .object({ pageUid: Uid, campaignUid: Uid, userUid: z.string().min(1).max(128) })
  .strict();

/**
 * The catalogue of live queries (spec §7 "Realtime reads and subscriptions"): each name with the
 * schema of its params. The server adds access rules, snapshot SQL and topics; the documents each
 * delivers are typed in `LiveQueryDocuments`.
 */
export const LiveQueryParams = {
  playerSettings: z.object({ pageUid: Uid }).strict(),
  /** The events the shop page lists: planned, live and vod (spec §4). */
  'liveEvents.shop': z.object({ pageUid: Uid }).strict(),
  'liveEvents.byId': z.object({ ids: IdBatch }).strict(),
  'liveEvents.byCampaign': z.object({ campaignIds: IdBatch }).strict(),
  liveEventProducts: z.object({ eventId: Uid }).strict(),
  campaignPresentations: PageCampaign,
  /** Updates of events of these stores from now on, newest first, at most 50. */
  onsiteEventUpdates: z.object({ storeIds: IdBatch }).strict(),
  /** The reservation of one user: readable only by that user. */
  checkout: OwnPageCampaign,
  /** Purchases from now on. */
  purchases: PageCampaign,
  /** Public comments of the last 120 minutes (at most 100, newest first), then new ones. */
  comments: PageCampaign,
  bulkComments: PageCampaign,
  /** A show's slow mode and pinned announcement (one document), then changes to them. */
  showChat: PageCampaign,
  /** Whether a viewer is banned from a store's chat: readable only by that user. */
  chatStanding: z.object({ pageUid: Uid, userUid: z.string().min(1).max(128) }).strict(),
  /** Reactions from now on. */
  reactions: PageCampaign,
  /** A user's own comments and the private replies to them: readable only by that user. */
  userComments: OwnPageCampaign,
  /** A user's notifications for one campaign: readable only by that user. */
  notifications: z.object({ userUid: z.string().min(1).max(128), campaignUid: Uid }).strict(),
  /** The user document: readable only by that user. */
  user: z.object({ userUid: z.string().min(1).max(128) }).strict(),
  /** How many watch the show now, across nodes, and its peak; updated at most once a second. */
  viewerCount: z.object({ eventId: Uid }).strict(),
  /**
   * A show's control room (staff only: moderators, or hosts and owners `withRevenue`): its
   * numbers and the moderation board's fingerprint, one document pushed when they change.
   */
  controlRoom: z.object({ pageUid: Uid, showUid: Uid, withRevenue: z.boolean() }).strict(),
} as const;

export type LiveQueryName = keyof typeof LiveQueryParams;
export type LiveQueryParamsOf<N extends LiveQueryName> = z.infer<(typeof LiveQueryParams)[N]>;

export interface LiveQueryDocuments {
  playerSettings: PlayerSettings;
  'liveEvents.shop': ShopEvent;
  'liveEvents.byId': ShopEvent;
  'liveEvents.byCampaign': ShopEvent;
  liveEventProducts: EventProduct;
  campaignPresentations: CampaignPresentationDoc;
  onsiteEventUpdates: OnsiteEventUpdateDoc;
  checkout: CheckoutReservationDoc;
  purchases: PurchaseDoc;
  comments: CommentDoc;
  bulkComments: BulkCommentsDoc;
  showChat: ShowChatDoc;
  chatStanding: ChatStandingDoc;
  reactions: ReactionDoc;
  userComments: CommentDoc;
  notifications: NotificationDoc;
  user: UserDoc;
  viewerCount: ViewerCountDoc;
  controlRoom: ControlRoomLiveDoc;
}

export const LIVE_QUERY_NAMES = Object.keys(LiveQueryParams) as LiveQueryName[];
