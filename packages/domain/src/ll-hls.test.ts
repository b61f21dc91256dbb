import * as HLS from 'hls-parser';
import { describe, expect, it } from 'vitest';
import type { RecordedSegment } from './live-stream-playlist.ts';
import {
  blockingReloadState,
  fmp4FragmentTiming,
  isLowLatencyPlaylist,
  type LivePart,
  LL_PART_TARGET_SECONDS,
  livePartUri,
  lowLatencyMediaPlaylist,
  parseBlockingReload,
  startsNewSegment,
  takeFmp4Boxes,
} from './ll-hls.ts';

const T0 = Date.parse('2026-05-01T19:00:00.000Z');

function segments(count: number, options: { discontinuityAt?: number } = {}): RecordedSegment[] {
  return Array.from({ length: count }, (_, sequence) => {
    const run = options.discontinuityAt !== undefined && sequence >= options.discontinuityAt ? 2 : 1;
    return {
      sequence,
      uri: `r${run}-${String(sequence).padStart(5, '0')}.m4s`,
      initUri: `r${run}-init.mp4`,
      duration: 1,
      programDateTime: T0 + sequence * 1000,
      discontinuity: sequence === options.discontinuityAt,
    };
  });
}

const parts = (segmentUri: string, count: number): LivePart[] =>
  Array.from({ length: count }, (_, index) => ({
    uri: livePartUri(segmentUri, index),
    duration: 0.2,
    independent: index === 0,
  }));

function edgeOf(recording: RecordedSegment[], openParts = 2) {
  const closedParts = new Map(recording.slice(-3).map((segment) => [segment.uri, parts(segment.uri, 5)]));
  const sequence = recording.length;
  const uri = `r1-${String(sequence).padStart(5, '0')}.m4s`;
  return {
    closedParts,
    open: {
      sequence,
      initUri: 'r1-init.mp4',
      programDateTime: T0 + sequence * 1000,
      discontinuity: false,
      parts: parts(uri, openParts),
      nextPartUri: livePartUri(uri, openParts),
    },
  };
}

const options = { window: 6, ended: false, segmentSeconds: 1, skip: false };

HLS.setOptions({ strictMode: true });

