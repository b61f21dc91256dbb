import { z } from 'zod';
import { Timestamp, Uid } from '../../common.ts';
import { EventCurrentStatus } from '../../events.ts';
import { CompetitionNoticeRequest, DrawWinnersRequest, DrawWinnersResponse } from '../../interaction.ts';
import { LiveStreamState } from '../../live-stream.ts';
import { call } from '../define-call.ts';
import { CurrencyAmount } from './analytics-calls.ts';
import { ShowLineupItem } from './show-calls.ts';

/** One presentation of a product by the control room (a control-center cue on the stream clock). */
export const ProductPresentation = z.object({
  /** The event product's uid (a line-up item's `uid`). */
  uid: Uid,
  start: Timestamp,
  /** Null while the product is presented. */
  end: Timestamp.nullable(),
});
export type ProductPresentation = z.infer<typeof ProductPresentation>;

/** What is presented now and everything presented before (the replay's product chapters). */
export const ControlRoomPresentations = z.object({
  /** Presented now, oldest first (at most MAX_PRESENTED_PRODUCTS of the domain). */
  presented: z.array(ProductPresentation),
  /** Every presentation of the show, oldest first. */
  history: z.array(ProductPresentation),
});
export type ControlRoomPresentations = z.infer<typeof ControlRoomPresentations>;

/** A line-up item as the control room shows it: with whether it is sold out. */
export const ControlRoomLineupItem = ShowLineupItem.extend({
  /** No unit left (a stock-managed product whose stock, or every variant's, is 0). */
  soldOut: z.boolean(),
});
export type ControlRoomLineupItem = z.infer<typeof ControlRoomLineupItem>;

/** The control room of one show: what it presents, and what the caller's role may do there. */
export const ControlRoom = ControlRoomPresentations.extend({
  showUid: Uid,
  campaignUid: Uid,
  name: z.string(),
  lineup: z.array(ControlRoomLineupItem),
  stream: z.object({
    state: LiveStreamState,
    /** What viewers see, for the room's preview (plays before Go live too). */
    previewUrl: z.string(),
  }),
  /** What the caller's role may do: hosts present products and run the stream; moderators neither. */
  can: z.object({ present: z.boolean(), runStream: z.boolean(), seeRevenue: z.boolean() }),
});
export type ControlRoom = z.infer<typeof ControlRoom>;

/** A presented product's figures since it was first presented in the show. */
export const PresentedProductStats = ProductPresentation.extend({
  addsToCart: z.number().int().nonnegative(),
  orders: z.number().int().nonnegative(),
});

/** A competition's live figures. */
export const ControlRoomCompetitionStats = z.object({
  uid: z.string(),
  participantCount: z.number().int().nonnegative(),
  openForParticipation: z.boolean(),
  winnerCount: z.number().int().nonnegative(),
});

/**
 * The room's live numbers (pushed by the `controlRoom` live query, or read once): the show's state, the audience (concurrent
 * viewers across server nodes, and the peak), the chat's pace, the shop's figures (revenue only
 * for roles that see revenue: null otherwise, never sent), the presented products and the
 * viewers' median delay as their players report it.
 */
export const ControlRoomStats = z.object({
  /** Server time of the figures: the room's timer counts from liveStartTime on this clock. */
  at: Timestamp,
  currentStatus: EventCurrentStatus,
  streamState: LiveStreamState,
  liveStartTime: Timestamp.nullable(),
  liveEndTime: Timestamp.nullable(),
  viewers: z.number().int().nonnegative(),
  peakViewers: z.number().int().nonnegative(),
  /** In the last minute, as viewers' players report them (the source of show analytics). */
  commentsPerMinute: z.number().int().nonnegative(),
  reactionsPerMinute: z.number().int().nonnegative(),
  /** In the whole show. */
  addsToCart: z.number().int().nonnegative(),
  orders: z.number().int().nonnegative(),
  revenue: z.array(CurrencyAmount).nullable(),
  presented: z.array(PresentedProductStats),
  /** The median of the latest delay each playing viewer reported (ms behind the stream clock); null without reports. */
  medianDelayMs: z.number().nonnegative().nullable(),
  delayReports: z.number().int().nonnegative(),
  competitions: z.array(ControlRoomCompetitionStats),
  /** The line-up's event product uids in order: another person's change shows as a new key. */
  lineupKey: z.string(),
  /** The line-up's products that are sold out (event product uids). */
  soldOut: z.array(Uid),
});
export type ControlRoomStats = z.infer<typeof ControlRoomStats>;

