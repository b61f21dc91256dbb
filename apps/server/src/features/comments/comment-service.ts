import { randomBytes } from 'node:crypto';
import type { CommentDoc, PlayerCommentRequest } from '@vitrine/protocol';
import type { Database } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import type { Publish } from '../../realtime/publisher.ts';
import { type CommentRow, commentTopics, toCommentDoc } from './comment-records.ts';

/**
 * The show chat. This slice posts public comments; replies, edits, private host replies and
 * rate limits arrive with the accounts and live interaction issue.
 */
export function createCommentService(db: Database, publish: Publish, now: () => number = Date.now) {
  return {
    async postPlayerComment(userUid: string, input: PlayerCommentRequest): Promise<CommentDoc> {
      const [campaign] = await db.query('SELECT 1 FROM campaigns WHERE uid = $1 AND page_uid = $2', [
        input.campaignUid,
        input.pageUid,
      ]);
      if (!campaign) throw notFound(`No campaign "${input.campaignUid}" in store "${input.pageUid}".`);
      const [row] = await db.query<CommentRow>(
        `INSERT INTO comments (uid, page_uid, campaign_uid, user_uid, user_name, text, time, thread_id, source)
         SELECT $1, $2, $3, u.uid, u.name, $5, $6, $7, 'player' FROM users u WHERE u.uid = $4
         RETURNING *`,
        [
          randomBytes(12).toString('base64url'),
          input.pageUid,
          input.campaignUid,
          userUid,
          input.text,
          now(),
          input.threadId,
        ],
      );
      if (!row) throw notFound('Your account no longer exists; sign in again.');
      const doc = toCommentDoc(row);
      const change = [{ type: 'added' as const, docId: doc.uid, doc }];
      await publish(commentTopics.publicComments(input.pageUid, input.campaignUid), change);
      await publish(commentTopics.userComments(input.pageUid, input.campaignUid, userUid), change);
      return doc;
    },
  };
}

export type CommentService = ReturnType<typeof createCommentService>;
