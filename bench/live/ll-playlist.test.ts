import { describe, expect, it } from 'vitest';
import { nextBlockingRequest } from './ll-playlist.ts';

const head = ['#EXTM3U', '#EXT-X-VERSION:9', '#EXT-X-TARGETDURATION:1', '#EXT-X-PART-INF:PART-TARGET=0.234'];

describe('nextBlockingRequest', () => {
  it("asks for the part after the open segment's last one, and loads that last one", () => {
    const playlist = [
      ...head,
      '#EXT-X-MEDIA-SEQUENCE:40',
      '#EXTINF:1.0,',
      'r1-00040.m4s',
      '#EXTINF:1.0,',
      'r1-00041.m4s',
      '#EXT-X-PART:DURATION=0.2,URI="r1-00042.0.m4s",INDEPENDENT=YES',
      '#EXT-X-PART:DURATION=0.2,URI="r1-00042.1.m4s"',
      '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="r1-00042.2.m4s"',
    ].join('\n');
    expect(nextBlockingRequest(playlist)).toEqual({ msn: 42, part: 2, newestPart: 'r1-00042.1.m4s' });
  });

  it('asks for the first part of the next segment right after one closed', () => {
    const playlist = [
      ...head,
      '#EXT-X-MEDIA-SEQUENCE:7',
      '#EXT-X-PART:DURATION=0.2,URI="r1-00007.4.m4s"',
      '#EXTINF:1.0,',
      'r1-00007.m4s',
    ].join('\n');
    expect(nextBlockingRequest(playlist)).toEqual({ msn: 8, part: 0, newestPart: 'r1-00007.4.m4s' });
  });

  it('counts the segments a delta update skipped', () => {
    const playlist = [
      ...head,
      '#EXT-X-MEDIA-SEQUENCE:100',
      '#EXT-X-SKIP:SKIPPED-SEGMENTS=6',
      '#EXTINF:1.0,',
      'r1-00106.m4s',
    ].join('\n');
    expect(nextBlockingRequest(playlist)).toMatchObject({ msn: 107, part: 0 });
  });

  it('answers null for what is no media playlist', () => {
    expect(nextBlockingRequest('not a playlist')).toBeNull();
  });
});
