import {
  accountEntry,
  broadcastDelayMs,
  cdnDelayMs,
  commentsAllowed,
  forcesAnonymousUse,
} from '@vitrine/domain';
import type { LiveEvent, PlayerSettings } from '@vitrine/protocol';
import { memo, type ReactNode, useCallback, useEffect, useLayoutEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useHostBridge } from '../host-bridge/host-bridge-context.tsx';
import { useAccountPrompt } from './account-prompt.tsx';
import { type ChatClosedReason, ChatPanel, PrivateChatPanel } from './chat-panel.tsx';
import { Competitions } from './competitions-entry.tsx';
import { useInteractionTranslation } from './interaction-i18n.ts';
import Notifications from './notifications.tsx';
import Reactions from './reactions.tsx';
import { withoutCheckout } from './return-paths.ts';
import { useChat } from './use-chat.ts';
import { type InteractionArgs, type InteractionParts, UnseenBadge } from './use-interaction.tsx';
import { useOptionalLiveQuery } from './use-optional-live-query.ts';
import { useViewer } from './use-viewer.ts';

function closedReason(event: LiveEvent, settings: PlayerSettings): ChatClosedReason {
  const status = event.event.currentStatus;
  if (commentsAllowed(status, settings)) return null;
  if (status === 'vod') return 'recording';
  return status === 'planned' ? 'notYetOpen' : 'turnedOff';
}

/**
 * Everything interactive the show player shows (spec §2 show player, §4 "Comments"): the chat
 * and private comments panels with their unseen counts, reactions, notifications, competitions,
 * and the login and rename prompts.
 */
function useInteractionParts({
  pageUid,
  campaignUid,
  event,
  settings,
  videoRef,
  commentsVisible,
  privateVisible,
  onOpenPrivate,
  onCommentPosted,
  track,
}: InteractionArgs): InteractionParts {
  const viewer = useViewer();
  const chat = useChat({ pageUid, campaignUid, userUid: viewer?.uid ?? null, event, videoRef });
  const navigate = useNavigate();
  const { checkoutUid } = useParams();
  const onLoggedOut = useCallback(() => {
    const target = withoutCheckout(window.location.pathname, checkoutUid);
    if (target) void navigate({ pathname: target, search: window.location.search }, { replace: true });
  }, [checkoutUid, navigate]);
  // on_site, own-brand and store-offers force anonymous use (spec §1): only a name is ever asked.
  const { context } = useHostBridge();
  const prompt = useAccountPrompt({
    onLoggedOut,
    pageUid,
    campaignUid,
    anonymousOnly: forcesAnonymousUse(context),
  });
  const entry = accountEntry(context, viewer);
  const [mobileTab, setMobileTab] = useState<'public' | 'private'>('public');
  const notifications = useOptionalLiveQuery(
    'notifications',
    viewer ? { userUid: viewer.uid, campaignUid } : null,
  );

  // While a list is on screen everything in it is seen; what arrives while hidden is counted.
  const { markSeen } = chat;
  useEffect(() => {
    if (commentsVisible && mobileTab === 'public') markSeen('public');
  }, [commentsVisible, mobileTab, markSeen]);
  useEffect(() => {
    if (privateVisible || (commentsVisible && mobileTab === 'private')) markSeen('private');
  }, [privateVisible, commentsVisible, mobileTab, markSeen]);

  const requestName = useCallback(() => prompt.open('name'), [prompt.open]);
  const reason = closedReason(event, settings);
  const commentsPanel = (
    <ChatPanel
      chat={chat}
      viewer={viewer}
      pageUid={pageUid}
      campaignUid={campaignUid}
      context={context}
      closedReason={reason}
      requestName={requestName}
      openAccount={entry ? () => void prompt.open(entry) : null}
      onCommented={(text) => {
        track('user.commented');
        onCommentPosted(text);
      }}
    />
  );
  const privatePanel = (
    <PrivateChatPanel chat={chat} pageUid={pageUid} campaignUid={campaignUid} context={context} />
  );
  const videoDelayMs = broadcastDelayMs(event) + cdnDelayMs(event);

  return {
    unseen: chat.unseen,
    unseenPrivate: chat.unseenPrivate,
    commentsPanel,
    privatePanel,
    mobileComments: (
      <MobileChat
        tab={mobileTab}
        onTab={setMobileTab}
        unseen={chat.unseen}
        unseenPrivate={chat.unseenPrivate}
        publicPanel={commentsPanel}
        privatePanel={privatePanel}
      />
    ),
    stage: (
      <div className="interaction-stage">
        {notifications.docs.length > 0 && (
          <Notifications
            docs={notifications.docs}
            videoDelayMs={videoDelayMs}
            onOpenPrivate={() => {
              setMobileTab('private');
              onOpenPrivate();
            }}
          />
        )}
        <Competitions
          pageUid={pageUid}
          campaignUid={campaignUid}
          viewer={viewer}
          videoDelayMs={videoDelayMs}
          requestName={requestName}
        />
        {event.event.currentStatus !== 'vod' && (
          <Reactions pageUid={pageUid} campaignUid={campaignUid} onReacted={() => track('user.reacted')} />
        )}
      </div>
    ),
    dialog: prompt.element,
  };
}

/** Phones have no tabs: the comments sheet switches between the chat and the private comments. */
function MobileChat({
  tab,
  onTab,
  unseen,
  unseenPrivate,
  publicPanel,
  privatePanel,
}: {
  tab: 'public' | 'private';
  onTab(tab: 'public' | 'private'): void;
  unseen: number;
  unseenPrivate: number;
  publicPanel: ReactNode;
  privatePanel: ReactNode;
}) {
  const { t } = useInteractionTranslation();
  return (
    <>
      <div className="chat-switch" role="tablist">
        <button type="button" role="tab" aria-selected={tab === 'public'} onClick={() => onTab('public')}>
          {t('player.tabs.comments')}
          {tab !== 'public' && <UnseenBadge count={unseen} />}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'private'} onClick={() => onTab('private')}>
          {t('player.tabs.privateComments')}
          {tab !== 'private' && <UnseenBadge count={unseenPrivate} />}
        </button>
      </div>
      {tab === 'public' ? publicPanel : privatePanel}
    </>
  );
}

/**
 * Builds the interactive parts and hands them to the player (useInteraction places them). Its
 * props are stable, so the player re-rendering with new parts does not re-render this: parts are
 * published only when something here changes.
 */
const InteractionRoot = memo(function InteractionRoot({
  publish,
  ...args
}: InteractionArgs & { publish(parts: InteractionParts): void }) {
  const parts = useInteractionParts(args);
  useLayoutEffect(() => publish(parts));
  return null;
});

export default InteractionRoot;
