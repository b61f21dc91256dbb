import { describe, expect, it } from 'vitest';
import { hlsConfig, isHlsSource } from './hls-config.ts';

describe('hls-config', () => {
  it('gives live shows live settings: about three segments behind the edge, catching up when far behind', () => {
    const live = hlsConfig(true);
    expect(live.liveSyncDurationCount).toBe(3);
    expect(live.liveMaxLatencyDurationCount).toBeGreaterThan(3);
    expect(live.lowLatencyMode).toBe(true);
  });

  it('gives replays plain VOD settings', () => {
    const replay = hlsConfig(false);
    expect(replay.lowLatencyMode).toBe(false);
    expect(replay.liveSyncDurationCount).toBeUndefined();
  });

  it('recognises HLS playlists by their extension', () => {
    expect(isHlsSource('/live/show-1/index.m3u8')).toBe(true);
    expect(isHlsSource('https://cdn.example/v.m3u8?token=1')).toBe(true);
    expect(isHlsSource('/demo-media/demo-show.mp4')).toBe(false);
  });
});
