import {
  ANNOUNCEMENT_MAX_LENGTH,
  BLOCKED_WORD_MAX_LENGTH,
  BLOCKED_WORDS_MAX,
  SLOW_MODE_MAX_SECONDS,
} from '@vitrine/domain';
import { z } from 'zod';
import { COMMENT_MAX_LENGTH } from '../../comments.ts';
import { Timestamp, Uid } from '../../common.ts';
import { PutBulkCommentsRequest } from '../../interaction.ts';
import { BulkCommentsDoc, CommentDoc, ShowChatState } from '../../live-documents.ts';
import { call } from '../define-call.ts';

/**
 * Live chat moderation (issue 16 §3). Errors beside the usual 400/401/403/404:
 * - 409 `moderation_conflict` — the comment changed since the caller loaded it (another staff
 *   member hid, answered or approved it): the message names the current state and who set it.
 * - 422 `cannot_ban` — banning oneself or a member of the store's staff.
 * - 429 `rate_limited` with `retryAfterMs` — a staff member's flood of moderation actions
 *   (viewers' calls are counted apart and never slowed by it).
 */

/** visible; hidden (can come back); deleted (for good); held (blocked word, awaiting review); rejected. */
export const ModerationState = z.enum(['visible', 'hidden', 'deleted', 'held', 'rejected']);
export type ModerationState = z.infer<typeof ModerationState>;

/** none; open (asks something: a "?" or flagged by a moderator); answered. */
export const QuestionState = z.enum(['none', 'open', 'answered']);
export type QuestionState = z.infer<typeof QuestionState>;

export const BlockedWordActionSchema = z.enum(['hold', 'mask']);

/** A comment as moderators see it: whatever its state, with who moderated it and its version. */
export const ModeratedComment = z.object({
  uid: z.string(),
  text: z.string(),
  /** The text as written, when blocked words were masked; null otherwise. */
  originalText: z.string().nullable(),
  time: Timestamp,
  threadId: z.string().nullable(),
  source: z.string(),
  user: z.object({ uid: z.string(), name: z.string() }),
  state: ModerationState,
  /** Stated back by an action on the comment; a stale one is refused with 409. */
  version: z.number().int().nonnegative(),
  /** The name of the staff member who last moderated it, and when. */
  moderatedBy: z.string().nullable(),
  moderatedAt: Timestamp.nullable(),
  question: QuestionState,
  answeredBy: z.string().nullable(),
  answeredHow: z.enum(['public', 'private', 'marked']).nullable(),
  /** The author is banned from the store's chat (their comments are out of the viewers' chat). */
  authorBanned: z.boolean(),
});
export type ModeratedComment = z.infer<typeof ModeratedComment>;

export const ChatBan = z.object({
  userUid: z.string(),
  userName: z.string(),
  reason: z.string().nullable(),
  bannedBy: z.string(),
  bannedAt: Timestamp,
});
export type ChatBan = z.infer<typeof ChatBan>;

export const ModerationLogEntry = z.object({
  id: z.string(),
  at: Timestamp,
  actor: z.string(),
  /** hide, unhide, delete, approve, reject, flagQuestion, markAnswered, answerPublic, answerPrivate, ban, unban, slowMode, announce, blockedWords. */
  action: z.string(),
  commentUid: z.string().nullable(),
  targetUser: z.string().nullable(),
  detail: z.string().nullable(),
});
export type ModerationLogEntry = z.infer<typeof ModerationLogEntry>;

export const ChatModerationSettings = z.object({
  blockedWords: z.array(z.string()),
  blockedWordAction: BlockedWordActionSchema,
  /**
   * Whether a ban also covers the addresses the viewer used (for a day), beside their account and
   * device. Off by default: many viewers can share one address (a venue, a mobile network).
   */
  banByAddress: z.boolean(),
});
export type ChatModerationSettings = z.infer<typeof ChatModerationSettings>;

