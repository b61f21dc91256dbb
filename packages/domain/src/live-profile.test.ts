import { describe, expect, it } from 'vitest';
import { defaultLiveProfile, masterPlaylist, parseLiveProfile } from './live-profile.ts';

const defaults = defaultLiveProfile(2);

describe('the live profile setting', () => {
  it('is 1-second segments, a 6-segment window, LL-HLS for viewers and 720p30 alone on 2 cores; 360p beside it on 4', () => {
    expect(defaults).toEqual({
      segmentSeconds: 1,
      window: 6,
      renditions: [{ name: '720p', height: 720, maxFps: 30, videoKbps: 2500 }],
      lowLatency: true,
    });
    expect(defaultLiveProfile(4).renditions.map((rendition) => rendition.name)).toEqual(['720p', '360p']);
  });

  it('reads each part, keeping the default for what is left out', () => {
    const read = parseLiveProfile('segment=2, window=8, renditions=1080p60@6000k+360p', defaults);
    expect(read).toEqual({
      ok: true,
      profile: {
        segmentSeconds: 2,
        window: 8,
        renditions: [
          { name: '1080p', height: 1080, maxFps: 60, videoKbps: 6000 },
          { name: '360p', height: 360, maxFps: 30, videoKbps: 700 },
        ],
        lowLatency: true,
      },
    });
    expect(parseLiveProfile('window=10', defaults)).toEqual({
      ok: true,
      profile: { ...defaults, window: 10 },
    });
    expect(parseLiveProfile('', defaults)).toEqual({ ok: true, profile: defaults });
  });

  it('reads ll=on|off: whether viewers get the LL-HLS playlist at Go live', () => {
    expect(parseLiveProfile('ll=on', { ...defaults, lowLatency: false })).toEqual({
      ok: true,
      profile: { ...defaults, lowLatency: true },
    });
    expect(parseLiveProfile('ll=off', defaults)).toEqual({
      ok: true,
      profile: { ...defaults, lowLatency: false },
    });
    expect(parseLiveProfile('ll=yes', defaults)).toMatchObject({
      ok: false,
      message: expect.stringContaining('ll must be on or off'),
    });
  });

  it('refuses what it cannot use, naming every problem at once', () => {
    const read = parseLiveProfile('segment=0,window=2.5,renditions=360p+720p,colour=red,fast', defaults);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.message).toContain('segment must be seconds from 0.5 to 10');
    expect(read.message).toContain('window must be a whole number of segments from 3 to 60');
    expect(read.message).toContain('from the largest to the smallest');
    expect(read.message).toContain('unknown part "colour"');
    expect(read.message).toContain('"fast" is not key=value');
    expect(parseLiveProfile('renditions=721p', defaults)).toMatchObject({
      ok: false,
      message: expect.stringContaining('an even height'),
    });
    expect(parseLiveProfile('renditions=720p30+360p+240p+180p+144p', defaults)).toMatchObject({
      ok: false,
      message: expect.stringContaining('at most 4 renditions'),
    });
    expect(parseLiveProfile('renditions=4k', defaults)).toMatchObject({
      ok: false,
      message: expect.stringContaining('is not HEIGHTp[FPS][@KBPSk]'),
    });
  });
});

describe('the master playlist', () => {
  it('lists each rendition with its bandwidth, codecs, resolution and frame rate', () => {
    const text = masterPlaylist([
      {
        uri: 'live.m3u8',
        bandwidth: 2_800_000,
        codecs: ['avc1.64001f', 'mp4a.40.2'],
        width: 1280,
        height: 720,
        frameRate: 30,
      },
      { uri: '360p-live.m3u8', bandwidth: 830_000.4, codecs: [], width: null, height: null, frameRate: null },
    ]);
    expect(text.split('\n')).toEqual([
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-STREAM-INF:BANDWIDTH=2800000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=1280x720,FRAME-RATE=30.000',
      'live.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=830000',
      '360p-live.m3u8',
      '',
    ]);
  });
});
