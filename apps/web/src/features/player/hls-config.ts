// The transmuxer's worker as a file of its own (a lazy asset, fetched when a stream first plays).
// hls.js's ES module builds carry no inline worker: without `workerPath` every fragment is parsed
// and remuxed on the page's main thread, beside the LL-HLS cycle's own work there (five playlist
// reloads and parts a second: bench/lighthouse/README.md).
import hlsWorkerUrl from 'hls.js/dist/hls.worker.js?url';
import type { HlsConfig } from 'hls.js/light';

/** Where hls.js loads its transmuxer's worker from: every hls.js instance of the app sets it. */
export const HLS_WORKER_URL = hlsWorkerUrl;

/** Whether this URL is an HLS playlist. */
export const isHlsSource = (url: string) => /\.m3u8(\?|#|$)/i.test(url);

/**
 * Seconds a live viewer stays behind the edge (the end of the newest listed segment): two and a
 * half of the pipeline's 1 s segments. With the playlist refreshed once a second the newest
 * segment is itself up to a second old, so this makes about 3.5–4 s glass to glass (bench/live
 * latency.md); a stall adds a second to it (hls.js's liveSyncOnStallIncrease), so a viewer whose
 * network cannot keep up backs off by itself. In seconds, not segments: one segment longer than 1.5 s (a publisher whose
 * keyframes come late) raises the playlist's target duration to 2 for the rest of the show
 * (RFC 8216 lets it never shrink), and a count of segments would then double every viewer's delay.
 */
export const LIVE_SYNC_SECONDS = 2.5;

/**
 * hls.js settings per kind of show. Live: start and stay 2.5 s behind the edge, and low-latency
 * mode so partial segments are used if the server offers them. Catching up is the player's own
 * (live-catch-up.ts): hls.js's jump (`liveMaxLatencyDuration`, left unset: never) would also pull
 * a paused viewer along and undo her going back, and its speed-up (`maxLiveSyncPlaybackRate` 1:
 * off) works only in low-latency mode and within a target duration of the target. A replay:
 * plain VOD settings, whose larger forward buffer rides out network bumps.
 */
export function hlsConfig(live: boolean, lowLatency = false): Partial<HlsConfig> {
  return { workerPath: HLS_WORKER_URL, ...playbackConfig(live, lowLatency) };
}

function playbackConfig(live: boolean, lowLatency: boolean): Partial<HlsConfig> {
  // An LL-HLS playlist (`ll.m3u8`): hls.js keeps PART-HOLD-BACK behind the edge (0.7 s of parts)
  // instead of a fixed 2.5 s, and reloads the playlist blocking on the next part. Catching up is
  // ours here too (it aims at hls.js's target latency): two speed-ups would fight.
  if (live && lowLatency) return { lowLatencyMode: true, maxLiveSyncPlaybackRate: 1, backBufferLength: 30 };
  return live
    ? {
        lowLatencyMode: true,
        liveSyncDuration: LIVE_SYNC_SECONDS,
        maxLiveSyncPlaybackRate: 1,
        backBufferLength: 30,
      }
    : { lowLatencyMode: false };
}