/** Everything the moderation panel shows for one show, as of now. */
export const ModerationBoard = z.object({
  campaignUid: Uid,
  /** The chat, newest first, hidden and deleted ones included (not held ones). */
  comments: z.array(ModeratedComment),
  held: z.array(ModeratedComment),
  /** Open and answered questions, open first, then newest first. */
  questions: z.array(ModeratedComment),
  bans: z.array(ChatBan),
  log: z.array(ModerationLogEntry),
  settings: ChatModerationSettings,
  chat: ShowChatState.extend({ announcementBy: z.string().nullable() }),
});
export type ModerationBoard = z.infer<typeof ModerationBoard>;

export const ModerateCommentRequest = z
  .object({
    action: z.enum(['hide', 'unhide', 'delete', 'approve', 'reject', 'flagQuestion', 'markAnswered']),
    /** The comment's `version` as the caller saw it. */
    version: z.number().int().nonnegative(),
  })
  .strict();
export type ModerateCommentRequest = z.infer<typeof ModerateCommentRequest>;

export const AnswerQuestionRequest = z
  .object({
    text: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(COMMENT_MAX_LENGTH, `must be at most ${COMMENT_MAX_LENGTH} characters`),
    /** True: only the asker reads it (a private host reply); false: the whole chat. */
    private: z.boolean(),
    version: z.number().int().nonnegative(),
  })
  .strict();
export type AnswerQuestionRequest = z.infer<typeof AnswerQuestionRequest>;

export const BanViewerRequest = z
  .object({
    userUid: z.string().min(1).max(128),
    reason: z.string().trim().max(200).optional(),
  })
  .strict();
export type BanViewerRequest = z.infer<typeof BanViewerRequest>;

export const SlowModeRequest = z
  .object({ seconds: z.number().int().min(0).max(SLOW_MODE_MAX_SECONDS, `at most ${SLOW_MODE_MAX_SECONDS}`) })
  .strict();

export const AnnouncementRequest = z
  .object({
    /** null (or empty) unpins. Shown to viewers as plain text. */
    text: z
      .string()
      .trim()
      .max(ANNOUNCEMENT_MAX_LENGTH, `must be at most ${ANNOUNCEMENT_MAX_LENGTH} characters`)
      .nullable(),
  })
  .strict();

export const ChatModerationSettingsRequest = z
  .object({
    blockedWords: z
      .array(
        z
          .string()
          .trim()
          .min(1)
          .max(BLOCKED_WORD_MAX_LENGTH, `at most ${BLOCKED_WORD_MAX_LENGTH} characters`),
      )
      .max(BLOCKED_WORDS_MAX, `at most ${BLOCKED_WORDS_MAX} words`),
    blockedWordAction: BlockedWordActionSchema,
    /** Left out: the store's current choice is kept. */
    banByAddress: z.boolean().optional(),
  })
  .strict();

/** Marks a comment verified (shown with the store's badge) or not. */
export const VerifyShowCommentRequest = z.object({ verified: z.boolean() }).strict();
export type VerifyShowCommentRequest = z.infer<typeof VerifyShowCommentRequest>;

const StorePath = z.object({ pageUid: Uid });
const ShowPath = z.object({ pageUid: Uid, showUid: Uid });
const CommentPath = z.object({ pageUid: Uid, showUid: Uid, commentUid: z.string().min(1).max(128) });

const SHOW = '/staff/stores/:pageUid/shows/:showUid';
const COMMENT = `${SHOW}/moderation/comments/:commentUid`;

