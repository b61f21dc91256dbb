import { COMMENT_HISTORY_LIMIT, COMMENT_HISTORY_MS } from '@vitrine/domain';
import { type BulkCommentsDoc, LiveQueryParams } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { everyone, type LiveQueryCatalogue, onlyTheUser } from '../../realtime/live-query.ts';
import { type CommentRow, commentTopics, toCommentDoc } from './comment-records.ts';

export function commentLiveQueries(
  db: Queryable,
  now: () => number,
): Pick<LiveQueryCatalogue, 'comments' | 'bulkComments' | 'userComments'> {
  return {
    comments: {
      params: LiveQueryParams.comments,
      authorize: everyone,
      topic: ({ pageUid, campaignUid }) => commentTopics.publicComments(pageUid, campaignUid),
      // Public comments of the last 120 minutes, at most 100, newest first (spec §7, §9); new ones follow.
      snapshot: async ({ pageUid, campaignUid }) => {
        const rows = await db.query<CommentRow>(
          `SELECT * FROM comments WHERE page_uid = $1 AND campaign_uid = $2 AND is_public AND time >= $3
           ORDER BY time DESC, uid DESC LIMIT ${COMMENT_HISTORY_LIMIT}`,
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
        return rows.map((row) => ({
          docId: campaignUid,
          doc: { pageUid, campaignUid, questions: row.questions },
        }));
      },
    },
    userComments: {
      params: LiveQueryParams.userComments,
      authorize: onlyTheUser,
      topic: ({ pageUid, campaignUid, userUid }) => commentTopics.userComments(pageUid, campaignUid, userUid),
      snapshot: async ({ pageUid, campaignUid, userUid }) => {
        const rows = await db.query<CommentRow>(
          `SELECT * FROM comments WHERE page_uid = $1 AND campaign_uid = $2 AND (user_uid = $3 OR recipient_uid = $3)
           ORDER BY time DESC, uid DESC LIMIT ${COMMENT_HISTORY_LIMIT}`,
          [pageUid, campaignUid, userUid],
        );
        return rows.map((row) => ({ docId: row.uid, doc: toCommentDoc(row) }));
      },
    },
  };
}
