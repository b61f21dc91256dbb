import {
  decayedTargetLatency,
  isLowLatencyPlaylist,
  type LiveLag,
  offerBackToLive,
  STALL_NUDGE_AFTER_MS,
  stallAction,
  streamRetryDelayMs,
} from '@vitrine/domain';
import type HlsType from 'hls.js/light';
import { logFailure } from '../../lib/debug.ts';
import type { AttachedStream } from '../../lib/live-clock.ts';
import { hlsConfig, LIVE_SYNC_SECONDS } from './hls-config.ts';
import { bufferAheadSec, type CatchUp, type LiveMeasure, startCatchUp } from './live-catch-up.ts';

type NativeHlsVideo = HTMLVideoElement & { getStartDate?: () => Date };

/** How often the player looks whether a stalled LL stream's raised target latency may be given back. */
const STALL_BACK_OFF_CHECK_MS = 2000;

/**
 * Where no Media Source Extensions exist (iPhone Safari before 17.1) the browser's own HLS plays,
 * and its clock is `getStartDate()`. Everywhere else hls.js, even where the browser answers
 * `canPlayType` for HLS (Safari; some Chromium builds, Debian's included): hls.js gives the
 * stream's wall clock (`playingDate`) that live cues are timed by, and the same live settings
 * and recovery everywhere; Chromium's native HLS exposes no program date time at all.
 */
function mediaSourceAvailable(): boolean {
  const scope = globalThis as { ManagedMediaSource?: unknown; MediaSource?: unknown };
  return scope.ManagedMediaSource !== undefined || scope.MediaSource !== undefined;
}

/** Safari's native HLS: the stream's start date (from its first PDT) plus the position. */
function nativeClock(video: NativeHlsVideo): number | null {
  const start = video.getStartDate?.().getTime();
  return start === undefined || Number.isNaN(start) ? null : start + video.currentTime * 1000;
}

function nativeLiveEdge(video: HTMLVideoElement): number | null {
  if (video.duration !== Number.POSITIVE_INFINITY || video.seekable.length === 0) return null;
  return video.seekable.end(video.seekable.length - 1);
}

function nativeLivePosition(video: HTMLVideoElement): number | null {
  const edge = nativeLiveEdge(video);
  return edge === null ? null : Math.max(0, edge - LIVE_SYNC_SECONDS);
}

/** The browser's own HLS tells only its seekable end: the lag behind it, with our pipeline's 1 s segments. */
function nativeLag(video: HTMLVideoElement): LiveLag | null {
  const edge = nativeLiveEdge(video);
  return edge === null
    ? null
    : {
        latencySec: edge - video.currentTime,
        targetSec: LIVE_SYNC_SECONDS,
        targetDurationSec: 1,
        bufferAheadSec: bufferAheadSec(video),
      };
}

/**
 * hls.js's measure of the lag: the edge of the newest playlist aged since it advanced (as hls.js's
 * own live position counts it), at most three target durations, since a playlist that stopped
 * advancing is the stream stalling, not the viewer falling behind.
 */
function hlsLag(hls: HlsType, video: HTMLVideoElement): LiveLag | null {
  const details = hls.latestLevelDetails;
  const targetSec = hls.targetLatency;
  if (!details?.live || targetSec === null || details.fragments.length === 0) return null;
  return {
    latencySec: details.edge + Math.min(details.age, 3 * details.targetduration) - video.currentTime,
    targetSec,
    targetDurationSec: details.targetduration,
    bufferAheadSec: bufferAheadSec(video),
    // Parts listed (an LL-HLS playlist played in low-latency mode): the tighter rules.
    lowLatency: details.partList !== null && details.partList.length > 0,
  };
}

/** Catch-up for a live stream; a replay has nothing to catch up with (and keeps the speed its viewer picks). */
function catchUpFor(video: HTMLVideoElement, live: boolean, measure: LiveMeasure): CatchUp {
  return live ? startCatchUp(video, measure) : { goLive: () => undefined, stop: () => undefined };
}

function attachNative(video: HTMLVideoElement, url: string, live: boolean): AttachedStream {
  video.src = url;
  // Reloading starts the browser's player over: a live stream at its edge, a replay at 0, so a
  // stalled replay is only nudged.
  const reload = () => {
    if (video.duration === Number.POSITIVE_INFINITY) video.load();
    else nudge(video);
  };
  const stopWatchdog = watchStalls(video, { nudge: () => nudge(video), reload });
  const catchUp = catchUpFor(video, live, {
    lag: () => nativeLag(video),
    livePosition: () => nativeLivePosition(video),
  });
  return {
    release() {
      stopWatchdog();
      catchUp.stop();
      video.removeAttribute('src');
      video.load();
    },
    playingDate: () => nativeClock(video),
    livePosition: () => nativeLivePosition(video),
    behindLive: () => live && offerBackToLive(nativeLag(video), false),
    goLive: () => catchUp.goLive(),
  };
}

/** A small step forward over a gap the decoder is stuck on. */
function nudge(video: HTMLVideoElement) {
  video.currentTime += 0.1;
}

/**
 * Calls `nudge`, then `reload`, while the video's position stands still though it should play
 * (not paused, not ended, not seeking). Returns the function that stops it.
 */
