import type { LiveEvent, PlayerSettings } from '@vitrine/protocol';
import { lazy, type ReactNode, type RefObject, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
import { loadInteractionTexts, useInteractionTranslation } from './interaction-i18n.ts';
import { LazyPart } from './lazy-part.tsx';
import { useOptionalLiveQuery } from './use-optional-live-query.ts';
import { useSessionUser } from './use-viewer.ts';
import './chat.css';

// The parts' code and texts load together, so nothing renders before its words are there.
const InteractionRoot = lazy(() =>
  Promise.all([import('./interaction-root.tsx'), loadInteractionTexts()]).then(([module]) => module),
);

export type Track = (name: 'user.commented' | 'user.reacted') => void;

/** What the player tells the interactive parts. */
export interface InteractionArgs {
  pageUid: string;
  campaignUid: string;
  event: LiveEvent;
  settings: PlayerSettings;
  videoRef: RefObject<HTMLVideoElement | null>;
  commentsVisible: boolean;
  privateVisible: boolean;
  onOpenPrivate(): void;
  /** The viewer posted this public comment (product codes in it go to the cart, spec §4). */
  onCommentPosted(text: string): void;
  track: Track;
}

/** The pieces the player places: counts for its tabs, panels, what goes over the video, the dialog. */
export interface InteractionParts {
  unseen: number;
  unseenPrivate: number;
  commentsPanel: ReactNode;
  privatePanel: ReactNode;
  mobileComments: ReactNode;
  stage: ReactNode;
  dialog: ReactNode;
}

const NOTHING_YET: InteractionParts = {
  unseen: 0,
  unseenPrivate: 0,
  commentsPanel: null,
  privatePanel: null,
  mobileComments: null,
  stage: null,
  dialog: null,
};

function createPartsStore() {
  let parts = NOTHING_YET;
  const listeners = new Set<() => void>();
  return {
    get: () => parts,
    set(next: InteractionParts) {
      parts = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** A count of unseen entries on a tab or menu button, announced with its meaning. */
export function UnseenBadge({ count }: { count: number }) {
  // Checked before any hook: an empty badge must not load the interaction texts.
  return count > 0 ? <UnseenCount count={count} /> : null;
}

function UnseenCount({ count }: { count: number }) {
  const { t } = useInteractionTranslation();
  return (
    <span className="tab-unseen" role="status" aria-label={t('interaction.comments.unseen', { count })}>
      {count > 99 ? '99+' : count}
    </span>
  );
}

/**
 * Whether the interactive parts are needed yet. A live or planned show has its chat and
 * reactions from the start; a recording takes neither, so its code loads only when there is
 * something to show (replayed bulk comments, a notification, a competition) or the viewer
 * opens the comments. Once needed, always needed.
 */
function useNeeded(args: InteractionArgs): boolean {
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

/**
 * Everything interactive the show player shows (spec §2 show player, §4 "Comments"): the chat
 * and private comments panels with their unseen counts, reactions, notifications, competitions,
 * and the login and rename prompts. The player places the pieces it gets back; their code
 * (features/interaction/interaction-root.tsx) loads on demand.
 */
export function useInteraction(args: InteractionArgs): InteractionParts {
  const store = useMemo(createPartsStore, []);
  const parts = useSyncExternalStore(store.subscribe, store.get, store.get);
  const latest = useRef(args);
  latest.current = args;
  // Stable callbacks, so the player's re-renders do not re-render the parts.
  const callbacks = useMemo(
    () => ({
      onOpenPrivate: () => latest.current.onOpenPrivate(),
      onCommentPosted: (text: string) => latest.current.onCommentPosted(text),
      track: (name: Parameters<Track>[0]) => latest.current.track(name),
    }),
    [],
  );
  const needed = useNeeded(args);
  const root = needed ? (
    <LazyPart name="the chat and live interaction">
      <InteractionRoot
        pageUid={args.pageUid}
        campaignUid={args.campaignUid}
        event={args.event}
        settings={args.settings}
        videoRef={args.videoRef}
        commentsVisible={args.commentsVisible}
        privateVisible={args.privateVisible}
        onOpenPrivate={callbacks.onOpenPrivate}
        onCommentPosted={callbacks.onCommentPosted}
        track={callbacks.track}
        publish={store.set}
      />
    </LazyPart>
  ) : null;
  return {
    ...parts,
    stage: (
      <>
        {root}
        {parts.stage}
      </>
    ),
  };
}
