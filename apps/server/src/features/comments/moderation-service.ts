import { COMMENT_HISTORY_MS, MODERATION_ACTION_LIMIT, normalizeBlockedWords } from '@vitrine/domain';
import type {
  AnswerQuestionRequest,
  BanViewerRequest,
  ChatBan,
  ChatModerationSettings,
  ModerateCommentRequest,
  ModeratedComment,
  ModerationBoard,
  ShowChatState,
} from '@vitrine/protocol';
import type { StaffCaller } from '../../http/caller.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import type { OutboxDatabase, Transaction } from '../../realtime/outbox.ts';
import type { StaffService } from '../staff/staff-service.ts';
import type { UserService } from '../users/user-service.ts';
import { type CommentRow, commentTopics, toCommentDoc } from './comment-records.ts';
import type { CommentService } from './comment-service.ts';
import {
  AUTHOR_BANNED_SQL,
  type ChatBanRow,
  chatModerationSettings,
  findChatBan,
  type ModeratedCommentRow,
  type ModerationLogRow,
  moderationTopics,
  showChatState,
  toChatBan,
  toLogEntry,
  toModeratedComment,
} from './moderation-records.ts';
import { coverViewerMarks } from './viewer-bans.ts';

/** How many comments, questions and log entries the moderation board carries. */
const BOARD_COMMENTS = 200;
const BOARD_LOG = 100;

export const CANNOT_BAN_SELF = "You can't ban yourself.";
export const CANNOT_BAN_STAFF =
  "Staff of this store can't be banned from its chat; remove them from the staff first.";
export const moderationRateMessage = (seconds: number) =>
  `Too many moderation actions at once. Please wait ${seconds} second${seconds === 1 ? '' : 's'}.`;

type CommentAction = ModerateCommentRequest['action'];

/** The states an action applies to, and the state it leaves (null: the state stays). */
const TRANSITIONS: Record<
  CommentAction,
  { from: ModeratedComment['state'][]; to: ModeratedComment['state'] | null }
> = {
  hide: { from: ['visible'], to: 'hidden' },
  unhide: { from: ['hidden'], to: 'visible' },
  delete: { from: ['visible', 'hidden', 'held'], to: 'deleted' },
  approve: { from: ['held'], to: 'visible' },
  reject: { from: ['held'], to: 'rejected' },
  flagQuestion: { from: ['visible'], to: null },
  markAnswered: { from: ['visible', 'hidden'], to: null },
};

const STATE_WORDS: Record<ModeratedComment['state'], string> = {
  visible: 'visible',
  hidden: 'hidden',
  deleted: 'deleted',
  held: 'held for review',
  rejected: 'rejected',
};

const DONE_WORDS: Record<CommentAction, string> = {
  hide: 'hidden',
  unhide: 'unhidden',
  delete: 'deleted',
  approve: 'approved',
  reject: 'rejected',
  flagQuestion: 'flagged as a question',
  markAnswered: 'marked answered',
};

export interface ModerationServiceOptions {
  db: OutboxDatabase;
  now: () => number;
  comments: Pick<CommentService, 'hostReply'>;
  users: Pick<UserService, 'displayName'>;
  staff: Pick<StaffService, 'roleOf'>;
  /** A staff member's moderation actions per window; null switches the limit off (benchmarks). */
  actionLimit?: { max: number; windowMs: number } | null;
}

/**
 * Live chat moderation (issue 16 §3): moderators hide, delete, approve and answer comments, ban
 * viewers from a store's chat, set slow mode, pin an announcement and keep blocked words. Every
 * change is published in the transaction that makes it, so viewers' chats follow within a
 * second, and is written to the show's moderation log with the staff member's name.
 */
