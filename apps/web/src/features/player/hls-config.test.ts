import { describe, expect, it } from 'vitest';
import { hlsConfig, isHlsSource } from './hls-config.ts';

describe('hls-config', () => {
  it('gives live shows live settings: two and a half seconds behind the edge, catch-up left to the player', () => {
    const live = hlsConfig(true);
    expect(live.liveSyncDuration).toBe(2.5);
    // hls.js neither jumps (it would drag a paused viewer along) nor speeds up: live-catch-up.ts does.
    expect(live.liveMaxLatencyDuration).toBeUndefined();
    expect(live.maxLiveSyncPlaybackRate).toBe(1);
    // In seconds only: hls.js refuses a mix of seconds and segment counts, and counts would
    // scale with a target duration a single long segment raises for the whole show.
    expect(live.liveSyncDurationCount).toBeUndefined();
    expect(live.liveMaxLatencyDurationCount).toBeUndefined();
    expect(live.lowLatencyMode).toBe(true);
  });

  it('lets hls.js follow PART-HOLD-BACK on an LL-HLS playlist', () => {
    const ll = hlsConfig(true, true);
    expect(ll.lowLatencyMode).toBe(true);
    expect(ll.liveSyncDuration).toBeUndefined();
    expect(ll.liveMaxLatencyDuration).toBeUndefined();
    // The player's catch-up is the only one here too.
    expect(ll.maxLiveSyncPlaybackRate).toBe(1);
  });

  it('gives every kind of show the transmuxer worker (the ES module build has no inline one)', () => {
    for (const config of [hlsConfig(true), hlsConfig(true, true), hlsConfig(false)])
      expect(config.workerPath).toMatch(/hls\.worker.*\.js/);
  });

  it('gives replays plain VOD settings', () => {
    const replay = hlsConfig(false);
    expect(replay.lowLatencyMode).toBe(false);
    expect(replay.liveSyncDuration).toBeUndefined();
  });

  it('recognises HLS playlists by their extension', () => {
    expect(isHlsSource('/live/show-1/index.m3u8')).toBe(true);
    expect(isHlsSource('https://cdn.example/v.m3u8?token=1')).toBe(true);
    expect(isHlsSource('/demo-media/demo-show.mp4')).toBe(false);
  });
});
