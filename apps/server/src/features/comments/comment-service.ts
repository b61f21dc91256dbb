import { randomBytes } from 'node:crypto';
import {
  commentsAllowed,
  findBlockedWords,
  isQuestion,
  maskBlockedWords,
  productsMentioned,
  slowModeWaitMs,
} from '@vitrine/domain';
import {
  type BulkCommentsDoc,
  COMMENT_RATE_LIMIT,
  COMMENT_RATE_WINDOW_MS,
  type CommentDoc,
  type CommentReply,
  type EditCommentRequest,
  NOTIFICATION_SUB_TYPE,
  NOTIFICATION_TYPE,
  type PlayerCommentRequest,
  type PutBulkCommentsRequest,
} from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { type AbuseLimiter, COMMENTS_PER_ADDRESS_FACTOR } from '../../http/abuse-limits.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import type { OutboxDatabase, Transaction } from '../../realtime/outbox.ts';
import type { EventService } from '../events/event-service.ts';
import type { NotificationService } from '../notifications/notification-service.ts';
import type { StoreService } from '../stores/store-service.ts';
import type { UserService } from '../users/user-service.ts';
import { type CommentRow, commentTopics, toCommentDoc } from './comment-records.ts';
import {
  chatModerationSettings,
  findChatBan,
  type ModeratedCommentRow,
  showChatState,
} from './moderation-records.ts';

export const COMMENTS_CLOSED_VOD = 'Comments are closed: this is a recorded show.';
export const COMMENTS_TURNED_OFF = 'Comments are turned off for this show.';
export const commentRateMessage = (seconds: number) =>
  `You are commenting too fast. Please wait ${seconds} second${seconds === 1 ? '' : 's'} before commenting again.`;
export const BANNED_FROM_CHAT = "You can't comment: the store's moderators have banned you from its chat.";
export const slowModeMessage = (slowModeSeconds: number, waitSeconds: number) =>
  `Slow mode is on: one comment every ${slowModeSeconds} seconds. Please wait ${waitSeconds} second${waitSeconds === 1 ? '' : 's'}.`;

/** A reply as the store to `commentUid`; `private` makes it readable only by the comment's author. */
export interface HostReply {
  pageUid: string;
  campaignUid: string;
  commentUid: string;
  text: string;
  private: boolean;
}

/** Comments a viewer may post and what they carry beyond the request. */
interface NewComment {
  userUid: string;
  pageUid: string;
  campaignUid: string;
  text: string;
  threadId: string | null;
  source: string;
  isPublic: boolean;
  recipientUid: string | null;
  verified: boolean;
  metaData: CommentDoc['metaData'];
  /** visible, or held when a blocked word holds it for review. */
  moderationState?: 'visible' | 'held';
  /** The text as written when blocked words were masked in `text`. */
  originalText?: string | null;
  /** open when it asks something (spec: a question mark). */
  questionState?: 'none' | 'open';
  /** Whether the text names a product the show sells; absent when it was not checked. */
  checkoutMatch?: boolean;
}

export interface CommentServiceOptions {
  db: OutboxDatabase;
  now: () => number;
  notifications: NotificationService;
  /** The campaigns comments belong to and the status of their show. */
  events: Pick<EventService, 'campaignExists' | 'campaignShowStatus' | 'campaignProductCodes'>;
  /** The stores' comment settings and names. */
  stores: Pick<StoreService, 'playerSettings' | 'pageName'>;
  /** Authors' names, and the host user replies are posted as. */
  users: Pick<UserService, 'displayName' | 'saveHostUser'>;
  /** Per-user comment limit; null switches it off (benchmarks with one writer). */
  rateLimit?: { max: number; windowMs: number } | null;
  /** The per-address comment limit (COMMENTS_PER_ADDRESS_FACTOR × the per-user one), when on. */
  limits?: AbuseLimiter;
}

const newUid = () => randomBytes(12).toString('base64url');
const toReply = (doc: CommentDoc): CommentReply => ({
  uid: doc.uid,
  text: doc.text,
  time: doc.time,
  user: doc.user,
  public: doc.public,
  verified: doc.verified,
});

