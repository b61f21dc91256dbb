import { type ComponentType, lazy, type ReactNode, useContext, useMemo, useRef, useState } from 'react';
import { afterFirstPaint } from '../../lib/after-next-paint.ts';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
import {
  type InteractionArgs,
  type InteractionModel,
  InteractionModelContext,
  PublishInteractionContext,
  type Track,
} from './interaction-context.ts';
import { loadInteractionTexts } from './interaction-i18n.ts';
import { LazyPart } from './lazy-part.tsx';
import { UnseenBadge } from './unseen-badge.tsx';
import { useOptionalLiveQuery } from './use-optional-live-query.ts';
import { useSessionUser } from './use-viewer.ts';
import './chat.css';

// The parts' code and texts load together, so nothing renders before its words are there. Every
// slot comes from the same chunk (interaction-root.tsx): the first to render loads them all, once
// the player's first view (its poster, the page's largest paint) is on screen: on a phone's slow
// line their ~13 KB (six files) no longer come before that picture.
const loadRoot = () =>
  afterFirstPaint()
    .then(() => Promise.all([import('./interaction-root.tsx'), loadInteractionTexts()]))
    .then(([module]) => module);
const InteractionHub = lazy(() => loadRoot().then((module) => ({ default: module.InteractionHub })));
const StageParts = lazy(() => loadRoot().then((module) => ({ default: module.StageParts })));
const PublicComments = lazy(() => loadRoot().then((module) => ({ default: module.PublicComments })));
const PrivateComments = lazy(() => loadRoot().then((module) => ({ default: module.PrivateComments })));
const MobileComments = lazy(() => loadRoot().then((module) => ({ default: module.MobileComments })));

/**
 * Holds what the interactive parts share, for the slots and tabs under it. It wraps the player's
 * layout; its children do not re-render when the model changes, only what reads it.
 */
export function InteractionProvider({ children }: { children: ReactNode }) {
  const [model, setModel] = useState<InteractionModel | null>(null);
  return (
    <PublishInteractionContext.Provider value={setModel}>
      <InteractionModelContext.Provider value={model}>{children}</InteractionModelContext.Provider>
    </PublishInteractionContext.Provider>
  );
}

/**
 * The interactive parts' hub: it builds what they share and shows the login and rename prompts, so
 * the player places it where its dialog goes. Its callbacks stay the same across the player's
 * re-renders, so those do not re-render the parts.
 */
export function InteractionHubSlot(args: InteractionArgs) {
  const latest = useRef(args);
  latest.current = args;
  const callbacks = useMemo(
    () => ({
      onOpenPrivate: () => latest.current.onOpenPrivate(),
      onCommentPosted: (text: string) => latest.current.onCommentPosted(text),
      track: (name: Parameters<Track>[0]) => latest.current.track(name),
    }),
    [],
  );
  return (
    <LazyPart name="the chat and live interaction">
      <InteractionHub
        pageUid={args.pageUid}
        campaignUid={args.campaignUid}
        event={args.event}
        settings={args.settings}
        videoRef={args.videoRef}
        commentsVisible={args.commentsVisible}
        privateVisible={args.privateVisible}
        {...callbacks}
      />
    </LazyPart>
  );
}

/** A place in the player's layout for one of the parts, which loads (and may fail) on its own. */
function slot(name: string, Part: ComponentType) {
  return function Slot() {
    return (
      <LazyPart name={name}>
        <Part />
      </LazyPart>
    );
  };
}

/** Over the video: notifications, competitions and reactions. */
export const InteractionStageSlot = slot('the live interaction', StageParts);

/** The Comments tab's body. */
export const CommentsSlot = slot('the chat', PublicComments);

/** The Private comments tab's body. */
export const PrivateCommentsSlot = slot('the private comments', PrivateComments);

/** The phone's comments sheet: the chat and the private comments behind a switch. */
export const MobileCommentsSlot = slot('the comments sheet', MobileComments);

/** The unseen count of the public or the private comments, for a tab or menu button. */
export function TabUnseen({ list }: { list: 'public' | 'private' }) {
  const model = useContext(InteractionModelContext);
  if (!model) return null;
  return <UnseenBadge count={list === 'public' ? model.unseen : model.unseenPrivate} />;
}

/**
 * Whether the interactive parts are needed yet. A live or planned show has its chat and
 * reactions from the start; a recording takes neither, so its code loads only when there is
 * something to show (replayed bulk comments, a notification, a competition) or the viewer
 * opens the comments. Once needed, always needed.
 */
export function useInteractionNeeded(
  args: Pick<InteractionArgs, 'pageUid' | 'campaignUid' | 'event' | 'commentsVisible' | 'privateVisible'>,
): boolean {
  const { pageUid, campaignUid, event } = args;
  const isRecording = event.event.currentStatus === 'vod';
  const user = useSessionUser();
  const bulk = useOptionalLiveQuery('bulkComments', isRecording ? { pageUid, campaignUid } : null);
  const notifications = useOptionalLiveQuery(
    'notifications',
    isRecording && user ? { userUid: user.uid, campaignUid } : null,
  );
  const presentation = useLiveQuery('campaignPresentations', { pageUid, campaignUid });
  const needed =
    !isRecording ||
    args.commentsVisible ||
    args.privateVisible ||
    (bulk.docs[0]?.questions.length ?? 0) > 0 ||
    notifications.docs.length > 0 ||
    (presentation.docs[0]?.competitions ?? []).some((competition) => competition.showOnsite);
  const [wanted, setWanted] = useState(needed);
  if (needed && !wanted) setWanted(true);
  return wanted || needed;
}
