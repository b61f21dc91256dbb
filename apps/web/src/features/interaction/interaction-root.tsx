import { accountEntry, commentsAllowed, forcesAnonymousUse } from '@vitrine/domain';
import type { LiveEvent, PlayerSettings } from '@vitrine/protocol';
import { memo, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useHostBridge } from '../host-bridge/host-bridge-context.tsx';
import { useAccountPrompt } from './account-prompt.tsx';
import { type ChatClosedReason, ChatPanel, PrivateChatPanel } from './chat-panel.tsx';
import { noticeDelayMs } from './competition-clock.ts';
import { Competitions } from './competitions-entry.tsx';
import { FlashDeals } from './flash-deal-entry.tsx';
import {
  type InteractionArgs,
  type InteractionModel,
  InteractionModelContext,
  PublishInteractionContext,
} from './interaction-context.ts';
import { useInteractionTranslation } from './interaction-i18n.ts';
import Notifications from './notifications.tsx';
import Reactions from './reactions.tsx';
import { withoutCheckout } from './return-paths.ts';
import { UnseenBadge } from './unseen-badge.tsx';
import { useChat } from './use-chat.ts';
import { useOptionalLiveQuery } from './use-optional-live-query.ts';
import { useViewer } from './use-viewer.ts';

function closedReason(event: LiveEvent, settings: PlayerSettings): ChatClosedReason {
  const status = event.event.currentStatus;
  if (commentsAllowed(status, settings)) return null;
  if (status === 'vod') return 'recording';
  return status === 'planned' ? 'notYetOpen' : 'turnedOff';
}

function useInteractionModel({
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
}: InteractionArgs): { model: InteractionModel; dialog: ReturnType<typeof useAccountPrompt>['element'] } {
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
  const closed = closedReason(event, settings);
  const currentNoticeDelayMs = useCallback(() => noticeDelayMs(videoRef.current, event), [videoRef, event]);
  const model = useMemo(
    (): InteractionModel => ({
      pageUid,
      campaignUid,
      event,
      chat,
      viewer,
      context,
      closedReason: closed,
      unseen: chat.unseen,
      unseenPrivate: chat.unseenPrivate,
      requestName,
      openAccount: entry ? () => void prompt.open(entry) : null,
      mobileTab,
      setMobileTab,
      notifications: notifications.docs,
      videoRef,
      noticeDelayMs: currentNoticeDelayMs,
      onOpenPrivate: () => {
        setMobileTab('private');
        onOpenPrivate();
      },
      onCommented: (text) => {
        track('user.commented');
        onCommentPosted(text);
      },
      track,
    }),
    [
      pageUid,
      campaignUid,
      event,
      chat,
      viewer,
      context,
      closed,
      requestName,
      entry,
      prompt.open,
      mobileTab,
      notifications.docs,
      videoRef,
      currentNoticeDelayMs,
      onOpenPrivate,
      onCommentPosted,
      track,
    ],
  );
  return { model, dialog: prompt.element };
}

/**
 * Builds what the interactive parts share and hands it to the provider above the player's layout;
 * renders the login and rename prompts where it is placed. Its props are stable, so the player
 * re-rendering does not re-render it: the model changes only when something here does.
 */
export const InteractionHub = memo(function InteractionHub(args: InteractionArgs) {
  const publish = useContext(PublishInteractionContext);
  const { model, dialog } = useInteractionModel(args);
  useLayoutEffect(() => publish(model), [publish, model]);
  return dialog;
});

/** Over the video: notifications, competitions and reactions. */
export function StageParts() {
  const model = useContext(InteractionModelContext);
  if (!model) return null;
  const { pageUid, campaignUid, viewer } = model;
  return (
    <div className="interaction-stage">
      {model.notifications.length > 0 && (
        <Notifications
          docs={model.notifications}
          noticeDelayMs={model.noticeDelayMs}
          onOpenPrivate={model.onOpenPrivate}
        />
      )}
      {/* Flash deals hook (issue 30 §3): the banner follows the stream clock like competitions. */}
      <FlashDeals pageUid={pageUid} campaignUid={campaignUid} event={model.event} videoRef={model.videoRef} />
      <Competitions
        pageUid={pageUid}
        campaignUid={campaignUid}
        viewer={viewer}
        event={model.event}
        videoRef={model.videoRef}
        noticeDelayMs={model.noticeDelayMs}
        requestName={model.requestName}
      />
      {model.event.event.currentStatus !== 'vod' && (
        <Reactions
          pageUid={pageUid}
          campaignUid={campaignUid}
          onReacted={() => model.track('user.reacted')}
        />
      )}
    </div>
  );
}

/** The chat (the Comments tab and the sheet's public list). */
export function PublicComments() {
  const model = useContext(InteractionModelContext);
  if (!model) return null;
  return (
    <ChatPanel
      chat={model.chat}
      viewer={model.viewer}
      pageUid={model.pageUid}
      campaignUid={model.campaignUid}
      context={model.context}
      closedReason={model.closedReason}
      requestName={model.requestName}
      openAccount={model.openAccount}
      onCommented={model.onCommented}
    />
  );
}

/** The viewer's private comments with the store. */
export function PrivateComments() {
  const model = useContext(InteractionModelContext);
  if (!model) return null;
  return (
    <PrivateChatPanel
      chat={model.chat}
      pageUid={model.pageUid}
      campaignUid={model.campaignUid}
      context={model.context}
    />
  );
}

/** Phones have no tabs: the comments sheet switches between the chat and the private comments. */
export function MobileComments() {
  const model = useContext(InteractionModelContext);
  const { t } = useInteractionTranslation();
  if (!model) return null;
  const { mobileTab: tab, setMobileTab: onTab } = model;
  return (
    <>
      <div className="chat-switch" role="tablist">
        <button type="button" role="tab" aria-selected={tab === 'public'} onClick={() => onTab('public')}>
          {t('player.tabs.comments')}
          {tab !== 'public' && <UnseenBadge count={model.unseen} />}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'private'} onClick={() => onTab('private')}>
          {t('player.tabs.privateComments')}
          {tab !== 'private' && <UnseenBadge count={model.unseenPrivate} />}
        </button>
      </div>
      {tab === 'public' ? <PublicComments /> : <PrivateComments />}
    </>
  );
}
