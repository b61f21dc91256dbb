import { catchUpAction, holdEnds, type LiveLag, VIEWER_SEEK_BACK_SEC } from '@vitrine/domain';
import { listenTo } from '../../lib/listen-to.ts';
import { CAUGHT_UP_EVENT } from '../../lib/live-clock.ts';

/** How often the player looks at the viewer's lag (and at once when the tab comes back or she plays). */
const CATCH_UP_CHECK_MS = 500;
/** A jump shorter than this is not worth a seek (a moment without picture). */
const MIN_JUMP_SEC = 0.5;

/** Where the live position is and how far behind it the viewer is: from hls.js or the browser's HLS. */
export interface LiveMeasure {
  lag(): LiveLag | null;
  /** Where a live viewer should be (video seconds), or null before the playlist is known. */
  livePosition(): number | null;
}

export interface CatchUp {
  /** "Back to live": the live position, normal speed, playing; she no longer holds a delay. */
  goLive(): void;
  stop(): void;
}

/** Seconds buffered ahead of the position (0 when it sits in no buffered range). */
export function bufferAheadSec(video: HTMLVideoElement): number {
  const time = video.currentTime;
  for (let index = 0; index < video.buffered.length; index += 1) {
    const end = video.buffered.end(index);
    if (video.buffered.start(index) <= time + 0.1 && end > time) return end - time;
  }
  return 0;
}

/**
 * Brings a live viewer who fell behind back to the player's target with the rules of
 * packages/domain (live-catch-up.ts): a little faster when slightly behind, a jump when far,
 * checked twice a second and at once when the tab comes back. The player alone decides: hls.js's
 * own jump and speed-up are off (hls-config.ts), since they also pull a paused viewer along.
 * A viewer who paused (the page visible: a hidden page's pause is the browser's) or went back
 * holds her delay until she goes back to live or the stream takes her there; `CAUGHT_UP_EVENT` is
 * sent on the video after each jump back, so the studio's viewer delay gets the new figure at once.
 */
export function startCatchUp(video: HTMLVideoElement, measure: LiveMeasure): CatchUp {
  let held = false;
  // The last position played, to tell the viewer's seek back from the player's own seeks forward.
  let lastTime = Number.NEGATIVE_INFINITY;

  const caughtUp = () => video.dispatchEvent(new Event(CAUGHT_UP_EVENT));
  // Only ever forwards: the live position is ahead of a viewer who is behind.
  const jumpToLive = (): boolean => {
    const position = measure.livePosition();
    if (position === null || position - video.currentTime < MIN_JUMP_SEC) return false;
    video.currentTime = position;
    video.addEventListener('seeked', caughtUp, { once: true });
    return true;
  };

  const check = () => {
    if (video.seeking) return;
    const lag = measure.lag();
    if (held && holdEnds(lag, video.paused)) held = false;
    const action = catchUpAction(lag, { paused: video.paused, rate: video.playbackRate, held });
    // The end of a faster stretch sends no heartbeat of its own: it moved the delay by a second or
    // two, and on a loaded machine it starts and ends every few tens of seconds.
    if (action.kind === 'rate') video.playbackRate = action.rate;
    else if (action.kind === 'jump') {
      video.playbackRate = 1;
      jumpToLive();
    }
  };

  const onPause = () => {
    if (!video.ended && document.visibilityState === 'visible') held = true;
  };
  const onSeeking = () => {
    if (video.currentTime < lastTime - VIEWER_SEEK_BACK_SEC) held = true;
  };
  const onTime = () => {
    if (!video.seeking) lastTime = video.currentTime;
  };
  // A new media source (the watchdog's reload, a media error recovery) starts a new timeline.
  const onEmptied = () => {
    lastTime = Number.NEGATIVE_INFINITY;
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') check();
  };
  const stopListening = [
    listenTo(video, {
      pause: onPause,
      seeking: onSeeking,
      timeupdate: onTime,
      emptied: onEmptied,
      play: check,
    }),
    listenTo(document, { visibilitychange: onVisible }),
  ];
  const timer = window.setInterval(check, CATCH_UP_CHECK_MS);

  return {
    goLive() {
      held = false;
      video.playbackRate = 1;
      if (!jumpToLive()) caughtUp();
      void video.play().catch(() => undefined);
    },
    stop() {
      window.clearInterval(timer);
      for (const stop of stopListening) stop();
      video.removeEventListener('seeked', caughtUp);
      video.playbackRate = 1;
    },
  };
}
