import { randomBytes } from 'node:crypto';
import { commentsAllowed } from '@vitrine/domain';
import {
  type BulkCommentsDoc,
  COMMENT_RATE_LIMIT,
  COMMENT_RATE_WINDOW_MS,
  type CommentDoc,
  type CommentReply,
  type EditCommentRequest,
  type HostReplyRequest,
  NOTIFICATION_SUB_TYPE,
  NOTIFICATION_TYPE,
  type PlayerCommentRequest,
  type PutBulkCommentsRequest,
  type VerifyCommentRequest,
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

export const COMMENTS_CLOSED_VOD = 'Comments are closed: this is a recorded show.';
export const COMMENTS_TURNED_OFF = 'Comments are turned off for this show.';
export const commentRateMessage = (seconds: number) =>
  `You are commenting too fast. Please wait ${seconds} second${seconds === 1 ? '' : 's'} before commenting again.`;

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
}

export interface CommentServiceOptions {
  db: OutboxDatabase;
  now: () => number;
  notifications: NotificationService;
  /** The campaigns comments belong to and the status of their show. */
  events: Pick<EventService, 'campaignExists' | 'campaignShowStatus'>;
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
    const doc = toCommentDoc(row);
    const change = [{ type, docId: doc.uid, doc }];
    if (doc.public) tx.publish(commentTopics.publicComments(doc.pageUid, doc.campaignUid), change);
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
                               is_public, recipient_uid, verified, meta_data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
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
        ],
      );
      if (!row) throw new Error('inserting a comment returned no row');
      const doc = announce(tx, row, 'added');
      if (comment.threadId && comment.isPublic) {
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
  async function hostUser(pageUid: string, hostName: string | undefined): Promise<string> {
    const uid = `host-${pageUid}`;
    const storeName = await stores.pageName(pageUid);
    if (storeName !== null) await users.saveHostUser(uid, hostName ?? storeName);
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
      return insert({
        userUid,
        pageUid: input.pageUid,
        campaignUid: input.campaignUid,
        text: input.text,
        threadId: input.threadId,
        source: 'player',
        isPublic: audience === 'public' && privatePartner === null,
        recipientUid: privatePartner,
        verified: false,
        metaData,
      });
    },

    /** Host console: the campaign's comments, private ones included, newest first. */
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
      await enforceCommentLimits(userUid, address);
      return db.transaction(async (tx) => {
        const [row] = await tx.query<CommentRow>(
          'UPDATE comments SET text = $2, edited_at = $3 WHERE uid = $1 RETURNING *',
          [input.commentUid, input.text, now()],
        );
        const [parent] = existing.thread_id
          ? await tx.query<CommentRow>(
              `UPDATE comments SET replies = (
                 SELECT COALESCE(jsonb_agg(CASE WHEN r->>'uid' = $2 THEN jsonb_set(r, '{text}', to_jsonb($3::text)) ELSE r END), '[]')
                 FROM jsonb_array_elements(replies) r)
               WHERE uid = $1 AND replies @> $4::jsonb RETURNING *`,
              [existing.thread_id, input.commentUid, input.text, JSON.stringify([{ uid: input.commentUid }])],
            )
          : [];
        const doc = announce(tx, row as CommentRow, 'modified');
        if (parent) announce(tx, parent, 'modified');
        return doc;
      });
    },

    /** Host console: a verified reply as the page; a private one reaches only the comment's author, with a notification. */
    async hostReply(input: HostReplyRequest): Promise<CommentDoc> {
      const parent = await findComment(input.pageUid, input.campaignUid, input.commentUid);
      if (!parent) throw notFound(`No comment "${input.commentUid}" in campaign "${input.campaignUid}".`);
      const hostUid = await hostUser(input.pageUid, input.hostName);
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

    setVerified(input: VerifyCommentRequest): Promise<CommentDoc> {
      return db.transaction(async (tx) => {
        const [row] = await tx.query<CommentRow>(
          'UPDATE comments SET verified = $4 WHERE uid = $1 AND page_uid = $2 AND campaign_uid = $3 RETURNING *',
          [input.commentUid, input.pageUid, input.campaignUid, input.verified],
        );
        if (!row) throw notFound(`No comment "${input.commentUid}" in campaign "${input.campaignUid}".`);
        return announce(tx, row, 'modified');
      });
    },

    /** Host console: replaces the campaign's bulk comments (questions from other channels, replayed on VOD). */
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
