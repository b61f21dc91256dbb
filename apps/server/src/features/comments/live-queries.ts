import { COMMENT_HISTORY_LIMIT, COMMENT_HISTORY_MS } from '@vitrine/domain';
import { BULK_COMMENTS_MAX, type BulkCommentsDoc, LiveQueryParams } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { everyone, type LiveQueryCatalogue, onlyTheUser } from '../../realtime/live-query.ts';
import { type CommentRow, commentTopics, toCommentDoc } from './comment-records.ts';
import { findChatBan, moderationTopics, SHOWN_TO_VIEWERS_SQL, showChatState } from './moderation-records.ts';

export function commentLiveQueries(
  db: Queryable,
  now: () => number,
): Pick<LiveQueryCatalogue, 'comments' | 'bulkComments' | 'userComments' | 'showChat' | 'chatStanding'> {
  return {
    comments: {
      params: LiveQueryParams.comments,
      authorize: everyone,
      topic: ({ pageUid, campaignUid }) => commentTopics.publicComments(pageUid, campaignUid),
      // Public comments of the last 120 minutes, at most 100, newest first (spec §7, §9); new ones
      // follow. Hidden, deleted and held comments and those of banned viewers are left out.
      snapshot: async ({ pageUid, campaignUid }) => {
        const rows = await db.query<CommentRow>(
          `SELECT c.* FROM comments c WHERE c.page_uid = $1 AND c.campaign_uid = $2 AND c.is_public AND c.time >= $3
             AND ${SHOWN_TO_VIEWERS_SQL}
           ORDER BY c.time DESC, c.uid DESC LIMIT ${COMMENT_HISTORY_LIMIT}`,
          [pageUid, campaignUid, now() - COMMENT_HISTORY_MS],
        );
        return rows.map((row) => ({ docId: row.uid, doc: toCommentDoc(row) }));
      },
    },
    bulkComments: {
      params: LiveQueryParams.bulkComments,
      authorize: everyone,
      topic: ({ pageUid, campaignUid }) => commentTopics.bulkComments(pageUid, campaignUid),
      snapshot: async ({ pageUid, campaignUid }) => {
        const rows = await db.query<{ questions: BulkCommentsDoc['questions'] }>(
          'SELECT questions FROM bulk_comments WHERE page_uid = $1 AND campaign_uid = $2',
          [pageUid, campaignUid],
        );
        // Questions the host uploaded win; without them the show's own chat is the replay's.
        const questions = rows[0]?.questions ?? (await showChatForReplay(db, pageUid, campaignUid));
        if (questions.length === 0) return [];
        return [{ docId: campaignUid, doc: { pageUid, campaignUid, questions } }];
      },
    },
    userComments: {
      params: LiveQueryParams.userComments,
      authorize: onlyTheUser,
      topic: ({ pageUid, campaignUid, userUid }) => commentTopics.userComments(pageUid, campaignUid, userUid),
      snapshot: async ({ pageUid, campaignUid, userUid }) => {
        // Their own held comments too (marked held), so the author sees theirs awaits review.
        const rows = await db.query<CommentRow & { moderation_state: string }>(
          `SELECT c.* FROM comments c WHERE c.page_uid = $1 AND c.campaign_uid = $2
             AND (c.user_uid = $3 OR c.recipient_uid = $3)
             AND (${SHOWN_TO_VIEWERS_SQL} OR (c.moderation_state = 'held' AND c.user_uid = $3))
           ORDER BY c.time DESC, c.uid DESC LIMIT ${COMMENT_HISTORY_LIMIT}`,
          [pageUid, campaignUid, userUid],
        );
        return rows.map((row) => ({
          docId: row.uid,
          doc: row.moderation_state === 'held' ? { ...toCommentDoc(row), held: true } : toCommentDoc(row),
        }));
      },
    },
    showChat: {
      params: LiveQueryParams.showChat,
      authorize: everyone,
      topic: ({ pageUid, campaignUid }) => moderationTopics.showChat(pageUid, campaignUid),
      snapshot: async ({ pageUid, campaignUid }) => {
        const { announcementBy: _byWhom, ...state } = await showChatState(db, pageUid, campaignUid);
        return [{ docId: campaignUid, doc: { pageUid, campaignUid, ...state } }];
      },
    },
    chatStanding: {
      params: LiveQueryParams.chatStanding,
      authorize: onlyTheUser,
      topic: ({ pageUid, userUid }) => moderationTopics.chatStanding(pageUid, userUid),
      snapshot: async ({ pageUid, userUid }) => {
        const ban = await findChatBan(db, pageUid, userUid);
        return [
          { docId: userUid, doc: { pageUid, userUid, banned: ban !== null, reason: ban?.reason ?? null } },
        ];
      },
    },
  };
}

/**
 * The public chat of a show as the replay's bulk comments (spec §4), so that after End the
 * recording replays it in step with the video: what viewers could see at the end (hidden,
 * deleted and held comments and banned viewers' are left out), each comment with its public
 * replies; private host replies stay private. The oldest first, as many as a bulk document holds.
 */
async function showChatForReplay(
  db: Queryable,
  pageUid: string,
  campaignUid: string,
): Promise<BulkCommentsDoc['questions']> {
  const rows = await db.query<CommentRow>(
    `SELECT c.* FROM comments c WHERE c.page_uid = $1 AND c.campaign_uid = $2 AND c.is_public
       AND ${SHOWN_TO_VIEWERS_SQL}
     ORDER BY c.time, c.uid LIMIT ${BULK_COMMENTS_MAX * 2}`,
    [pageUid, campaignUid],
  );
  const questions: BulkCommentsDoc['questions'] = [];
  const byUid = new Map<string, BulkCommentsDoc['questions'][number]>();
  for (const row of rows) {
    if (row.thread_id === null) {
      if (questions.length === BULK_COMMENTS_MAX) continue;
      const question: BulkCommentsDoc['questions'][number] = {
        commentUid: row.uid,
        question: row.text,
        time: row.time,
        source: row.source,
        customerId: row.user_uid,
        customerName: row.user_name,
        replies: [],
      };
      questions.push(question);
      byUid.set(row.uid, question);
    } else {
      byUid.get(row.thread_id)?.replies.push({ text: row.text, time: row.time, name: row.user_name });
    }
  }
  return questions;
}
