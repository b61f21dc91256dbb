import type { StreamType } from '@vitrine/domain';
import { WATCH_HEARTBEAT_EVENT, WATCH_HEARTBEAT_INTERVAL_MS } from '@vitrine/protocol/vocabulary';
import { type RefObject, useEffect, useRef } from 'react';
import { listenTo } from '../../lib/listen-to.ts';
import { CAUGHT_UP_EVENT } from '../../lib/live-clock.ts';
import { flush as flushTracking } from '../../lib/tracking.ts';
import type { TrackPlayer } from './use-player-tracking.ts';

/** A heartbeat never claims more than this many seconds (the server's limit). */
const MAX_WATCHED_SECONDS = 60;

/**
 * The watch heartbeat of show analytics: while the video plays, every 30 s the player says how
 * many seconds it played since the last one, live or replay; a pause or leaving sends what is
 * left, so watch time adds up without a gap. Seconds are counted from the video's own clock
 * ('timeupdate'), so a stalled or backgrounded video counts nothing. The viewer delay (delayMs)
 * is sent when the player knows it (`delayMs()`; null until the live player exposes it). When the
 * page is hidden or closed (visibilitychange, pagehide) the seconds since the last heartbeat leave
 * at once, by keepalive fetch, so closing the tab loses none of the last 30 s (issue 33 item 12).
 * When the live player brings a viewer back to live (CAUGHT_UP_EVENT) a heartbeat leaves at once
 * too, so the studio's viewer delay (each viewer's latest report) shows her delay after catch-up.
 */
export function useWatchHeartbeat(
  videoRef: RefObject<HTMLVideoElement | null>,
  stream: StreamType,
  trackPlayer: TrackPlayer,
  delayMs: () => number | null = () => null,
): void {
  const latest = useRef({ trackPlayer, delayMs, stream });
  latest.current = { trackPlayer, delayMs, stream };

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new stream can bring a new video element (a planned show going live), whose listeners are set again.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let watched = 0;
    let lastTime: number | null = null;
    let timer: ReturnType<typeof setInterval> | null = null;

    const send = () => {
      const seconds = Math.min(MAX_WATCHED_SECONDS, Math.round(watched * 10) / 10);
      watched = 0;
      const { trackPlayer: trackNow, delayMs: delayNow, stream: streamNow } = latest.current;
      // A hidden tab's player runs on the browser's throttled timers and nobody sees its picture:
      // its delay says how the browser throttles, not how far behind viewers are (it catches up
      // when the tab comes back, and reports then).
      const delay = document.visibilityState === 'hidden' ? null : delayNow();
      trackNow(WATCH_HEARTBEAT_EVENT, undefined, {
        playback: streamNow === 'live' ? 'live' : 'replay',
        watchedSeconds: seconds,
        delayMs: delay === null ? null : Math.max(0, Math.round(delay)),
      });
    };
    const onTime = () => {
      const time = video.currentTime;
      // A seek jumps more than a frame's worth: it is not watching.
      if (lastTime !== null && time > lastTime && time - lastTime < 2) watched += time - lastTime;
      lastTime = time;
    };
    const onPlaying = () => {
      lastTime = video.currentTime;
      if (timer === null) {
        send();
        timer = setInterval(send, WATCH_HEARTBEAT_INTERVAL_MS);
      }
    };
    const onStop = () => {
      if (timer === null) return;
      clearInterval(timer);
      timer = null;
      if (watched > 0) send();
    };
    // The page going away: what was watched since the last heartbeat leaves now; a video that
    // plays on in a hidden tab keeps its timer and counts on from zero.
    const onHide = () => {
      if (watched > 0) {
        send();
        flushTracking();
      }
    };
    const onCaughtUp = () => {
      if (timer !== null) send();
    };
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') onHide();
    };
    const stopListening = [
      listenTo(video, {
        timeupdate: onTime,
        playing: onPlaying,
        pause: onStop,
        ended: onStop,
        [CAUGHT_UP_EVENT]: onCaughtUp,
      }),
      listenTo(document, { visibilitychange: onVisibility }),
      listenTo(window, { pagehide: onHide }),
    ];
    if (!video.paused && video.readyState > 2) onPlaying();
    return () => {
      for (const stop of stopListening) stop();
      onStop();
    };
  }, [videoRef, stream]);
}
