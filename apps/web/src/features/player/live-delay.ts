import { LIVE_DELAY_SAMPLE_MS, liveDelayMs } from '@vitrine/domain';
import { type RefObject, useEffect, useState } from 'react';
import { playingDateOf } from '../../lib/live-clock.ts';

/**
 * The delay of a playing live video now (as useLiveDelay samples it), or null when it plays no
 * stream with program date times or is paused: what the watch heartbeat reports to the studio.
 */
export function currentLiveDelayMs(video: HTMLVideoElement | null): number | null {
  const playingDate = playingDateOf(video);
  return playingDate === null || !video || video.paused ? null : liveDelayMs(playingDate, Date.now());
}

/**
 * The delay this viewer has behind the server's clock, `Date.now() − playingDate` in ms, sampled
 * every second while the video plays a stream with program date times; null otherwise. Analytics
 * and the control room report it; the player shows it on its stage for them and for tests.
 */
export function useLiveDelay(videoRef: RefObject<HTMLVideoElement | null>, enabled: boolean): number | null {
  const [delay, setDelay] = useState<number | null>(null);
  useEffect(() => {
    if (!enabled) {
      setDelay(null);
      return;
    }
    const sample = () => {
      setDelay(currentLiveDelayMs(videoRef.current));
    };
    const timer = window.setInterval(sample, LIVE_DELAY_SAMPLE_MS);
    return () => window.clearInterval(timer);
  }, [videoRef, enabled]);
  return delay;
}
