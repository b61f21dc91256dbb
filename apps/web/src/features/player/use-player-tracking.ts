import { CURRENCY_BY_LOCALE, type StreamType, trackingEventStatus } from '@vitrine/domain';
import type { EventProduct, LiveEvent } from '@vitrine/protocol';
import { WATCH_HEARTBEAT_EVENT } from '@vitrine/protocol/vocabulary';
import { type RefObject, useCallback, useMemo } from 'react';
import { isTrackingDisabled, type TrackingContext, track } from '../../lib/tracking.ts';
import { useLocale } from '../../lib/use-locale.ts';
import type { HostBridgeView } from '../host-bridge/host-bridge-context.tsx';

/** Analytics fields of a watch heartbeat (see use-watch-heartbeat.ts). */
export type WatchDetails = Pick<
  Parameters<typeof track>[2] & object,
  'playback' | 'watchedSeconds' | 'delayMs'
>;

export type TrackPlayer = (
  name: Parameters<typeof track>[0],
  product?: EventProduct,
  watch?: WatchDetails,
) => void;

export interface PlayerTrackingInput {
  pageUid: string;
  campaignUid: string;
  event: LiveEvent;
  stream: StreamType;
  checkoutUid: string | null;
  videoRef: RefObject<HTMLVideoElement | null>;
  activeUid: string | null;
  host: Pick<HostBridgeView, 'embedded' | 'send'>;
}

/**
 * The player's tracking call (spec §6): each event with the show's context, the video time and
 * the product on screen; an embedded player also tells its host page, which filters what it
 * asked for (see isHostMessageAllowed).
 */
export function usePlayerTracking(input: PlayerTrackingInput): TrackPlayer {
  const { pageUid, campaignUid, event, stream, checkoutUid, videoRef, activeUid } = input;
  const { embedded, send: sendToHost } = input.host;
  const { locale } = useLocale();
  const trackingContext: TrackingContext = useMemo(
    () => ({
      pageUid,
      campaignUid,
      eventUid: event.id,
      eventStatus: trackingEventStatus(event, stream === 'live'),
      currency: CURRENCY_BY_LOCALE[locale],
      userUid: null,
      checkoutUid,
    }),
    [pageUid, campaignUid, event, stream, locale, checkoutUid],
  );
  return useCallback(
    (name, product, watch) => {
      const trackingInfo: Record<string, string> = product
        ? { productUid: product.productUid, eventProductUid: product.uid }
        : {};
      track(name, trackingContext, {
        videoAbsoluteTime: videoRef.current?.currentTime ?? null,
        playingProducts: activeUid ? [activeUid] : [],
        trackingInfo,
        ...watch,
      });
      // The host page hears the events of spec §7, not our heartbeats; under the browser plugin's
      // marker nobody hears them (spec §6: tracking is off there, the host's share too).
      if (embedded && name !== WATCH_HEARTBEAT_EVENT && !isTrackingDisabled())
        sendToHost('track_event', { trackingEvent: name, trackingInfo });
    },
    [trackingContext, videoRef, activeUid, embedded, sendToHost],
  );
}