/**
 * The `controlRoom` live query's one document (issue 33 §10): the room's numbers, pushed when
 * they change, and a fingerprint of the moderation board, so the page reads the board again only
 * when something on it changed.
 */
export const ControlRoomLiveDoc = ControlRoomStats.extend({ boardKey: z.string() });
export type ControlRoomLiveDoc = z.infer<typeof ControlRoomLiveDoc>;

export const PresentProductRequest = z.object({ uid: Uid }).strict();

const ShowPath = z.object({ pageUid: Uid, showUid: Uid });
const ProductPath = ShowPath.extend({ productUid: Uid });
const CompetitionPath = ShowPath.extend({ competitionUid: z.string().min(1).max(128) });

const ROOM = '/staff/stores/:pageUid/shows/:showUid/control-room';

/**
 * The control room's calls: hosts and moderators work a live show together. Moderators see the
 * room and run competitions; presenting products and the line-up are the host's (as the show's
 * stream is: goLive and endLive in live-calls.ts).
 */
export const controlRoomCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  getControlRoom: call({
    method: 'GET',
    path: ROOM,
    auth: { staff: 'moderator' },
    summary:
      "A show's control room: its line-up (sold out or not), what is presented now and before, the stream's state and preview, and what the caller may do.",
    params: ShowPath,
    response: ControlRoom,
  }),
  announceShowCompetition: call({
    method: 'POST',
    path: `${ROOM}/competitions/:competitionUid/announce`,
    auth: { staff: 'moderator' },
    summary: "Sends a competition's notice (e.g. its result) to every entrant.",
    params: CompetitionPath,
    request: CompetitionNoticeRequest,
    response: z.object({ notified: z.number().int().nonnegative() }),
  }),
  drawShowCompetitionWinners: call({
    method: 'POST',
    path: `${ROOM}/competitions/:competitionUid/draw`,
    auth: { staff: 'moderator' },
    summary:
      "Draws winners uniformly at random among a competition's entrants who have not won, leaving out viewers banned from the store and following the store's integrity setting; 409 with nobody to draw.",
    params: CompetitionPath,
    request: DrawWinnersRequest,
    bodyOptional: true,
    response: DrawWinnersResponse,
  }),
  markProductSoldOut: call({
    method: 'POST',
    path: `${ROOM}/lineup/:productUid/sold-out`,
    auth: { staff: 'host' },
    summary:
      "Marks a show's product sold out: no unit of it (or its variants) is left to buy; viewers see it at once.",
    params: ProductPath,
    response: ControlRoom,
  }),
  presentProduct: call({
    method: 'POST',
    path: `${ROOM}/presented`,
    auth: { staff: 'host' },
    summary:
      'Presents a product of the show: a control-center cue stamped now on the stream clock; at most 3 at once (409), 422 for a product not in the show.',
    params: ShowPath,
    request: PresentProductRequest,
    response: ControlRoomPresentations,
  }),
  stopPresenting: call({
    method: 'DELETE',
    path: `${ROOM}/presented/:productUid`,
    auth: { staff: 'host' },
    summary: 'Stops presenting a product: its open presentation ends now (the replay chapter ends there).',
    params: ProductPath,
    response: ControlRoomPresentations,
  }),
  getControlRoomStats: call({
    method: 'GET',
    path: `${ROOM}/stats`,
    auth: { staff: 'moderator' },
    summary:
      "The room's live numbers, read once (the room listens to the `controlRoom` live query, which pushes them when they change; this is its fallback after a network drop): viewers and peak, comments and reactions per minute, adds, orders, revenue (hosts and owners; never moderators), presented products, the viewers' median delay, competitions' entries.",
    params: ShowPath,
    response: ControlRoomStats,
  }),
};
