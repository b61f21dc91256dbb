import {
  bulkCommentVisible,
  type LastSeenComment,
  newestComment,
  unseenCommentCount,
  videoStartTimestamp,
} from '@vitrine/domain';
import type { CommentDoc, CommentReply, LiveEvent } from '@vitrine/protocol';
import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
import { useVideoDerived } from '../../lib/use-video-time.ts';
import type { ChatComment, ChatReply } from './chat-comment.ts';
import { addPublicReplies, joinReply } from './chat-replies.ts';
import { useOptionalLiveQuery } from './use-optional-live-query.ts';

export interface Chat {
  loading: boolean;
  /** The public chat, oldest first: live comments, or on a recording its bulk comments in step with the video. */
  comments: ChatComment[];
  /** Private host replies to the viewer, oldest first. */
  privateComments: ChatComment[];
  unseen: number;
  unseenPrivate: number;
  /** Marks everything shown as seen; called while the comments are visible. */
  markSeen(which: 'public' | 'private'): void;
  /** The store's moderators banned the viewer from its chat (they cannot post). */
  banned: boolean;
  /** The announcement a moderator pinned above the chat (plain text), or null. */
  announcement: string | null;
  /** Slow mode: one comment per this many seconds (0: off). */
  slowModeSeconds: number;
}

function isReply(value: unknown): value is CommentReply {
  const reply = value as Partial<CommentReply> | null;
  return (
    typeof reply === 'object' &&
    reply !== null &&
    typeof reply.uid === 'string' &&
    typeof reply.text === 'string' &&
    typeof reply.time === 'number'
  );
}

/** A reply stored with a bulk comment: `{ text, time, name }` (interaction.ts BulkCommentQuestionInput). */
function bulkReply(value: unknown, uid: string): ChatReply[] {
  const reply = value as { text?: unknown; time?: unknown; name?: unknown } | null;
  if (typeof reply !== 'object' || reply === null || typeof reply.text !== 'string') return [];
  return [
    {
      uid,
      text: reply.text,
      time: typeof reply.time === 'number' ? reply.time : 0,
      userName: typeof reply.name === 'string' ? reply.name : '',
      verified: true,
      private: false,
    },
  ];
}

function toChatComment(doc: CommentDoc, includePrivateReplies: boolean): ChatComment {
  return {
    uid: doc.uid,
    text: doc.text,
    time: doc.time,
    userUid: doc.user.uid,
    userName: doc.user.name,
    verified: doc.verified,
    isWinner: doc.metaData.isCompetitionWinner === true,
    held: doc.held === true,
    replies: doc.replies
      .filter(isReply)
      .filter((reply) => reply.public !== false || includePrivateReplies)
      .map((reply) => ({
        uid: reply.uid,
        text: reply.text,
        time: reply.time,
        userName: reply.user?.name ?? '',
        verified: reply.verified === true,
        private: reply.public === false,
      }))
      .sort((a, b) => a.time - b.time),
  };
}

const byTime = (a: { time: number; uid: string }, b: { time: number; uid: string }) =>
  a.time - b.time || (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);

const lastSeenKey = (which: string, pageUid: string, campaignUid: string) =>
  `vitrine-last-seen:${which}:${pageUid}:${campaignUid}`;

function readLastSeen(key: string): LastSeenComment | null {
  try {
    const stored = JSON.parse(localStorage.getItem(key) ?? 'null') as LastSeenComment | null;
    return stored && typeof stored.uid === 'string' && typeof stored.time === 'number' ? stored : null;
  } catch {
    return null;
  }
}

/**
 * The last comment the viewer saw, kept across visits (spec §4: hiding the comments stores the
 * last seen comment, so unseen counts can be computed).
 */
function useLastSeen(key: string) {
  const [lastSeen, setLastSeen] = useState(() => readLastSeen(key));
  useEffect(() => setLastSeen(readLastSeen(key)), [key]);
  const update = useCallback(
    (next: LastSeenComment | null) => {
      if (!next) return;
      setLastSeen((previous) => {
        if (previous && previous.uid === next.uid && previous.time === next.time) return previous;
        try {
          localStorage.setItem(key, JSON.stringify(next));
        } catch {
          // Blocked storage: the count then starts over on the next visit.
        }
        return next;
      });
    },
    [key],
  );
  return [lastSeen, update] as const;
}

/**
 * The show's chat for one viewer (spec §4 "Comments"): the public comments with their replies,
 * the viewer's own comments (so a just-posted one shows at once) and the private host replies
 * that only they receive, plus unseen counts against the last seen comment.
 */