describe('lowLatencyMediaPlaylist', () => {
  it('lists parts on the open segment and the two before it, with a preload hint', () => {
    const recording = segments(4);
    const text = lowLatencyMediaPlaylist(recording, edgeOf(recording), options);
    expect(text).toContain('#EXT-X-VERSION:9');
    expect(text).toContain(
      '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=6.0,PART-HOLD-BACK=0.702',
    );
    expect(text).toContain(`#EXT-X-PART-INF:PART-TARGET=${LL_PART_TARGET_SECONDS.toFixed(3)}`);
    expect(text).not.toContain('r1-00001.0.m4s');
    expect(text).toContain('#EXT-X-PART:DURATION=0.200,URI="r1-00002.0.m4s",INDEPENDENT=YES');
    expect(text).toContain('#EXT-X-PART:DURATION=0.200,URI="r1-00003.4.m4s"\n#EXTINF:1.000,\nr1-00003.m4s');
    expect(text.trimEnd().split('\n').slice(-4)).toEqual([
      '#EXT-X-PROGRAM-DATE-TIME:2026-05-01T19:00:04.000Z',
      '#EXT-X-PART:DURATION=0.200,URI="r1-00004.0.m4s",INDEPENDENT=YES',
      '#EXT-X-PART:DURATION=0.200,URI="r1-00004.1.m4s"',
      '#EXT-X-PRELOAD-HINT:TYPE=PART,URI="r1-00004.2.m4s"',
    ]);
  });

  it('lists no parts and no hint once ended, or while no packager runs', () => {
    const recording = segments(4);
    const ended = lowLatencyMediaPlaylist(recording, edgeOf(recording), { ...options, ended: true });
    expect(ended).not.toContain('#EXT-X-PART:');
    expect(ended).not.toContain('PRELOAD-HINT');
    expect(ended.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
    const idle = lowLatencyMediaPlaylist(recording, { closedParts: new Map(), open: null }, options);
    expect(idle).not.toContain('#EXT-X-PART:');
  });

  it('skips what lies past six target durations on a delta update, and keeps the sequences', () => {
    const recording = segments(14, { discontinuityAt: 3 });
    const text = lowLatencyMediaPlaylist(recording, edgeOf(recording, 0), { ...options, skip: true });
    // 12 listed (from 2), those ending 6 s or more before the end skipped: 2..7.
    expect(text).toContain('#EXT-X-MEDIA-SEQUENCE:2');
    expect(text).toContain('#EXT-X-SKIP:SKIPPED-SEGMENTS=6');
    expect(text).not.toContain('r2-00007.m4s');
    expect(text).toContain('#EXT-X-MAP:URI="r2-init.mp4"\n#EXT-X-PROGRAM-DATE-TIME:2026-05-01T19:00:08.000Z');
    const whole = lowLatencyMediaPlaylist(recording, edgeOf(recording, 0), options);
    expect(whole).not.toContain('#EXT-X-SKIP');
    expect(whole).toContain('#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI="r2-init.mp4"');
  });

  it('keeps the discontinuity of the first segment after the skipped ones', () => {
    const recording = segments(14, { discontinuityAt: 8 });
    const text = lowLatencyMediaPlaylist(recording, edgeOf(recording, 0), { ...options, skip: true });
    expect(text).toContain(
      '#EXT-X-SKIP:SKIPPED-SEGMENTS=6\n#EXT-X-DISCONTINUITY\n#EXT-X-MAP:URI="r2-init.mp4"',
    );
    expect(text).toContain('#EXT-X-DISCONTINUITY-SEQUENCE:0');
    // hls-parser's strict mode takes every shape: delta, whole, ended, idle.
    for (const shape of [
      text,
      lowLatencyMediaPlaylist(recording, edgeOf(recording), options),
      lowLatencyMediaPlaylist(recording, edgeOf(recording), { ...options, ended: true }),
      lowLatencyMediaPlaylist(recording, { closedParts: new Map(), open: null }, options),
    ]) {
      expect(HLS.parse(shape).isMasterPlaylist).toBe(false);
    }
  });

  it('never skips a segment within the boundary of a short playlist', () => {
    const recording = segments(5);
    const text = lowLatencyMediaPlaylist(recording, edgeOf(recording), { ...options, skip: true });
    expect(text).not.toContain('#EXT-X-SKIP');
  });

  it('lists a part longer than the target at the target', () => {
    const recording = segments(2);
    const edge = edgeOf(recording);
    edge.open.parts = [{ uri: 'r1-00002.0.m4s', duration: 0.4, independent: true }];
    expect(lowLatencyMediaPlaylist(recording, edge, options)).toContain(
      '#EXT-X-PART:DURATION=0.234,URI="r1-00002.0.m4s",INDEPENDENT=YES',
    );
  });
});

describe('blocking playlist reload', () => {
  /** A query string read as URLSearchParams would (the domain has no DOM or Node types). */
  const query = (text: string) => {
    const pairs = text
      .split('&')
      .filter(Boolean)
      .map((pair) => pair.split('=') as [string, string]);
    return { get: (name: string) => pairs.find(([key]) => key === name)?.[1] ?? null };
  };
  it('reads _HLS_msn, _HLS_part and _HLS_skip', () => {
    expect(parseBlockingReload(query('_HLS_msn=12&_HLS_part=3&_HLS_skip=YES'))).toEqual({
      ok: true,
      reload: { msn: 12, part: 3, skip: true },
    });
    expect(parseBlockingReload(query(''))).toEqual({
      ok: true,
      reload: { msn: null, part: null, skip: false },
    });
  });

  it('refuses malformed values with a message', () => {
    for (const bad of [
      '_HLS_msn=-1',
      '_HLS_msn=1.5',
      '_HLS_msn=abc',
      '_HLS_msn=01',
      '_HLS_msn=1&_HLS_part=x',
    ]) {
      expect(parseBlockingReload(query(bad)).ok, bad).toBe(false);
    }
    expect(parseBlockingReload(query('_HLS_part=1'))).toEqual({
      ok: false,
      message: '_HLS_part needs _HLS_msn (RFC 8216bis §6.2.5.2).',
    });
    expect(parseBlockingReload(query('_HLS_skip=NO')).ok).toBe(false);
  });

  it('waits until the asked part is listed, answers a closed segment at once, refuses too far', () => {
    const edge = { lastSegment: 9, open: { sequence: 10, parts: 2 }, ended: false };
    const reload = (msn: number | null, part: number | null = null) => ({ msn, part, skip: false });
    expect(blockingReloadState(reload(null), edge)).toBe('ready');
    expect(blockingReloadState(reload(9), edge)).toBe('ready');
    expect(blockingReloadState(reload(10, 1), edge)).toBe('ready');
    expect(blockingReloadState(reload(10, 2), edge)).toBe('wait');
    expect(blockingReloadState(reload(10), edge)).toBe('wait');
    expect(blockingReloadState(reload(11, 0), edge)).toBe('wait');
    expect(blockingReloadState(reload(12), edge)).toBe('wait');
    expect(blockingReloadState(reload(13), edge)).toBe('too-far');
    expect(blockingReloadState(reload(13), { ...edge, ended: true })).toBe('ready');
  });
});

/** A box: size, type, payload. */
function box(type: string, ...payload: Uint8Array[]): Uint8Array {
  const length = 8 + payload.reduce((sum, each) => sum + each.length, 0);
  const bytes = new Uint8Array(length);
  new DataView(bytes.buffer).setUint32(0, length);
  bytes.set(
    [...type].map((char) => char.charCodeAt(0)),
    4,
  );
  let at = 8;
  for (const each of payload) {
    bytes.set(each, at);
    at += each.length;
  }
  return bytes;
}

const words = (...values: number[]) => {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (const [index, value] of values.entries()) view.setUint32(index * 4, value);
  return bytes;
};

describe('fmp4FragmentTiming', () => {
  it('reads the decode time, the summed durations and the keyframe flag of a track', () => {
    // tfhd: flags 0x20008 (default duration), track 1, duration 512.
    const tfhd = box('tfhd', words(0x020008, 1, 512));
    const tfdt = box('tfdt', words(0, 7680));
    // trun: flags 0x205 (data offset, first sample flags, sizes), 3 samples.
    const trun = box('trun', words(0x000205, 3, 0, 0x02000000, 100, 90, 80));
    const audio = box('traf', box('tfhd', words(0x020008, 2, 1024)), box('tfdt', words(0, 0)));
    const moof = box('moof', box('mfhd', words(0, 1)), box('traf', tfhd, tfdt, trun), audio);
    expect(fmp4FragmentTiming(moof, 1)).toEqual({ decodeTime: 7680, duration: 1536, independent: true });
    // A non-sync first sample.
    const delta = box('moof', box('traf', tfhd, tfdt, box('trun', words(0x000205, 1, 0, 0x01010000, 100))));
    expect(fmp4FragmentTiming(delta, 1)?.independent).toBe(false);
    expect(fmp4FragmentTiming(moof, 3)).toBeNull();
  });
});

describe('takeFmp4Boxes', () => {
  it('cuts whole boxes off a growing stream and leaves a box still arriving', () => {
    const first = box('moof', words(1, 2));
    const second = box('mdat', words(3, 4, 5));
    const stream = new Uint8Array([...first, ...second]);
    const partial = takeFmp4Boxes(stream.subarray(0, first.length + 5));
    expect(partial.boxes.map((each) => each.type)).toEqual(['moof']);
    expect(partial.used).toBe(first.length);
    expect(takeFmp4Boxes(stream).boxes.map((each) => each.type)).toEqual(['moof', 'mdat']);
  });
});

describe('startsNewSegment', () => {
  it('begins a segment at a keyframe once the segment holds its length', () => {
    expect(startsNewSegment({ independent: true }, 1.0, 1)).toBe(true);
    expect(startsNewSegment({ independent: true }, 0.95, 1)).toBe(true);
    expect(startsNewSegment({ independent: true }, 0.6, 1)).toBe(false);
    expect(startsNewSegment({ independent: false }, 2, 1)).toBe(false);
  });
});

describe('isLowLatencyPlaylist', () => {
  it('tells the LL playlists from the regular ones', () => {
    expect(isLowLatencyPlaylist('/live/show-1/ll.m3u8')).toBe(true);
    expect(isLowLatencyPlaylist('https://cdn.example/live/show-1/ll-master.m3u8?x=1')).toBe(true);
    expect(isLowLatencyPlaylist('/live/show-1/360p-ll.m3u8')).toBe(true);
    expect(isLowLatencyPlaylist('/live/show-1/live.m3u8')).toBe(false);
    expect(isLowLatencyPlaylist('/live/show-1/master.m3u8')).toBe(false);
    expect(isLowLatencyPlaylist('/live/small.m3u8')).toBe(false);
  });
});
