import type { ControlRoomLiveDoc, ControlRoomStats } from '@vitrine/protocol';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { createLiveQueryStore, type LiveQueryState } from '../../../lib/realtime/realtime-client.ts';
import { getRealtimeClient } from '../../../lib/realtime/use-live-query.ts';
import { subscriptionKey } from '../../../lib/realtime/wire.ts';
import { staffCall } from '../studio-api.ts';
import { latestFigures, type ReceivedFigures } from './room-figures.ts';

/** How often the room's timer moves on (the page's own clock: nothing is asked for). */
const TIMER_TICK_MS = 1000;

export interface RoomStats {
  stats: ControlRoomStats | null;
  /** The moderation board's fingerprint: the board is read again when it changes. */
  boardKey: string | null;
  /** Whether the room is listening: false until the first figures, and while the network is down. */
  connected: boolean;
  error: unknown;
  /** Reads the figures once when the live query is not there (it pushes changes made here itself). */
  refresh: () => void;
  /** The server's clock now, as the last figures set it (the room's timer counts on it). */
  serverNow: number;
  /** Counts the network's returns: the page reads again what the live query does not carry. */
  reconnects: number;
}

const WAITING: LiveQueryState<never> = Object.freeze({ status: 'CONNECTING', docs: [] });
const idle = { subscribe: () => () => undefined, getSnapshot: () => WAITING };

/**
 * The room's numbers, as the `controlRoom` live query pushes them when they change (issue 33
 * §10: the room listens instead of asking every second). `withRevenue` is what the caller may see
 * (null until the room says so: nothing is subscribed yet). When the network comes back, one
 * fallback read (the GET call) restores the figures at once, whatever the socket is doing.
 */
export function useRoomStats(pageUid: string, showUid: string, withRevenue: boolean | null): RoomStats {
  const params = withRevenue === null ? null : { pageUid, showUid, withRevenue };
  const key = params ? subscriptionKey('controlRoom', params) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for the params.
  const store = useMemo(
    () =>
      params ? createLiveQueryStore<ControlRoomLiveDoc>(getRealtimeClient(), 'controlRoom', params) : idle,
    [key],
  );
  const live = useSyncExternalStore(
    store.subscribe,
    store.getSnapshot,
    store.getSnapshot,
  ) as LiveQueryState<ControlRoomLiveDoc>;
  const [received, setReceived] = useState<ReceivedFigures | null>(null);
  const [fetchError, setFetchError] = useState<unknown>(null);
  const [lost, setLost] = useState(false);
  const [reconnects, setReconnects] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const lostRef = useRef(false);

  const doc = live.docs[0] ?? null;
  /**
   * A reading that arrives ends a network drop, but only while the browser is online: one the page
   * handles after the drop may have been sent before it (a busy page ran a push a moment late, and
   * the badge went before anyone saw it), so it says nothing of the network now.
   */
  const endDrop = useCallback(() => {
    if (!lostRef.current || !navigator.onLine) return;
    lostRef.current = false;
    setLost(false);
  }, []);
  // Each new state of the live query (a push, or the answer to a resubscribe) says it is listening.
  useEffect(() => {
    if (live.status !== 'SUBSCRIBED') return;
    if (doc) setReceived((current) => latestFigures(current, { figures: doc, receivedAt: Date.now() }));
    endDrop();
  }, [live, doc, endDrop]);

  const fetchOnce = useCallback(async () => {
    try {
      const figures = await staffCall('getControlRoomStats', { params: { pageUid, showUid } });
      setReceived((current) => latestFigures(current, { figures, receivedAt: Date.now() }));
      setFetchError(null);
      endDrop();
    } catch (failure) {
      setFetchError(failure);
    }
  }, [pageUid, showUid, endDrop]);

  useEffect(() => {
    const onOffline = () => {
      lostRef.current = true;
      setLost(true);
    };
    // Back online: the socket reconnects and resumes by itself; one read fills the gap meanwhile.
    const onOnline = () => {
      setReconnects((count) => count + 1);
      void fetchOnce();
    };
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    const clock = setInterval(() => setNow(Date.now()), TIMER_TICK_MS);
    return () => {
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
      clearInterval(clock);
    };
  }, [fetchOnce]);

  // The live query refused or gave up (TIMED_OUT): one read, so the room still shows its figures.
  const failed = live.status === 'ERROR' || live.status === 'TIMED_OUT';
  useEffect(() => {
    if (failed) void fetchOnce();
  }, [failed, fetchOnce]);

  const refresh = useCallback(() => {
    if (failed) void fetchOnce();
  }, [failed, fetchOnce]);

  const stats = received?.figures ?? null;
  return {
    stats,
    boardKey: doc?.boardKey ?? null,
    connected: stats !== null && !lost && live.status === 'SUBSCRIBED',
    error: live.error ?? fetchError,
    refresh,
    serverNow: received ? now + received.figures.at - received.receivedAt : now,
    reconnects,
  };
}
