import {
  PRIVATE_MESSAGE_FRESHNESS_MS,
  REACTION_THROTTLE_MS,
  VOD_COMMENT_LEAD_WINDOW_MS,
  WINNER_NOTIFICATION_EXTRA_DELAY_MS,
} from './constants.ts';
import type { EventCurrentStatus } from './vocabulary.ts';

/** The page settings that switch posting on or off before and during a live show. */
export interface CommentSettings {
  allowCommentsOnPrelive?: boolean | undefined;
  allowCommentsOnLive?: boolean | undefined;
}

/**
 * Whether viewers may post (spec §4 "Comments"): planned and live shows follow the page settings,
 * allowed unless switched off; a recording never takes comments.
 */
export function commentsAllowed(status: EventCurrentStatus, settings: CommentSettings): boolean {
  switch (status) {
    case 'planned':
      return settings.allowCommentsOnPrelive ?? true;
    case 'live':
      return settings.allowCommentsOnLive ?? true;
    default:
      return false;
  }
}

/** The point in the chat a viewer saw last: the newest comment (or reply) when they hid it. */
export interface LastSeenComment {
  uid: string;
  time: number;
}

/** A chat entry for unseen counting: its own time and the times of its replies. */
export interface CountableComment {
  uid: string;
  time: number;
  replies?: readonly { time: number }[] | undefined;
}

/**
 * How many comments and replies arrived after the last seen one (spec §4: "unseen counts
 * (including replies)"). Without a last seen comment, everything is unseen. The last seen entry
 * itself never counts, even when another shares its millisecond.
 */
export function unseenCommentCount(
  comments: readonly CountableComment[],
  lastSeen: LastSeenComment | null,
): number {
  const after = (time: number, uid: string | null) =>
    lastSeen === null ||
    time > lastSeen.time ||
    (time === lastSeen.time && uid !== null && uid > lastSeen.uid);
  let count = 0;
  for (const comment of comments) {
    if (after(comment.time, comment.uid)) count += 1;
    for (const reply of comment.replies ?? []) if (after(reply.time, null)) count += 1;
  }
  return count;
}

/** The newest entry of a chat, replies included: what "last seen" becomes when it is hidden. */
export function newestComment(comments: readonly CountableComment[]): LastSeenComment | null {
  let newest: LastSeenComment | null = null;
  for (const comment of comments) {
    if (!newest || comment.time > newest.time || (comment.time === newest.time && comment.uid > newest.uid)) {
      newest = { uid: comment.uid, time: comment.time };
    }
    for (const reply of comment.replies ?? []) {
      if (!newest || reply.time > newest.time) newest = { uid: comment.uid, time: reply.time };
    }
  }
  return newest;
}

/**
 * Whether a bulk comment of a recording shows yet (spec §4): its offset from the live start must
 * be before the video's current time, and no earlier than 10 minutes before the live start.
 */
export function bulkCommentVisible(commentTime: number, liveStartTime: number, videoTimeMs: number): boolean {
  const offset = commentTime - liveStartTime;
  return offset <= videoTimeMs && offset >= -VOD_COMMENT_LEAD_WINDOW_MS;
}

/** A private-message notification is shown only while it is newer than 30 seconds (spec §6). */
export function isPrivateMessageFresh(created: number, now: number): boolean {
  return now - created < PRIVATE_MESSAGE_FRESHNESS_MS;
}

/**
 * When a competition-winner notification may be shown (spec §4): after the video delay plus 5
 * seconds, so the viewer sees the draw in the video before being told the result.
 */
export function winnerNotificationShowAt(created: number, videoDelayMs: number): number {
  return created + Math.max(0, videoDelayMs) + WINNER_NOTIFICATION_EXTRA_DELAY_MS;
}

/**
 * The longest a waiting winner notice goes without reading the viewer's delay again. A live
 * player catching up with the live edge (playing a little faster) shrinks the delay while the
 * notice waits: one timer set from the delay at arrival showed it late by the whole shrink (666 ms
 * after a catch-up from 2.4 to 1.0 s), never early.
 */
export const WINNER_NOTICE_RECHECK_MS = 250;
/** A winner notice due within this long shows now rather than after another timer. */
const WINNER_NOTICE_DUE_SLACK_MS = 15;

/**
 * How long to wait before the next look at a winner notice due at `showAt` (winnerNotificationShowAt
 * with the delay now), or null when it shows now.
 */
export function winnerNoticeWaitMs(showAt: number, now: number): number | null {
  const due = showAt - now;
  if (due <= WINNER_NOTICE_DUE_SLACK_MS) return null;
  return Math.min(due, WINNER_NOTICE_RECHECK_MS);
}

/**
 * Reactions a viewer may send at most once per 2 seconds (spec §7, §9): whether one sent now is
 * allowed after the last one went out at `lastSentAt` (null: none yet).
 */
export function reactionAllowed(lastSentAt: number | null, now: number): boolean {
  return lastSentAt === null || now - lastSentAt >= REACTION_THROTTLE_MS;
}
