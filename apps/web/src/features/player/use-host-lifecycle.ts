import type { StreamType } from '@vitrine/domain';
import type { LiveEvent, PlayerSettings } from '@vitrine/protocol';
import { type Dispatch, type RefObject, useEffect } from 'react';
import { type HostBridgeView, useHostCommand } from '../host-bridge/host-bridge-context.tsx';
import { useHostViewMessages } from '../host-bridge/use-host-view-messages.ts';
import { usePlaybackPosition } from '../host-bridge/use-playback-position.ts';
import type { LayoutAction } from './player-layout.ts';
import type { TrackPlayer } from './use-player-tracking.ts';

export interface HostLifecycleInput {
  host: HostBridgeView;
  pageUid: string;
  campaignUid: string;
  event: LiveEvent;
  settings: PlayerSettings;
  stream: StreamType;
  /** Whether the event's products are in (a playlist loads them after the event). */
  productsLoaded: boolean;
  videoRef: RefObject<HTMLVideoElement | null>;
  minimized: boolean;
  dispatch: Dispatch<LayoutAction>;
  trackPlayer: TrackPlayer;
}

export interface PlayerWindowControls {
  minimize(): void;
  maximize(): void;
  close(): void;
}

/**
 * The player's life on a host page (spec §4 host messaging): player_ready with where the
 * minimized player goes, content_loaded and video_ready, the playback position, the view
 * messages, and the host's close, minimize and share commands. Returns the player's own
 * minimize, maximize and close, which tell the host.
 */
export function useHostLifecycle(input: HostLifecycleInput): PlayerWindowControls {
  const { host, pageUid, campaignUid, event, settings, productsLoaded, videoRef } = input;
  const { minimized, dispatch, trackPlayer } = input;
  const { ready, announce, embedded, send: sendToHost } = host;
  const { minimizedHorizontalPosition, minimizedVerticalPosition } = settings;
  const { minimizedHorizontalMargin, minimizedVerticalMargin } = settings;
  useEffect(() => {
    ready({
      pageUid,
      campaignUid,
      eventUid: event.id,
      // The SDK puts the minimized player where the page's settings say, unless the host chose.
      minimizedBox: {
        horizontal: minimizedHorizontalPosition,
        vertical: minimizedVerticalPosition,
        horizontalMargin: minimizedHorizontalMargin,
        verticalMargin: minimizedVerticalMargin,
      },
    });
  }, [
    ready,
    pageUid,
    campaignUid,
    event.id,
    minimizedHorizontalPosition,
    minimizedVerticalPosition,
    minimizedHorizontalMargin,
    minimizedVerticalMargin,
  ]);
  useEffect(() => {
    if (productsLoaded) announce('content_loaded', event.id);
  }, [announce, productsLoaded, event.id]);
  useEffect(() => {
    const video = videoRef.current;
    if (!video || !embedded) return;
    const onLoaded = () => announce('video_ready', event.id);
    if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) onLoaded();
    video.addEventListener('loadeddata', onLoaded);
    return () => video.removeEventListener('loadeddata', onLoaded);
  }, [announce, embedded, event.id, videoRef]);

  usePlaybackPosition(videoRef, host, {
    campaignUid: event.event.campaignId,
    eventUid: event.id,
    live: input.stream === 'live',
  });
  useHostViewMessages(host);

  const minimize = (fromHost: boolean) => {
    if (minimized) return;
    dispatch({ type: 'setMinimized', minimized: true });
    if (!fromHost) sendToHost('minimize', {});
    trackPlayer('player.minimized');
  };
  useHostCommand((command) => {
    switch (command.type) {
      case 'close':
        // The host closes the player itself; it only has to stop playing.
        videoRef.current?.pause();
        break;
      case 'minimize':
        minimize(true);
        break;
      case 'share':
        dispatch({ type: 'openMobilePanel', panel: 'share' });
        break;
    }
  });
  return {
    minimize: () => minimize(false),
    maximize: () => {
      dispatch({ type: 'setMinimized', minimized: false });
      sendToHost('maximize', {});
      trackPlayer('player.maximized');
    },
    close: () => {
      videoRef.current?.pause();
      trackPlayer('player.closed');
      sendToHost('close', {});
    },
  };
}
