import type { CommentDoc } from '@vitrine/protocol';
import type { ChatComment } from './chat-comment.ts';

/**
 * A public reply travels as its own change (the server does not send its parent again per reply):
 * it joins its parent's replies here, once, whether or not the parent's summary already has it.
 */
export function addPublicReplies(byUid: Map<string, ChatComment>, docs: readonly CommentDoc[]): void {
  for (const doc of docs) {
    const parent = doc.public && doc.threadId ? byUid.get(doc.threadId) : undefined;
    if (parent) joinReply(parent, doc, false);
  }
}

/** Adds `doc` to its parent's replies, in time order, unless the parent has it already. */
export function joinReply(parent: ChatComment, doc: CommentDoc, isPrivate: boolean): void {
  if (parent.replies.some((reply) => reply.uid === doc.uid)) return;
  parent.replies = [
    ...parent.replies,
    {
      uid: doc.uid,
      text: doc.text,
      time: doc.time,
      userName: doc.user.name,
      verified: doc.verified,
      private: isPrivate,
    },
  ].sort((a, b) => a.time - b.time);
}
