import { describe, expect, it } from 'vitest';
import {
  liveMediaPlaylist,
  parseMediaPlaylist,
  type RecordedSegment,
  replayMediaPlaylist,
  replaySegments,
} from './live-stream-playlist.ts';

const T0 = Date.parse('2026-05-01T19:00:00.000Z');

/** Two packager runs: 4 segments, a reconnect, then 4 more. */
function recording(): RecordedSegment[] {
  return Array.from({ length: 8 }, (_, sequence) => {
    const run = sequence < 4 ? 1 : 2;
    return {
      sequence,
      uri: `r${run}-${sequence}.m4s`,
      initUri: `r${run}-init.mp4`,
      duration: 1,
      programDateTime: T0 + sequence * 1000 + (run === 2 ? 5000 : 0),
      discontinuity: sequence === 4,
    };
  });
}

describe('liveMediaPlaylist', () => {
  it('slides a window over the recording with PDT on every segment', () => {
    const text = liveMediaPlaylist(recording().slice(0, 3), 6, false, 1);
    expect(text).toContain('#EXT-X-MEDIA-SEQUENCE:0');
    expect(text).toContain('#EXT-X-MAP:URI="r1-init.mp4"');
    expect(text.match(/#EXT-X-PROGRAM-DATE-TIME:/g)).toHaveLength(3);
    expect(text).toContain('#EXT-X-PROGRAM-DATE-TIME:2026-05-01T19:00:02.000Z');
    expect(text).not.toContain('ENDLIST');
  });

  it('marks a reconnect with a discontinuity and a new init segment', () => {
    const text = liveMediaPlaylist(recording(), 6, false, 1);
    expect(text).toContain('#EXT-X-MEDIA-SEQUENCE:2');
    expect(text).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:0');
    expect(text).toMatch(
      /#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI="r2-init.mp4"\n#EXT-X-PROGRAM-DATE-TIME:2026-05-01T19:00:09.000Z/,
    );
  });

  it('counts the discontinuities that slid out of the window', () => {
    expect(liveMediaPlaylist(recording(), 3, false, 1)).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:1');
    const atTheCut = liveMediaPlaylist(recording(), 4, false, 1);
    expect(atTheCut).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:1');
    expect(atTheCut).not.toContain('#EXT-X-DISCONTINUITY\n');
  });
});

describe('replayMediaPlaylist', () => {
  it('grows as an EVENT playlist and ends as VOD', () => {
    expect(replayMediaPlaylist(recording(), false, 1)).toContain('#EXT-X-PLAYLIST-TYPE:EVENT');
    const ended = replayMediaPlaylist(recording(), true, 1);
    expect(ended).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(ended.trim().endsWith('#EXT-X-ENDLIST')).toBe(true);
    expect(ended.match(/\.m4s/g)).toHaveLength(8);
  });

  it('starts the replay at the segment holding the Go live moment', () => {
    expect(replaySegments(recording(), T0 + 2500).map((segment) => segment.sequence)).toEqual([
      2, 3, 4, 5, 6, 7,
    ]);
    expect(replaySegments(recording(), null)).toHaveLength(8);
  });
});

describe('parseMediaPlaylist', () => {
  it("reads ffmpeg's fMP4 playlist", () => {
    const text = [
      '#EXTM3U',
      '#EXT-X-VERSION:7',
      '#EXT-X-TARGETDURATION:1',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-MAP:URI="r1-init.mp4"',
      '#EXT-X-PROGRAM-DATE-TIME:2026-05-01T19:00:00.000+0000',
      '#EXTINF:1.000000,',
      'r1-00000.m4s',
      '#EXT-X-PROGRAM-DATE-TIME:2026-05-01T19:00:01.000+0000',
      '#EXTINF:0.960000,',
      'r1-00001.m4s',
      '',
    ].join('\n');
    expect(parseMediaPlaylist(text)).toEqual([
      { uri: 'r1-00000.m4s', initUri: 'r1-init.mp4', duration: 1, programDateTime: T0 },
      { uri: 'r1-00001.m4s', initUri: 'r1-init.mp4', duration: 0.96, programDateTime: T0 + 1000 },
    ]);
  });
});
