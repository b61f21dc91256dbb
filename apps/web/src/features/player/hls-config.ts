import type { HlsConfig } from 'hls.js/light';

/** Whether this URL is an HLS playlist. */
export const isHlsSource = (url: string) => /\.m3u8(\?|#|$)/i.test(url);

/** Segments a live viewer stays behind the edge: with 1 s segments about 3 s, the spec's latency goal. */
export const LIVE_SYNC_SEGMENTS = 3;

/**
 * hls.js settings per kind of show. Live: start and stay about three segments behind the edge,
 * catch up (slightly faster playback, then a jump) when more than six behind, and low-latency
 * mode so partial segments are used if the server ever offers them. A replay: plain VOD settings,
 * whose larger forward buffer rides out network bumps.
 */
export function hlsConfig(live: boolean): Partial<HlsConfig> {
  return live
    ? {
        lowLatencyMode: true,
        liveSyncDurationCount: LIVE_SYNC_SEGMENTS,
        liveMaxLatencyDurationCount: 2 * LIVE_SYNC_SEGMENTS,
        maxLiveSyncPlaybackRate: 1.05,
        backBufferLength: 30,
      }
    : { lowLatencyMode: false };
}