/**
 * The show chat (spec §4 "Comments"): public comments and replies, edits, the verified flag,
 * private host replies readable only by their recipient, VOD bulk comments. Text is stored and
 * sent as plain text; clients render it as text, never as HTML.
 */
export function createCommentService({
  db,
  now,
  notifications,
  events,
  stores,
  users,
  rateLimit = { max: COMMENT_RATE_LIMIT, windowMs: COMMENT_RATE_WINDOW_MS },
  limits,
}: CommentServiceOptions) {
  /** Announces a comment to everyone allowed to read it: public → the chat; always the author and recipient. */
  function announce(tx: Transaction, row: CommentRow, type: 'added' | 'modified'): CommentDoc {
    const state = (row as Partial<ModeratedCommentRow>).moderation_state ?? 'visible';
    const doc = state === 'held' ? { ...toCommentDoc(row), held: true } : toCommentDoc(row);
    const change = [{ type, docId: doc.uid, doc }];
    // Hidden, deleted and rejected comments reach nobody; a held one only its author.
    if (state !== 'visible' && state !== 'held') return doc;
    if (doc.public && state === 'visible')
      tx.publish(commentTopics.publicComments(doc.pageUid, doc.campaignUid), change);
    tx.publish(commentTopics.userComments(doc.pageUid, doc.campaignUid, row.user_uid), change);
    if (row.recipient_uid && row.recipient_uid !== row.user_uid) {
      tx.publish(commentTopics.userComments(doc.pageUid, doc.campaignUid, row.recipient_uid), change);
    }
    return doc;
  }

  /** Refuses a comment when the campaign's show does not take comments (spec §4 "Comments"). */
  async function requireCommentsOpen(pageUid: string, campaignUid: string): Promise<void> {
    const status = await events.campaignShowStatus(pageUid, campaignUid);
    if (status === null) throw notFound(`No campaign "${campaignUid}" in store "${pageUid}".`);
    if (!commentsAllowed(status, await stores.playerSettings(pageUid))) {
      throw new HttpError(
        403,
        'comments_closed',
        status === 'vod' ? COMMENTS_CLOSED_VOD : COMMENTS_TURNED_OFF,
      );
    }
  }

  async function findComment(pageUid: string, campaignUid: string, uid: string, tx: Queryable = db) {
    const [row] = await tx.query<CommentRow>(
      'SELECT * FROM comments WHERE uid = $1 AND page_uid = $2 AND campaign_uid = $3',
      [uid, pageUid, campaignUid],
    );
    return row ?? null;
  }

  /**
   * Stores a comment. When `threadId` names a public comment of the campaign, the new comment is
   * a reply: a public reply is also summarised in the parent's `replies`, for snapshots. Viewers
   * get the reply as its own change only and add it under its parent themselves: announcing the
   * parent again would send its whole thread once per reply (800 replies made 130–200 MB a viewer).
   */
  function insert(comment: NewComment): Promise<CommentDoc> {
    return db.transaction(async (tx) => {
      const authorName = await users.displayName(comment.userUid, tx);
      if (authorName === null) throw notFound('Your account no longer exists; sign in again.');
      const [row] = await tx.query<CommentRow>(
        `INSERT INTO comments (uid, page_uid, campaign_uid, user_uid, user_name, text, time, thread_id, source,
                               is_public, recipient_uid, verified, meta_data, moderation_state, original_text,
                               question_state, after_checking_checkout, has_checkout_match)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
         RETURNING *`,
        [
          newUid(),
          comment.pageUid,
          comment.campaignUid,
          comment.userUid,
          authorName,
          comment.text,
          now(),
          comment.threadId,
          comment.source,
          comment.isPublic,
          comment.recipientUid,
          comment.verified,
          JSON.stringify(comment.metaData),
          comment.moderationState ?? 'visible',
          comment.originalText ?? null,
          comment.questionState ?? 'none',
          comment.checkoutMatch !== undefined,
          comment.checkoutMatch ?? false,
        ],
      );
      if (!row) throw new Error('inserting a comment returned no row');
      const doc = announce(tx, row, 'added');
      if (comment.threadId && comment.isPublic && (comment.moderationState ?? 'visible') === 'visible') {
        await tx.query(
          `UPDATE comments SET replies = replies || $4::jsonb
           WHERE uid = $1 AND page_uid = $2 AND campaign_uid = $3 AND is_public`,
          [comment.threadId, comment.pageUid, comment.campaignUid, JSON.stringify([toReply(doc)])],
        );
      }
      return doc;
    });
  }

  /** The page's own user, author of host replies (a row so comments keep their user reference). */
  async function hostUser(pageUid: string): Promise<string> {
    const uid = `host-${pageUid}`;
    const storeName = await stores.pageName(pageUid);
    if (storeName !== null) await users.saveHostUser(uid, storeName);
    return uid;
  }

  /**
   * Counts a comment or edit against its user's limit, then its client address's: cheap
   * anonymous accounts would otherwise each get the per-user limit. The address limit is a
   * large multiple (shared carrier-NAT addresses); a user refused does not use it up.
   */
  async function enforceCommentLimits(userUid: string, address: string | undefined): Promise<void> {
    if (!rateLimit) return;
    await enforceRateLimit(db, `comment:${userUid}`, rateLimit, now(), commentRateMessage);
    if (address !== undefined && limits) {
      await limits.enforceAddress('comment', address, {
        max: rateLimit.max * COMMENTS_PER_ADDRESS_FACTOR,
        windowMs: rateLimit.windowMs,
      });
    }
  }

  /**
   * The moderation a viewer's chat comment goes through (issue 16 §3): a banned viewer is refused
   * (403 `banned`), slow mode makes them wait (429 `slow_mode`), and the store's blocked words
   * hold the comment for review or are masked. Answers what to store.
   */
  async function moderateNewComment(
    userUid: string,
    pageUid: string,
    campaignUid: string,
    text: string,
  ): Promise<{ text: string; originalText: string | null; moderationState: 'visible' | 'held' }> {
    if (await findChatBan(db, pageUid, userUid)) throw new HttpError(403, 'banned', BANNED_FROM_CHAT);
    const { slowModeSeconds } = await showChatState(db, pageUid, campaignUid);
    if (slowModeSeconds > 0) {
      const [last] = await db.query<{ time: string | null }>(
        `SELECT max(time) AS time FROM comments
         WHERE user_uid = $1 AND page_uid = $2 AND campaign_uid = $3 AND source = 'player'`,
        [userUid, pageUid, campaignUid],
      );
      const waitMs = slowModeWaitMs(last?.time == null ? null : Number(last.time), now(), slowModeSeconds);
      if (waitMs > 0) {
        throw new HttpError(429, 'slow_mode', slowModeMessage(slowModeSeconds, Math.ceil(waitMs / 1000)), {
          retryAfterMs: waitMs,
          slowModeSeconds,
        });
      }
    }
    return applyBlockedWords(pageUid, text);
  }

  async function applyBlockedWords(pageUid: string, text: string) {
    const { blockedWords, blockedWordAction } = await chatModerationSettings(db, pageUid);
    if (findBlockedWords(text, blockedWords).length === 0)
      return { text, originalText: null, moderationState: 'visible' as const };
    return blockedWordAction === 'mask'
      ? {
          text: maskBlockedWords(text, blockedWords),
          originalText: text,
          moderationState: 'visible' as const,
        }
      : { text, originalText: null, moderationState: 'held' as const };
  }

  return {
    async postPlayerComment(
      userUid: string,
      input: PlayerCommentRequest,
      metaData: CommentDoc['metaData'] = {},
      /** The client address; competition entries, limited on their own, pass none. */
      address?: string,
      /**
       * `authorAndHost` keeps the comment out of the public chat: the author sees it among their
       * private comments and the host in the console (a poll vote is a choice, not a chat message).
       */
      audience: 'public' | 'authorAndHost' = 'public',
    ): Promise<CommentDoc> {
      await enforceCommentLimits(userUid, address);
      if (!metaData.competitionUid) await requireCommentsOpen(input.pageUid, input.campaignUid);
      else {
        if (!(await events.campaignExists(input.pageUid, input.campaignUid)))
          throw notFound(`No campaign "${input.campaignUid}" in store "${input.pageUid}".`);
      }
      // Answering a private comment (a host's private reply) stays private between the two.
      const privateThread = input.threadId
        ? await findComment(input.pageUid, input.campaignUid, input.threadId)
        : null;
      const privatePartner =
        privateThread && !privateThread.is_public
          ? privateThread.recipient_uid === userUid
            ? privateThread.user_uid
            : privateThread.user_uid === userUid
              ? privateThread.recipient_uid
              : null
          : null;
      if (privateThread && !privateThread.is_public && !privatePartner) {
        // Someone else's private conversation: answering it must not reveal that it exists.
        throw notFound(`No comment "${input.threadId}".`);
      }
      const isPublic = audience === 'public' && privatePartner === null;
      // Competition entries are choices, not chat: their rules (and the draws) are the competitions'.
      const moderated =
        isPublic && !metaData.competitionUid
          ? await moderateNewComment(userUid, input.pageUid, input.campaignUid, input.text)
          : { text: input.text, originalText: null, moderationState: 'visible' as const };
      // Spec §3 "Comment": a viewer's comment is checked against the show's product codes (the
      // player adds what it names to the cart, spec §4), so the host sees which comments asked
      // for a product. The text as written counts: masking a blocked word does not hide a code.
      const checkoutMatch = metaData.competitionUid
        ? undefined
        : productsMentioned(input.text, await events.campaignProductCodes(input.pageUid, input.campaignUid))
            .length > 0;
      return insert({
        userUid,
        pageUid: input.pageUid,
        campaignUid: input.campaignUid,
        checkoutMatch,
        text: moderated.text,
        originalText: moderated.originalText,
        moderationState: moderated.moderationState,
        // A public question (spec: a question mark), or a shopper's private question to the host,
        // waits in the control room's questions.
        questionState:
          !input.threadId && ((isPublic && isQuestion(input.text)) || input.toHost) ? 'open' : 'none',
        threadId: input.threadId,
        source: 'player',
        isPublic,
        recipientUid: privatePartner,
        verified: false,
        metaData,
      });
    },

    /** The studio's read of a show's comments, private ones included, newest first. */
    async listForHost(pageUid: string, campaignUid: string, limit: number): Promise<CommentDoc[]> {
      const rows = await db.query<CommentRow>(
        `SELECT * FROM comments WHERE page_uid = $1 AND campaign_uid = $2 ORDER BY time DESC, uid DESC LIMIT $3`,
        [pageUid, campaignUid, limit],
      );
      return rows.map(toCommentDoc);
    },

    /** The author changes their text; a reply's summary in its parent follows. */
    async editComment(userUid: string, input: EditCommentRequest, address?: string): Promise<CommentDoc> {
      const existing = await findComment(input.pageUid, input.campaignUid, input.commentUid);
      if (!existing) throw notFound(`No comment "${input.commentUid}".`);
      if (existing.user_uid !== userUid)
        throw new HttpError(403, 'forbidden', 'You can only edit your own comments.');
      const state = (existing as ModeratedCommentRow).moderation_state;
      if (state !== 'visible' && state !== 'held')
        throw new HttpError(
          409,
          'moderation_conflict',
          'A moderator removed this comment; it cannot be edited.',
        );
      if (existing.is_public && (await findChatBan(db, input.pageUid, userUid)))
        throw new HttpError(403, 'banned', BANNED_FROM_CHAT);
      await enforceCommentLimits(userUid, address);
      // An edit goes through the blocked words as a new comment does; a held comment stays held.
      const moderated = existing.is_public
        ? await applyBlockedWords(input.pageUid, input.text)
        : { text: input.text, originalText: null, moderationState: 'visible' as const };
      const nextState = state === 'held' ? 'held' : moderated.moderationState;
      return db.transaction(async (tx) => {
        const [row] = await tx.query<CommentRow>(
          `UPDATE comments SET text = $2, edited_at = $3, original_text = $4, moderation_state = $5
           WHERE uid = $1 RETURNING *`,
          [input.commentUid, moderated.text, now(), moderated.originalText, nextState],
        );
        if (state === 'visible' && nextState === 'held' && existing.is_public) {
          // Now held: it leaves the public chat until a moderator approves it.
          tx.publish(commentTopics.publicComments(existing.page_uid, existing.campaign_uid), [
            { type: 'removed', docId: existing.uid, doc: null },
          ]);
        }
        const [parent] = existing.thread_id
          ? await tx.query<CommentRow>(
              `UPDATE comments SET replies = (
                 SELECT COALESCE(jsonb_agg(CASE WHEN r->>'uid' = $2 THEN jsonb_set(r, '{text}', to_jsonb($3::text)) ELSE r END), '[]')
                 FROM jsonb_array_elements(replies) r)
               WHERE uid = $1 AND replies @> $4::jsonb RETURNING *`,
              [
                existing.thread_id,
                input.commentUid,
                moderated.text,
                JSON.stringify([{ uid: input.commentUid }]),
              ],
            )
          : [];
        const doc = announce(tx, row as CommentRow, 'modified');
        if (parent) announce(tx, parent, 'modified');
        return doc;
      });
    },

    /** A verified reply as the store (the studio's answers); a private one reaches only the comment's author, with a notification. */
    async hostReply(input: HostReply): Promise<CommentDoc> {
      const parent = await findComment(input.pageUid, input.campaignUid, input.commentUid);
      if (!parent) throw notFound(`No comment "${input.commentUid}" in campaign "${input.campaignUid}".`);
      const hostUid = await hostUser(input.pageUid);
      const doc = await insert({
        userUid: hostUid,
        pageUid: input.pageUid,
        campaignUid: input.campaignUid,
        text: input.text,
        threadId: parent.uid,
        source: 'host',
        isPublic: !input.private,
        recipientUid: input.private ? parent.user_uid : null,
        verified: true,
        metaData: {},
      });
      if (input.private) {
        await notifications.create({
          userUid: parent.user_uid,
          pageUid: input.pageUid,
          campaignUid: input.campaignUid,
          notificationType: NOTIFICATION_TYPE.message,
          notificationSubType: NOTIFICATION_SUB_TYPE.hostReply,
          notificationData: { title: doc.user.name, body: doc.text, uid: doc.uid },
          threadId: parent.uid,
          metaData: { commentUid: doc.uid },
        });
      }
      return doc;
    },

    /** Flags a competition entry's comment as the winner's (metaData.isCompetitionWinner), live. */
    async markCompetitionWinner(commentUid: string): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx.query<CommentRow>(
          `UPDATE comments SET meta_data = meta_data || '{"isCompetitionWinner": true}'::jsonb WHERE uid = $1 RETURNING *`,
          [commentUid],
        );
        if (row) announce(tx, row, 'modified');
      });
    },

    /** Marks a comment verified (shown with the store's badge) or not. */
    setVerified(
      pageUid: string,
      campaignUid: string,
      commentUid: string,
      verified: boolean,
    ): Promise<CommentDoc> {
      return db.transaction(async (tx) => {
        const [row] = await tx.query<CommentRow>(
          'UPDATE comments SET verified = $4 WHERE uid = $1 AND page_uid = $2 AND campaign_uid = $3 RETURNING *',
          [commentUid, pageUid, campaignUid, verified],
        );
        if (!row) throw notFound(`No comment "${commentUid}" in campaign "${campaignUid}".`);
        return announce(tx, row, 'modified');
      });
    },

    /** Replaces the campaign's bulk comments (questions from other channels, replayed on VOD). */
    async putBulkComments(
      pageUid: string,
      campaignUid: string,
      input: PutBulkCommentsRequest,
    ): Promise<BulkCommentsDoc> {
      if (!(await events.campaignExists(pageUid, campaignUid)))
        throw notFound(`No campaign "${campaignUid}" in store "${pageUid}".`);
      const questions: BulkCommentsDoc['questions'] = input.questions.map((question) => ({ ...question }));
      return db.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO bulk_comments (page_uid, campaign_uid, questions) VALUES ($1, $2, $3)
           ON CONFLICT (page_uid, campaign_uid) DO UPDATE SET questions = EXCLUDED.questions`,
          [pageUid, campaignUid, JSON.stringify(questions)],
        );
        const doc: BulkCommentsDoc = { pageUid, campaignUid, questions };
        tx.publish(commentTopics.bulkComments(pageUid, campaignUid), [
          { type: 'modified', docId: campaignUid, doc },
        ]);
        return doc;
      });
    },
  };
}

export type CommentService = ReturnType<typeof createCommentService>;