/** The studio's chat moderation calls: moderators keep the chat clean. */
export const moderationCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  listChatBans: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/chat-bans',
    auth: { staff: 'moderator' },
    summary: "The viewers banned from the store's chat, newest first.",
    params: StorePath,
    response: z.object({ bans: z.array(ChatBan) }),
  }),
  banViewer: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/chat-bans',
    auth: { staff: 'moderator' },
    summary:
      "Bans a viewer from the store's chat: their comments leave every viewer's chat and they cannot post. 422 for oneself or the store's staff.",
    params: StorePath,
    request: BanViewerRequest,
    response: ChatBan,
    status: 201,
  }),
  unbanViewer: call({
    method: 'DELETE',
    path: '/staff/stores/:pageUid/chat-bans/:userUid',
    auth: { staff: 'moderator' },
    summary: 'Lifts a ban: the viewer may post again and their visible comments come back.',
    params: z.object({ pageUid: Uid, userUid: z.string().min(1).max(128) }),
    response: null,
    status: 204,
  }),
  setChatModerationSettings: call({
    method: 'PUT',
    path: '/staff/stores/:pageUid/chat-moderation',
    auth: { staff: 'moderator' },
    summary:
      "The store's blocked words (whole words, any case or accents) and whether a comment with one is held for review or masked.",
    params: StorePath,
    request: ChatModerationSettingsRequest,
    response: ChatModerationSettings,
  }),
  putShowBulkComments: call({
    method: 'PUT',
    path: `${SHOW}/bulk-comments`,
    auth: { staff: 'host' },
    summary:
      "Replaces a show's questions from other channels (the BulkCommentsDoc viewers of its replay read); hosts and owners.",
    params: ShowPath,
    request: PutBulkCommentsRequest,
    response: BulkCommentsDoc,
  }),
  listShowComments: call({
    method: 'GET',
    path: `${SHOW}/comments`,
    auth: { staff: 'moderator' },
    summary:
      "A show's comments as viewers' documents, newest first, private ones included (private questions to the host, host replies, poll votes).",
    params: ShowPath,
    query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(200) }).strict(),
    response: z.object({ comments: z.array(CommentDoc) }),
  }),
  getModerationBoard: call({
    method: 'GET',
    path: `${SHOW}/moderation`,
    auth: { staff: 'moderator' },
    summary:
      "A show's chat as moderators see it: comments in every state, held ones, the questions queue, bans, the moderation log, slow mode and the pinned announcement.",
    params: ShowPath,
    response: ModerationBoard,
  }),
  pinAnnouncement: call({
    method: 'PUT',
    path: `${SHOW}/moderation/announcement`,
    auth: { staff: 'moderator' },
    summary: "Pins an announcement above the show's chat for every viewer (plain text); null unpins it.",
    params: ShowPath,
    request: AnnouncementRequest,
    response: ShowChatState,
  }),
  moderateComment: call({
    method: 'POST',
    path: COMMENT,
    auth: { staff: 'moderator' },
    summary:
      'Hides, unhides, deletes, approves or rejects (held ones), flags as a question or marks answered one comment; viewers see it within a second. 409 when `version` is stale.',
    params: CommentPath,
    request: ModerateCommentRequest,
    response: ModeratedComment,
  }),
  answerQuestion: call({
    method: 'POST',
    path: `${COMMENT}/answer`,
    auth: { staff: 'moderator' },
    summary:
      'Answers a comment as the store: publicly in the chat or privately to its author; marks the question answered. 409 when `version` is stale or the comment is not visible.',
    params: CommentPath,
    request: AnswerQuestionRequest,
    response: ModeratedComment,
  }),
  verifyShowComment: call({
    method: 'PUT',
    path: `${COMMENT}/verified`,
    auth: { staff: 'moderator' },
    summary:
      "Marks a comment of the show verified (shown with the store's badge) or not; viewers see it live.",
    params: CommentPath,
    request: VerifyShowCommentRequest,
    response: CommentDoc,
  }),
  setSlowMode: call({
    method: 'PUT',
    path: `${SHOW}/moderation/slow-mode`,
    auth: { staff: 'moderator' },
    summary: 'Sets slow mode for a show: each viewer may comment once per N seconds (0 turns it off).',
    params: ShowPath,
    request: SlowModeRequest,
    response: ShowChatState,
  }),
};
