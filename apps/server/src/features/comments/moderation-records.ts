import type { BlockedWordAction } from '@vitrine/domain';
import type { ChatBan, ModeratedComment, ModerationLogEntry, ShowChatState } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import type { CommentRow } from './comment-records.ts';

/** A comments row with its moderation columns (migration 0022). */
export interface ModeratedCommentRow extends CommentRow {
  moderation_state: ModeratedComment['state'];
  moderation_version: number;
  moderated_by_uid: string | null;
  moderated_by_name: string | null;
  moderated_at: number | string | null;
  original_text: string | null;
  question_state: ModeratedComment['question'];
  answered_by_name: string | null;
  answered_how: ModeratedComment['answeredHow'];
  /** Selected with the row where the query joins chat_bans. */
  author_banned?: boolean;
}

export function toModeratedComment(row: ModeratedCommentRow): ModeratedComment {
  return {
    uid: row.uid,
    text: row.text,
    originalText: row.original_text,
    time: Number(row.time),
    threadId: row.thread_id,
    source: row.source,
    user: { uid: row.user_uid, name: row.user_name },
    state: row.moderation_state,
    version: row.moderation_version,
    moderatedBy: row.moderated_by_name,
    moderatedAt: row.moderated_at === null ? null : Number(row.moderated_at),
    question: row.question_state,
    answeredBy: row.answered_by_name,
    answeredHow: row.answered_how,
    authorBanned: row.author_banned === true,
  };
}

/** `author_banned` for a `SELECT c.*, ... FROM comments c`. */
export const AUTHOR_BANNED_SQL =
  'EXISTS (SELECT 1 FROM chat_bans b WHERE b.page_uid = c.page_uid AND b.user_uid = c.user_uid) AS author_banned';

/** What viewers' chats show: visible comments of authors who are not banned (alias `c`). */
export const SHOWN_TO_VIEWERS_SQL = `c.moderation_state = 'visible'
  AND NOT EXISTS (SELECT 1 FROM chat_bans b WHERE b.page_uid = c.page_uid AND b.user_uid = c.user_uid)`;

export interface ChatBanRow {
  user_uid: string;
  user_name: string;
  reason: string | null;
  banned_by_name: string;
  banned_at: number | string;
}

export const toChatBan = (row: ChatBanRow): ChatBan => ({
  userUid: row.user_uid,
  userName: row.user_name,
  reason: row.reason,
  bannedBy: row.banned_by_name,
  bannedAt: Number(row.banned_at),
});

export interface ModerationLogRow {
  id: string | number;
  at: number | string;
  actor_name: string;
  action: string;
  comment_uid: string | null;
  target_user_name: string | null;
  detail: string | null;
}

export const toLogEntry = (row: ModerationLogRow): ModerationLogEntry => ({
  id: String(row.id),
  at: Number(row.at),
  actor: row.actor_name,
  action: row.action,
  commentUid: row.comment_uid,
  targetUser: row.target_user_name,
  detail: row.detail,
});

/** The ban of a viewer in a store, or null. */
export async function findChatBan(
  q: Queryable,
  pageUid: string,
  userUid: string,
): Promise<ChatBanRow | null> {
  const [row] = await q.query<ChatBanRow>('SELECT * FROM chat_bans WHERE page_uid = $1 AND user_uid = $2', [
    pageUid,
    userUid,
  ]);
  return row ?? null;
}

/** A store's blocked words (folded), what a comment with one gets, and whether bans cover addresses. */
export async function chatModerationSettings(
  q: Queryable,
  pageUid: string,
): Promise<{ blockedWords: string[]; blockedWordAction: BlockedWordAction; banByAddress: boolean }> {
  const [row] = await q.query<{
    blocked_words: string[];
    blocked_word_action: BlockedWordAction;
    ban_by_address: boolean;
  }>(
    'SELECT blocked_words, blocked_word_action, ban_by_address FROM chat_moderation_settings WHERE page_uid = $1',
    [pageUid],
  );
  return {
    blockedWords: row?.blocked_words ?? [],
    blockedWordAction: row?.blocked_word_action ?? 'hold',
    banByAddress: row?.ban_by_address ?? false,
  };
}

export interface ShowChatRow {
  slow_mode_seconds: number;
  announcement: string | null;
  announcement_at: number | string | null;
  announcement_by_name: string | null;
}

/** A show's slow mode and pinned announcement (off and none when never set). */
export async function showChatState(
  q: Queryable,
  pageUid: string,
  campaignUid: string,
): Promise<ShowChatState & { announcementBy: string | null }> {
  const [row] = await q.query<ShowChatRow>(
    'SELECT * FROM show_chat_state WHERE page_uid = $1 AND campaign_uid = $2',
    [pageUid, campaignUid],
  );
  return {
    slowModeSeconds: row?.slow_mode_seconds ?? 0,
    announcement:
      row?.announcement && row.announcement_at !== null
        ? { text: row.announcement, pinnedAt: Number(row.announcement_at) }
        : null,
    announcementBy: row?.announcement_by_name ?? null,
  };
}

/** Topics of the moderation live queries (comments' own are in comment-records.ts). */
export const moderationTopics = {
  showChat: (pageUid: string, campaignUid: string) => `showChat:${pageUid}:${campaignUid}`,
  chatStanding: (pageUid: string, userUid: string) => `chatStanding:${pageUid}:${userUid}`,
};
