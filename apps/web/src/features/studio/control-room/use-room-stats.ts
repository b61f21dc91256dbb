import type { ControlRoomStats } from '@vitrine/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { staffCall } from '../studio-api.ts';

/** How often the room's numbers are asked for (issue 16: refreshed every second). */
export const ROOM_STATS_INTERVAL_MS = 1000;
/** Without an answer for this long, the room says it is reconnecting. */
const STALE_AFTER_MS = 3500;

export interface RoomStats {
  stats: ControlRoomStats | null;
  /** Whether the last answer is recent: false while the network is down. */
  connected: boolean;
  error: unknown;
  /** Asks at once (after an action of this page). */
  refresh: () => void;
}

/**
 * The room's numbers, asked for every second, one request at a time. After a network drop it goes
 * on asking, and the next answer restores everything (the numbers, the presented products, the
 * line-up's state); coming back online or to the tab asks at once.
 */
export function useRoomStats(pageUid: string, showUid: string): RoomStats {
  const [stats, setStats] = useState<ControlRoomStats | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [lastAnswer, setLastAnswer] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const ask = useRef<() => void>(() => {});

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let inFlight = false;
    const poll = async () => {
      if (stopped || inFlight) return;
      inFlight = true;
      if (timer !== null) clearTimeout(timer);
      try {
        const answer = await staffCall('getControlRoomStats', { params: { pageUid, showUid } });
        if (stopped) return;
        setStats(answer);
        setError(null);
        setLastAnswer(Date.now());
      } catch (failure) {
        if (!stopped) setError(failure);
      } finally {
        inFlight = false;
        setNow(Date.now());
        if (!stopped) timer = setTimeout(() => void poll(), ROOM_STATS_INTERVAL_MS);
      }
    };
    ask.current = () => void poll();
    const onVisible = () => {
      if (document.visibilityState === 'visible') void poll();
    };
    window.addEventListener('online', ask.current);
    document.addEventListener('visibilitychange', onVisible);
    void poll();
    return () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      window.removeEventListener('online', ask.current);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [pageUid, showUid]);

  const refresh = useCallback(() => ask.current(), []);
  return { stats, connected: stats !== null && now - lastAnswer < STALE_AFTER_MS, error, refresh };
}