export function useChat({
  pageUid,
  campaignUid,
  userUid,
  event,
  videoRef,
}: {
  pageUid: string;
  campaignUid: string;
  userUid: string | null;
  event: LiveEvent;
  videoRef: RefObject<HTMLVideoElement | null>;
}): Chat {
  const isRecording = event.event.currentStatus === 'vod';
  const publicQuery = useLiveQuery('comments', { pageUid, campaignUid });
  const ownQuery = useOptionalLiveQuery('userComments', userUid ? { pageUid, campaignUid, userUid } : null);
  const bulkQuery = useOptionalLiveQuery('bulkComments', isRecording ? { pageUid, campaignUid } : null);
  // Moderation (issue 16 §3): the pinned announcement and slow mode, and whether this viewer is banned.
  const showChatQuery = useOptionalLiveQuery('showChat', isRecording ? null : { pageUid, campaignUid });
  const standingQuery = useOptionalLiveQuery('chatStanding', userUid ? { pageUid, userUid } : null);

  // Recordings replay their bulk comments in step with the video (spec §4): the visible ones
  // change only when the video passes one, so this re-renders per comment, not per frame.
  const questions = bulkQuery.docs[0]?.questions;
  const videoStart = videoStartTimestamp(event);
  const deriveVisibleBulk = useCallback(
    (timeSec: number) =>
      (questions ?? []).filter((q) => bulkCommentVisible(q.time, videoStart, timeSec * 1000)).length,
    [questions, videoStart],
  );
  const visibleBulkCount = useVideoDerived(videoRef, deriveVisibleBulk, 0);

  const comments = useMemo(() => {
    if (questions && questions.length > 0) {
      return questions
        .filter((q) => bulkCommentVisible(q.time, videoStart, Number.POSITIVE_INFINITY))
        .sort((a, b) => a.time - b.time)
        .slice(0, visibleBulkCount)
        .map(
          (q): ChatComment => ({
            uid: q.commentUid,
            text: q.question,
            time: q.time,
            userUid: q.customerId,
            userName: q.customerName,
            verified: false,
            isWinner: false,
            held: false,
            replies: q.replies.flatMap((reply, index) => bulkReply(reply, `${q.commentUid}-${index}`)),
          }),
        );
    }
    const byUid = new Map<string, ChatComment>();
    for (const doc of publicQuery.docs) if (doc.public) byUid.set(doc.uid, toChatComment(doc, false));
    // The viewer's own versions win (they may be newer), with the private host replies to them,
    // which only their author receives and which never join the public summary of replies.
    for (const doc of ownQuery.docs) {
      if (doc.public && doc.user.uid === userUid) byUid.set(doc.uid, toChatComment(doc, true));
    }
    for (const doc of ownQuery.docs) {
      const parent = doc.private && doc.threadId ? byUid.get(doc.threadId) : undefined;
      if (parent && parent.userUid === userUid) joinReply(parent, doc, true);
    }
    addPublicReplies(byUid, publicQuery.docs);
    const all = [...byUid.values()];
    // Replies are comments too (threadId = the comment they answer); they show under it.
    const replyUids = new Set(all.flatMap((comment) => comment.replies.map((reply) => reply.uid)));
    const threaded = new Map(
      [...publicQuery.docs, ...ownQuery.docs].map((doc) => [doc.uid, doc.threadId] as const),
    );
    return all
      .filter((comment) => {
        const threadId = threaded.get(comment.uid);
        return !replyUids.has(comment.uid) && !(threadId && byUid.has(threadId));
      })
      .sort(byTime);
  }, [questions, videoStart, visibleBulkCount, publicQuery.docs, ownQuery.docs, userUid]);

  // Private host replies to the viewer, each with the viewer's own answers to it (which stay
  // private between the two, spec §6).
  const privateComments = useMemo(() => {
    const answers = ownQuery.docs.filter((doc) => doc.private && doc.user.uid === userUid && doc.threadId);
    return ownQuery.docs
      .filter((doc) => doc.private && doc.user.uid !== userUid)
      .map((doc) => {
        const comment = toChatComment(doc, true);
        const own = answers.filter((answer) => answer.threadId === doc.uid);
        comment.replies = [
          ...comment.replies,
          ...own.map((answer) => ({
            uid: answer.uid,
            text: answer.text,
            time: answer.time,
            userName: answer.user.name,
            verified: answer.verified,
            private: true,
          })),
        ].sort((a, b) => a.time - b.time);
        return comment;
      })
      .sort(byTime);
  }, [ownQuery.docs, userUid]);

  const [lastSeenPublic, setLastSeenPublic] = useLastSeen(lastSeenKey('public', pageUid, campaignUid));
  const [lastSeenPrivate, setLastSeenPrivate] = useLastSeen(lastSeenKey('private', pageUid, campaignUid));
  const markSeen = useCallback(
    (which: 'public' | 'private') =>
      which === 'public'
        ? setLastSeenPublic(newestComment(comments))
        : setLastSeenPrivate(newestComment(privateComments)),
    [comments, privateComments, setLastSeenPublic, setLastSeenPrivate],
  );

  // A first visit starts counting from what is there when the chat loads: history is not "new".
  const baselined = useRef({ public: false, private: false });
  useEffect(() => {
    if (publicQuery.status !== 'SUBSCRIBED' || baselined.current.public) return;
    baselined.current.public = true;
    if (!lastSeenPublic) setLastSeenPublic(newestComment(comments));
  }, [publicQuery.status, lastSeenPublic, setLastSeenPublic, comments]);
  useEffect(() => {
    if (ownQuery.status !== 'SUBSCRIBED' || baselined.current.private) return;
    baselined.current.private = true;
    if (!lastSeenPrivate) setLastSeenPrivate(newestComment(privateComments));
  }, [ownQuery.status, lastSeenPrivate, setLastSeenPrivate, privateComments]);

  return {
    loading: publicQuery.status === 'CONNECTING',
    comments,
    privateComments,
    unseen: unseenCommentCount(comments, lastSeenPublic),
    unseenPrivate: unseenCommentCount(privateComments, lastSeenPrivate),
    markSeen,
    banned: standingQuery.docs[0]?.banned === true,
    announcement: showChatQuery.docs[0]?.announcement?.text ?? null,
    slowModeSeconds: showChatQuery.docs[0]?.slowModeSeconds ?? 0,
  };
}
