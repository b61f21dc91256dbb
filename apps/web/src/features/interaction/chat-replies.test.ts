import type { CommentDoc } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import type { ChatComment } from './chat-comment.ts';
import { addPublicReplies } from './chat-replies.ts';

const doc = (uid: string, time: number, fields: Partial<CommentDoc> = {}): CommentDoc => ({
  uid,
  text: `text ${uid}`,
  time,
  threadId: null,
  source: 'player',
  public: true,
  private: false,
  pageUid: 'shop',
  campaignUid: 'camp',
  user: { uid: `user-${uid}`, name: `Name ${uid}` },
  replies: [],
  verified: false,
  metaData: {},
  ...fields,
});

const parent = (replies: ChatComment['replies'] = []): ChatComment => ({
  uid: 'q',
  text: 'Which sizes?',
  time: 1,
  userUid: 'user-q',
  userName: 'Q',
  verified: false,
  isWinner: false,
  held: false,
  replies,
});

/** How the parent's summary holds the reply doc('r1', 20). */
const R1_SUMMARY = {
  uid: 'r1',
  text: 'text r1',
  time: 20,
  userName: 'Name r1',
  verified: false,
  private: false,
};

describe('addPublicReplies', () => {
  it('puts replies that arrived as their own changes under their parent, oldest first', () => {
    const byUid = new Map([['q', parent()]]);
    addPublicReplies(byUid, [
      doc('q', 1),
      doc('r2', 30, { threadId: 'q' }),
      doc('r1', 20, { threadId: 'q' }),
      doc('other', 40, { threadId: 'not-here' }),
    ]);
    expect(byUid.get('q')?.replies.map((reply) => reply.uid)).toEqual(['r1', 'r2']);
    expect(byUid.get('q')?.replies[0]).toEqual(R1_SUMMARY);
  });

  it("keeps a reply the parent's summary already has once", () => {
    const byUid = new Map([['q', parent([R1_SUMMARY])]]);
    addPublicReplies(byUid, [
      doc('r1', 20, { threadId: 'q' }),
      doc('r1b', 25, { threadId: 'q', public: false }),
    ]);
    expect(byUid.get('q')?.replies).toEqual([R1_SUMMARY]);
  });
});