export function createModerationService({
  db,
  now,
  comments,
  users,
  staff,
  actionLimit = MODERATION_ACTION_LIMIT,
}: ModerationServiceOptions) {
  async function actorName(caller: StaffCaller): Promise<string> {
    if (caller.userUid === null) return 'Admin key';
    return (await users.displayName(caller.userUid)) || 'A staff member';
  }

  /** Counts an action against its staff member's limit; viewers' limits are other keys. */
  async function countAction(caller: StaffCaller): Promise<void> {
    if (!actionLimit) return;
    const who = caller.userUid ?? `admin-key:${caller.pageUid}`;
    await enforceRateLimit(db, `moderation:${who}`, actionLimit, now(), moderationRateMessage);
  }

  async function log(
    tx: Transaction,
    entry: {
      pageUid: string;
      campaignUid: string | null;
      caller: StaffCaller;
      actor: string;
      action: string;
      commentUid?: string | null;
      targetUserUid?: string | null;
      targetUserName?: string | null;
      detail?: string | null;
    },
  ): Promise<void> {
    await tx.query(
      `INSERT INTO chat_moderation_log (page_uid, campaign_uid, at, actor_uid, actor_name, action, comment_uid,
                                        target_user_uid, target_user_name, detail)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        entry.pageUid,
        entry.campaignUid,
        now(),
        entry.caller.userUid,
        entry.actor,
        entry.action,
        entry.commentUid ?? null,
        entry.targetUserUid ?? null,
        entry.targetUserName ?? null,
        entry.detail ?? null,
      ],
    );
  }

  /** Takes a comment out of viewers' chats: its own change, and its entry in its parent's replies. */
  async function withdraw(tx: Transaction, rows: readonly CommentRow[]): Promise<void> {
    for (const row of rows) {
      const removal = [{ type: 'removed' as const, docId: row.uid, doc: null }];
      if (row.is_public) tx.publish(commentTopics.publicComments(row.page_uid, row.campaign_uid), removal);
      tx.publish(commentTopics.userComments(row.page_uid, row.campaign_uid, row.user_uid), removal);
      if (row.thread_id && row.is_public) {
        const [parent] = await tx.query<CommentRow>(
          `UPDATE comments SET replies = (
             SELECT COALESCE(jsonb_agg(r), '[]') FROM jsonb_array_elements(replies) r WHERE r->>'uid' <> $2)
           WHERE uid = $1 AND replies @> $3::jsonb RETURNING *`,
          [row.thread_id, row.uid, JSON.stringify([{ uid: row.uid }])],
        );
        if (parent) republish(tx, parent);
      }
    }
  }

  /** Brings comments back into viewers' chats (unhide, approve, unban), replies into their parents' summaries. */
  async function restore(tx: Transaction, rows: readonly CommentRow[]): Promise<void> {
    for (const row of rows) {
      const doc = toCommentDoc(row);
      const addition = [{ type: 'added' as const, docId: row.uid, doc }];
      if (row.is_public) tx.publish(commentTopics.publicComments(row.page_uid, row.campaign_uid), addition);
      tx.publish(commentTopics.userComments(row.page_uid, row.campaign_uid, row.user_uid), addition);
      if (row.thread_id && row.is_public) {
        const reply = {
          uid: doc.uid,
          text: doc.text,
          time: doc.time,
          user: doc.user,
          public: true,
          verified: doc.verified,
        };
        const [parent] = await tx.query<CommentRow>(
          `UPDATE comments SET replies = replies || $2::jsonb
           WHERE uid = $1 AND NOT replies @> $3::jsonb RETURNING *`,
          [row.thread_id, JSON.stringify([reply]), JSON.stringify([{ uid: row.uid }])],
        );
        if (parent) republish(tx, parent);
      }
    }
  }

  /** A parent whose replies changed, to the chats that show it (only when they show it). */
  function republish(tx: Transaction, parent: CommentRow): void {
    const state = (parent as ModeratedCommentRow).moderation_state;
    if (state !== 'visible' || !parent.is_public) return;
    tx.publish(commentTopics.publicComments(parent.page_uid, parent.campaign_uid), [
      { type: 'modified', docId: parent.uid, doc: toCommentDoc(parent) },
    ]);
  }

  /**
   * The comment locked for a change, after checking the version the caller saw: a different one
   * means another staff member acted meanwhile (409 naming what they did).
   */
  async function lockComment(
    tx: Transaction,
    pageUid: string,
    campaignUid: string,
    commentUid: string,
    version: number,
  ): Promise<ModeratedCommentRow> {
    const [row] = await tx.query<ModeratedCommentRow>(
      `SELECT c.*, ${AUTHOR_BANNED_SQL} FROM comments c
       WHERE c.uid = $1 AND c.page_uid = $2 AND c.campaign_uid = $3 FOR UPDATE`,
      [commentUid, pageUid, campaignUid],
    );
    if (!row) throw notFound(`No comment "${commentUid}" in this show.`);
    if (row.moderation_version !== version) {
      const what =
        row.question_state === 'answered' && row.moderation_state === 'visible'
          ? `answered by ${row.answered_by_name ?? 'another staff member'}`
          : `${STATE_WORDS[row.moderation_state]}${row.moderated_by_name ? ` by ${row.moderated_by_name}` : ''}`;
      throw new HttpError(
        409,
        'moderation_conflict',
        `This comment changed since you loaded it: it is now ${what}. Look at it again before acting.`,
        { comment: toModeratedComment(row) },
      );
    }
    return row;
  }

  /**
   * One staff action on one comment: counted against the caller's actions, then done in a
   * transaction on the comment locked at the version the staff member saw (see lockComment).
   */
  async function actOnComment(
    caller: StaffCaller,
    campaignUid: string,
    commentUid: string,
    version: number,
    act: (tx: Transaction, row: ModeratedCommentRow, actor: string) => Promise<void>,
  ): Promise<void> {
    await countAction(caller);
    const actor = await actorName(caller);
    await db.transaction(async (tx) => {
      const row = await lockComment(tx, caller.pageUid, campaignUid, commentUid, version);
      await act(tx, row, actor);
    });
  }

  async function loadComment(pageUid: string, uid: string): Promise<ModeratedComment> {
    const [row] = await db.query<ModeratedCommentRow>(
      `SELECT c.*, ${AUTHOR_BANNED_SQL} FROM comments c WHERE c.uid = $1 AND c.page_uid = $2`,
      [uid, pageUid],
    );
    if (!row) throw notFound(`No comment "${uid}".`);
    return toModeratedComment(row);
  }

  /** A store's chat bans, newest first. */
  async function listBans(pageUid: string): Promise<ChatBan[]> {
    const rows = await db.query<ChatBanRow>(
      'SELECT * FROM chat_bans WHERE page_uid = $1 ORDER BY banned_at DESC',
      [pageUid],
    );
    return rows.map(toChatBan);
  }

  return {
    /** Everything the moderation panel shows for one show. */
    async board(pageUid: string, campaignUid: string): Promise<ModerationBoard> {
      const [chat, held, questions, bans, log, settings, chatState] = await Promise.all([
        db.query<ModeratedCommentRow>(
          `SELECT c.*, ${AUTHOR_BANNED_SQL} FROM comments c
           WHERE c.page_uid = $1 AND c.campaign_uid = $2 AND c.is_public AND c.moderation_state <> 'held'
             AND c.moderation_state <> 'rejected' AND c.source <> 'competition'
           ORDER BY c.time DESC, c.uid DESC LIMIT ${BOARD_COMMENTS}`,
          [pageUid, campaignUid],
        ),
        db.query<ModeratedCommentRow>(
          `SELECT c.*, ${AUTHOR_BANNED_SQL} FROM comments c
           WHERE c.page_uid = $1 AND c.campaign_uid = $2 AND c.moderation_state = 'held'
           ORDER BY c.time ASC LIMIT ${BOARD_COMMENTS}`,
          [pageUid, campaignUid],
        ),
        db.query<ModeratedCommentRow>(
          `SELECT c.*, ${AUTHOR_BANNED_SQL} FROM comments c
           WHERE c.page_uid = $1 AND c.campaign_uid = $2 AND c.question_state <> 'none'
             AND c.moderation_state IN ('visible', 'hidden')
           ORDER BY (c.question_state = 'open') DESC, c.time DESC LIMIT ${BOARD_COMMENTS}`,
          [pageUid, campaignUid],
        ),
        db.query<ChatBanRow>('SELECT * FROM chat_bans WHERE page_uid = $1 ORDER BY banned_at DESC', [
          pageUid,
        ]),
        db.query<ModerationLogRow>(
          `SELECT * FROM chat_moderation_log WHERE page_uid = $1 AND (campaign_uid = $2 OR campaign_uid IS NULL)
           ORDER BY id DESC LIMIT ${BOARD_LOG}`,
          [pageUid, campaignUid],
        ),
        chatModerationSettings(db, pageUid),
        showChatState(db, pageUid, campaignUid),
      ]);
      return {
        campaignUid,
        comments: chat.map(toModeratedComment),
        held: held.map(toModeratedComment),
        questions: questions.map(toModeratedComment),
        bans: bans.map(toChatBan),
        log: log.map(toLogEntry),
        settings,
        chat: chatState,
      };
    },

    async moderateComment(
      caller: StaffCaller,
      campaignUid: string,
      commentUid: string,
      input: ModerateCommentRequest,
    ): Promise<ModeratedComment> {
      const { pageUid } = caller;
      await actOnComment(caller, campaignUid, commentUid, input.version, async (tx, row, actor) => {
        const transition = TRANSITIONS[input.action];
        if (!transition.from.includes(row.moderation_state)) {
          throw new HttpError(
            409,
            'moderation_conflict',
            `This comment is ${STATE_WORDS[row.moderation_state]}${row.moderated_by_name ? ` (by ${row.moderated_by_name})` : ''}; it cannot be ${DONE_WORDS[input.action]}.`,
          );
        }
        const [updated] = await tx.query<ModeratedCommentRow>(
          `UPDATE comments SET
             moderation_version = moderation_version + 1,
             moderation_state = COALESCE($2, moderation_state),
             question_state = CASE WHEN $3 = 'flagQuestion' THEN 'open'
                                   WHEN $3 = 'markAnswered' THEN 'answered' ELSE question_state END,
             answered_by_name = CASE WHEN $3 = 'markAnswered' THEN $4 ELSE answered_by_name END,
             answered_how = CASE WHEN $3 = 'markAnswered' THEN 'marked' ELSE answered_how END,
             moderated_by_uid = CASE WHEN $2 IS NULL THEN moderated_by_uid ELSE $5 END,
             moderated_by_name = CASE WHEN $2 IS NULL THEN moderated_by_name ELSE $4 END,
             moderated_at = CASE WHEN $2 IS NULL THEN moderated_at ELSE $6 END
           WHERE uid = $1 RETURNING *`,
          [commentUid, transition.to, input.action, actor, caller.userUid, now()],
        );
        if (!updated) throw new Error('updating a locked comment returned no row');
        const wasShown = row.moderation_state === 'visible' && !row.author_banned;
        const isShown = updated.moderation_state === 'visible' && !row.author_banned;
        if (wasShown && !isShown) await withdraw(tx, [updated]);
        else if (!wasShown && isShown) await restore(tx, [updated]);
        else if (row.moderation_state === 'held' && updated.moderation_state !== 'visible') {
          // The author alone saw it while held: it leaves their list too.
          tx.publish(commentTopics.userComments(pageUid, campaignUid, updated.user_uid), [
            { type: 'removed', docId: updated.uid, doc: null },
          ]);
        }
        await log(tx, {
          pageUid,
          campaignUid,
          caller,
          actor,
          action: input.action,
          commentUid,
          targetUserUid: row.user_uid,
          targetUserName: row.user_name,
          detail: row.text.slice(0, 120),
        });
      });
      return loadComment(pageUid, commentUid);
    },

    /** Answers a comment as the store (publicly or privately) and marks it answered. */
    async answerQuestion(
      caller: StaffCaller,
      campaignUid: string,
      commentUid: string,
      input: AnswerQuestionRequest,
    ): Promise<ModeratedComment> {
      const { pageUid } = caller;
      // Claims the question first (version check and all), so two staff never both answer it.
      await actOnComment(caller, campaignUid, commentUid, input.version, async (tx, row, actor) => {
        if (row.moderation_state !== 'visible') {
          throw new HttpError(
            409,
            'moderation_conflict',
            `This comment is ${STATE_WORDS[row.moderation_state]}${row.moderated_by_name ? ` by ${row.moderated_by_name}` : ''}; unhide it before answering.`,
          );
        }
        await tx.query(
          `UPDATE comments SET moderation_version = moderation_version + 1, question_state = 'answered',
                               answered_by_name = $2, answered_how = $3
           WHERE uid = $1`,
          [commentUid, actor, input.private ? 'private' : 'public'],
        );
        await log(tx, {
          pageUid,
          campaignUid,
          caller,
          actor,
          action: input.private ? 'answerPrivate' : 'answerPublic',
          commentUid,
          targetUserUid: row.user_uid,
          targetUserName: row.user_name,
          detail: input.text.slice(0, 120),
        });
      });
      await comments.hostReply({
        pageUid,
        campaignUid,
        commentUid,
        text: input.text,
        private: input.private,
      });
      return loadComment(pageUid, commentUid);
    },

    async ban(caller: StaffCaller, input: BanViewerRequest): Promise<ChatBan> {
      await countAction(caller);
      const { pageUid } = caller;
      if (caller.userUid !== null && caller.userUid === input.userUid)
        throw new HttpError(422, 'cannot_ban', CANNOT_BAN_SELF);
      if (input.userUid === `host-${pageUid}` || (await staff.roleOf(pageUid, input.userUid)) !== null)
        throw new HttpError(422, 'cannot_ban', CANNOT_BAN_STAFF);
      const userName = await users.displayName(input.userUid);
      if (userName === null) throw notFound(`No viewer "${input.userUid}".`);
      const actor = await actorName(caller);
      return db.transaction(async (tx) => {
        const [row] = await tx.query<ChatBanRow>(
          `INSERT INTO chat_bans (page_uid, user_uid, user_name, reason, banned_by_uid, banned_by_name, banned_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (page_uid, user_uid) DO UPDATE SET reason = EXCLUDED.reason
           RETURNING *, (xmax = 0) AS inserted`,
          [pageUid, input.userUid, userName, input.reason ?? null, caller.userUid, actor, now()],
        );
        if (!row) throw new Error('inserting a ban returned no row');
        // The ban covers the devices (and, when the store says so, addresses) the viewer used.
        await coverViewerMarks(tx, pageUid, input.userUid, now());
        if ((row as ChatBanRow & { inserted: boolean }).inserted) {
          // Their comments still in viewers' chats (the last COMMENT_HISTORY_MS) leave every show's chat.
          const shown = await tx.query<CommentRow>(
            `SELECT * FROM comments WHERE page_uid = $1 AND user_uid = $2 AND moderation_state = 'visible'
               AND time >= $3`,
            [pageUid, input.userUid, now() - COMMENT_HISTORY_MS],
          );
          await withdraw(tx, shown);
          tx.publish(moderationTopics.chatStanding(pageUid, input.userUid), [
            {
              type: 'modified',
              docId: input.userUid,
              doc: { pageUid, userUid: input.userUid, banned: true, reason: input.reason ?? null },
            },
          ]);
          await log(tx, {
            pageUid,
            campaignUid: null,
            caller,
            actor,
            action: 'ban',
            targetUserUid: input.userUid,
            targetUserName: userName,
            detail: input.reason ?? null,
          });
        }
        return toChatBan(row);
      });
    },

    async unban(caller: StaffCaller, userUid: string): Promise<void> {
      await countAction(caller);
      const { pageUid } = caller;
      const actor = await actorName(caller);
      await db.transaction(async (tx) => {
        const [ban] = await tx.query<ChatBanRow>(
          'DELETE FROM chat_bans WHERE page_uid = $1 AND user_uid = $2 RETURNING *',
          [pageUid, userUid],
        );
        if (!ban) throw notFound(`"${userUid}" is not banned from this store's chat.`);
        const shown = await tx.query<CommentRow>(
          `SELECT * FROM comments WHERE page_uid = $1 AND user_uid = $2 AND moderation_state = 'visible'
             AND time >= $3`,
          [pageUid, userUid, now() - COMMENT_HISTORY_MS],
        );
        await restore(tx, shown);
        tx.publish(moderationTopics.chatStanding(pageUid, userUid), [
          { type: 'modified', docId: userUid, doc: { pageUid, userUid, banned: false, reason: null } },
        ]);
        await log(tx, {
          pageUid,
          campaignUid: null,
          caller,
          actor,
          action: 'unban',
          targetUserUid: userUid,
          targetUserName: ban.user_name,
        });
      });
    },

    listBans,

    /** The viewers banned from a store's chat (competition draws leave them out). */
    async bannedViewers(pageUid: string): Promise<ReadonlySet<string>> {
      return new Set((await listBans(pageUid)).map((ban) => ban.userUid));
    },

    /** Whether a viewer is banned from a store's chat. */
    async isBanned(pageUid: string, userUid: string): Promise<boolean> {
      return (await findChatBan(db, pageUid, userUid)) !== null;
    },

    async setShowChat(
      caller: StaffCaller,
      campaignUid: string,
      change: { slowModeSeconds: number } | { announcement: string | null },
    ): Promise<ShowChatState> {
      await countAction(caller);
      const { pageUid } = caller;
      const actor = await actorName(caller);
      await db.transaction(async (tx) => {
        if ('slowModeSeconds' in change) {
          await tx.query(
            `INSERT INTO show_chat_state (page_uid, campaign_uid, slow_mode_seconds) VALUES ($1, $2, $3)
             ON CONFLICT (page_uid, campaign_uid) DO UPDATE SET slow_mode_seconds = EXCLUDED.slow_mode_seconds`,
            [pageUid, campaignUid, change.slowModeSeconds],
          );
        } else {
          const text = change.announcement?.trim() || null;
          await tx.query(
            `INSERT INTO show_chat_state (page_uid, campaign_uid, announcement, announcement_at, announcement_by_name)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (page_uid, campaign_uid) DO UPDATE SET announcement = EXCLUDED.announcement,
               announcement_at = EXCLUDED.announcement_at, announcement_by_name = EXCLUDED.announcement_by_name`,
            [pageUid, campaignUid, text, text ? now() : null, text ? actor : null],
          );
        }
        const state = await showChatState(tx, pageUid, campaignUid);
        const { announcementBy: _byWhom, ...viewers } = state;
        tx.publish(moderationTopics.showChat(pageUid, campaignUid), [
          { type: 'modified', docId: campaignUid, doc: { pageUid, campaignUid, ...viewers } },
        ]);
        await log(tx, {
          pageUid,
          campaignUid,
          caller,
          actor,
          action: 'slowModeSeconds' in change ? 'slowMode' : 'announce',
          detail:
            'slowModeSeconds' in change
              ? `${change.slowModeSeconds} s`
              : (viewers.announcement?.text.slice(0, 120) ?? null),
        });
      });
      const { announcementBy: _byWhom, ...viewers } = await showChatState(db, pageUid, campaignUid);
      return viewers;
    },

    async setSettings(
      caller: StaffCaller,
      input: Omit<ChatModerationSettings, 'banByAddress'> & { banByAddress?: boolean | undefined },
    ): Promise<ChatModerationSettings> {
      await countAction(caller);
      const { pageUid } = caller;
      const actor = await actorName(caller);
      const blockedWords = normalizeBlockedWords(input.blockedWords);
      return db.transaction(async (tx) => {
        const [row] = await tx.query<{ ban_by_address: boolean }>(
          `INSERT INTO chat_moderation_settings (page_uid, blocked_words, blocked_word_action, ban_by_address)
           VALUES ($1, $2, $3, COALESCE($4, false))
           ON CONFLICT (page_uid) DO UPDATE SET blocked_words = EXCLUDED.blocked_words,
             blocked_word_action = EXCLUDED.blocked_word_action,
             ban_by_address = COALESCE($4, chat_moderation_settings.ban_by_address)
           RETURNING ban_by_address`,
          [pageUid, JSON.stringify(blockedWords), input.blockedWordAction, input.banByAddress ?? null],
        );
        const banByAddress = row?.ban_by_address ?? false;
        await log(tx, {
          pageUid,
          campaignUid: null,
          caller,
          actor,
          action: 'blockedWords',
          detail: `${blockedWords.length} words, ${input.blockedWordAction}${banByAddress ? ', bans cover addresses' : ''}`,
        });
        return { blockedWords, blockedWordAction: input.blockedWordAction, banByAddress };
      });
    },
  };
}

export type ModerationService = ReturnType<typeof createModerationService>;
