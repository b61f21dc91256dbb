import type { CommentDoc } from '@vitrine/protocol';

/** A row of the comments table. */
export interface CommentRow {
  uid: string;
  page_uid: string;
  campaign_uid: string;
  user_uid: string;
  user_name: string;
  text: string;
  time: number;
  thread_id: string | null;
  source: string;
  is_public: boolean;
  recipient_uid: string | null;
  verified: boolean;
  meta_data: CommentDoc['metaData'];
  replies: unknown[];
  edited_at?: number | string | null;
  after_checking_checkout: boolean;
  has_checkout_match: boolean;
}

export function toCommentDoc(row: CommentRow): CommentDoc {
  return {
    uid: row.uid,
    text: row.text,
    time: row.time,
    threadId: row.thread_id,
    source: row.source,
    public: row.is_public,
    private: !row.is_public,
    pageUid: row.page_uid,
    campaignUid: row.campaign_uid,
    user: { uid: row.user_uid, name: row.user_name },
    replies: row.replies,
    verified: row.verified,
    metaData: row.meta_data,
    editedAt: row.edited_at === null || row.edited_at === undefined ? null : Number(row.edited_at),
    afterCheckingCheckout: row.after_checking_checkout,
    hasCheckoutMatch: row.has_checkout_match,
  };
}

/** Topics of the comments feature's live queries. */
export const commentTopics = {
  publicComments: (pageUid: string, campaignUid: string) => `comments:${pageUid}:${campaignUid}`,
  bulkComments: (pageUid: string, campaignUid: string) => `bulkComments:${pageUid}:${campaignUid}`,
  /** A user's own comments and the private replies addressed to them. */
  userComments: (pageUid: string, campaignUid: string, userUid: string) =>
    `userComments:${pageUid}:${campaignUid}:${userUid}`,
};
