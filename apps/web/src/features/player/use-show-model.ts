import { pricesHidden, type ShowState, type StreamType, showState, streamType } from '@vitrine/domain';
import type { EventProduct, LiveEvent, PlayerSettings } from '@vitrine/protocol';
import { useEffect, useRef, useState } from 'react';
import { useLiveQuery } from '../../lib/realtime/use-live-query.ts';
import type { ShowData } from './show-loader.ts';

/** How often the show state is re-checked against the clock (deadline passing, planned start). */
const CLOCK_TICK_MS = 15_000;

function useClock(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export interface ShowModel {
  /** The event as it is now: the live document once subscribed, the loader's until then. */
  event: LiveEvent;
  products: readonly EventProduct[];
  settings: PlayerSettings;
  /** The clock the show state was derived at (ticks every CLOCK_TICK_MS). */
  now: number;
  state: ShowState;
  stream: StreamType;
  hidePrices: boolean;
  /** The video played to its end (the show state turns ended). */
  setVideoEnded(ended: boolean): void;
}

/**
 * The show the player plays (spec §2 show player): the event, its products and the page's
 * player settings, live once their queries answer, and the show state and stream type they give.
 */
export function useShowModel(loaded: ShowData): ShowModel {
  const liveEvents = useLiveQuery('liveEvents.byId', { ids: [loaded.event.id] });
  const event: LiveEvent =
    (liveEvents.status === 'SUBSCRIBED'
      ? liveEvents.docs.find((doc) => doc.docId === loaded.event.id)
      : undefined) ?? loaded.event;
  const liveProducts = useLiveQuery('liveEventProducts', { eventId: loaded.event.id });
  const products: readonly EventProduct[] =
    liveProducts.status === 'SUBSCRIBED' ? liveProducts.docs : loaded.products;
  const liveSettings = useLiveQuery('playerSettings', { pageUid: loaded.pageUid });
  const settings: PlayerSettings = liveSettings.docs[0] ?? loaded.playerSettings;

  const [videoEnded, setVideoEnded] = useState(false);
  const now = useClock(CLOCK_TICK_MS);
  const state = showState(event, now, videoEnded);
  // Kept across renders: a live stream stays live when its video turns into a recording (spec §4).
  const streamTypeRef = useRef<StreamType | null>(null);
  streamTypeRef.current = streamType(event, streamTypeRef.current);
  const stream = streamTypeRef.current;
  return {
    event,
    products,
    settings,
    now,
    state,
    stream,
    hidePrices: pricesHidden(state, settings.hidePrices),
    setVideoEnded,
  };
}
