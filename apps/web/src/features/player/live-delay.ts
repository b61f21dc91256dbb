import { liveDelayMs } from '@vitrine/domain';
import { type RefObject, useEffect, useState } from 'react';
import { playingDateOf } from './live-clock.ts';

const DELAY_SAMPLE_MS = 1000;

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
      const video = videoRef.current;
      const playingDate = playingDateOf(video);
      setDelay(playingDate === null || !video || video.paused ? null : liveDelayMs(playingDate, Date.now()));
    };
    const timer = window.setInterval(sample, DELAY_SAMPLE_MS);
    return () => window.clearInterval(timer);
  }, [videoRef, enabled]);
  return delay;
}