function watchStalls(video: HTMLVideoElement, act: { nudge(): void; reload(): void }): () => void {
  let lastTime = video.currentTime;
  let stillSince = performance.now();
  let nudged = false;
  const timer = window.setInterval(
    () => {
      const now = performance.now();
      const shouldPlay = !video.paused && !video.ended && !video.seeking;
      if (!shouldPlay || video.currentTime !== lastTime) {
        lastTime = video.currentTime;
        stillSince = now;
        nudged = false;
        return;
      }
      const action = stallAction(now - stillSince, nudged);
      if (action === 'nudge') {
        nudged = true;
        act.nudge();
      } else if (action === 'reload') {
        logFailure('video stream stalled; reloading', Math.round(now - stillSince));
        stillSince = now;
        nudged = false;
        act.reload();
      }
    },
    Math.round(STALL_NUDGE_AFTER_MS / 3),
  );
  return () => window.clearInterval(timer);
}

function attachWithHls(
  Hls: typeof HlsType,
  video: HTMLVideoElement,
  url: string,
  live: boolean,
): AttachedStream {
  let hls: HlsType;
  let networkAttempt = 0;
  let mediaRecoveries = 0;
  let retryTimer = 0;
  let released = false;
  /** When the stream last stalled (or started): hls.js's raised target is given back some time after. */
  let lastStallAt = performance.now();

  const scheduleReload = () => {
    window.clearTimeout(retryTimer);
    const wait = streamRetryDelayMs(networkAttempt);
    networkAttempt += 1;
    retryTimer = window.setTimeout(start, wait);
  };

  function start() {
    if (released) return;
    // A replay picks up where it was; a live stream starts again at its live position.
    const resumeAt = !live && hls && video.currentTime > 0 ? video.currentTime : -1;
    hls?.destroy();
    hls = new Hls({ ...hlsConfig(live, isLowLatencyPlaylist(url)), startPosition: resumeAt });
    lastStallAt = performance.now();
    // A segment arrived: the network is back, so the next failure starts the backoff again.
    hls.on(Hls.Events.FRAG_LOADED, () => {
      networkAttempt = 0;
    });
    hls.on(Hls.Events.FRAG_BUFFERED, () => {
      mediaRecoveries = 0;
    });
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (data.details === Hls.ErrorDetails.BUFFER_STALLED_ERROR) lastStallAt = performance.now();
      if (!data.fatal) return;
      logFailure('video stream failed', data.details);
      if (data.type === Hls.ErrorTypes.NETWORK_ERROR) {
        scheduleReload();
      } else if (data.type === Hls.ErrorTypes.MEDIA_ERROR && mediaRecoveries < 2) {
        // A decoding error: reset the media pipeline first; if that fails too, try the other AAC decoding.
        if (mediaRecoveries === 1) hls.swapAudioCodec();
        mediaRecoveries += 1;
        hls.recoverMediaError();
      } else {
        mediaRecoveries = 0;
        scheduleReload();
      }
    });
    hls.loadSource(url);
    hls.attachMedia(video);
    if (!video.paused || video.autoplay) void video.play().catch(() => undefined);
  }

  start();
  const stopWatchdog = watchStalls(video, {
    nudge: () => {
      const edge = live ? hls.liveSyncPosition : null;
      if (edge !== null && edge > video.currentTime) video.currentTime = edge;
      else nudge(video);
    },
    reload: start,
  });
  const liveLag = () => (live ? hlsLag(hls, video) : null);
  const livePosition = () => (live ? hls.liveSyncPosition : null);
  const catchUp = catchUpFor(video, live, { lag: liveLag, livePosition });
  // An LL stream's target latency, raised by stalls, is given back after a while without one.
  const decayTimer = live
    ? window.setInterval(() => {
        const details = hls.latestLevelDetails;
        const targetSec = hls.targetLatency;
        if (!details?.live || targetSec === null) return;
        const reset = decayedTargetLatency({
          targetSec,
          partHoldBackSec: details.partHoldBack,
          sinceStallMs: performance.now() - lastStallAt,
        });
        if (reset !== null) hls.targetLatency = reset;
      }, STALL_BACK_OFF_CHECK_MS)
    : 0;
  return {
    release() {
      released = true;
      window.clearInterval(decayTimer);
      window.clearTimeout(retryTimer);
      stopWatchdog();
      catchUp.stop();
      hls.destroy();
    },
    playingDate: () => hls.playingDate?.getTime() ?? null,
    livePosition,
    behindLive: () => offerBackToLive(liveLag(), false),
    goLive: () => catchUp.goLive(),
  };
}

/**
 * Plays the HLS playlist `url` in `video` (loaded with hls.js, on demand, from hls-loader): with
 * hls.js, itself loaded only here where Media Source Extensions exist, else the browser's own
 * HLS. `live` picks the live settings. Fatal network errors reload the stream after 1, 2, 5,
 * 10 s; media errors are recovered (then once more with the audio codec swapped); a watchdog
 * nudges, then reloads, a stream whose position stops while it should play.
 */
export async function attachHls(
  video: HTMLVideoElement,
  url: string,
  live: boolean,
): Promise<AttachedStream> {
  if (!mediaSourceAvailable()) return attachNative(video, url, live);
  const { default: Hls } = await import('hls.js/light');
  if (!Hls.isSupported()) return attachNative(video, url, live);
  return attachWithHls(Hls, video, url, live);
}
