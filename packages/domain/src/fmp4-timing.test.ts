import { describe, expect, it } from 'vitest';
import { fmp4DecodeTime, fmp4PresentationStart, fmp4TimingTrack } from './fmp4-timing.ts';

/** An ISO BMFF box: 32-bit size, 4-letter type, payload. */
function box(type: string, ...payload: Uint8Array[]): Uint8Array {
  const size = 8 + payload.reduce((sum, part) => sum + part.length, 0);
  const bytes = new Uint8Array(size);
  new DataView(bytes.buffer).setUint32(0, size);
  bytes.set(
    [...type].map((c) => c.charCodeAt(0)),
    4,
  );
  let at = 8;
  for (const part of payload) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

function words(...values: (number | bigint)[]): Uint8Array {
  const bytes = new Uint8Array(values.reduce<number>((sum, v) => sum + (typeof v === 'bigint' ? 8 : 4), 0));
  const view = new DataView(bytes.buffer);
  let at = 0;
  for (const value of values) {
    if (typeof value === 'bigint') {
      view.setBigUint64(at, value);
      at += 8;
    } else {
      view.setUint32(at, value);
      at += 4;
    }
  }
  return bytes;
}

const fourcc = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0)));

function trak(trackId: number, timescale: number, handler: string, version: 0 | 1 = 0) {
  const tkhd =
    version === 1
      ? box('tkhd', words(0x01000000, 0n, 0n, trackId, 0, 0n), new Uint8Array(60))
      : box('tkhd', words(0, 0, 0, trackId, 0, 0), new Uint8Array(60));
  const mdhd =
    version === 1
      ? box('mdhd', words(0x01000000, 0n, 0n, timescale, 0n, 0))
      : box('mdhd', words(0, 0, 0, timescale, 0, 0));
  const hdlr = box('hdlr', words(0, 0), fourcc(handler), words(0, 0, 0), new Uint8Array([0]));
  return box('trak', tkhd, box('mdia', mdhd, hdlr));
}

/** A trak with an edit list: an empty edit of `emptyMs` (movie timescale 1000), then media from `mediaTime`. */
function editedTrak(trackId: number, timescale: number, emptyMs: number, mediaTime: number) {
  const elst = box(
    'elst',
    words(0, emptyMs > 0 ? 2 : 1),
    ...(emptyMs > 0 ? [words(emptyMs, 0xffffffff, 0x00010000)] : []),
    words(0, mediaTime, 0x00010000),
  );
  const edited = trak(trackId, timescale, 'vide');
  // Insert edts after tkhd: rebuild the trak from its parts.
  const inner = edited.subarray(8);
  const tkhdSize = new DataView(inner.buffer, inner.byteOffset).getUint32(0);
  return box('trak', inner.subarray(0, tkhdSize), box('edts', elst), inner.subarray(tkhdSize));
}

const mvhd = box('mvhd', words(0, 0, 0, 1000, 0), new Uint8Array(80));

function traf(trackId: number, decodeTime: number | bigint) {
  const tfhd = box('tfhd', words(0x00020000, trackId));
  const tfdt =
    typeof decodeTime === 'bigint'
      ? box('tfdt', words(0x01000000, decodeTime))
      : box('tfdt', words(0, decodeTime));
  return box('traf', tfhd, tfdt, box('trun', words(0, 0)));
}

describe('fMP4 timing', () => {
  it('takes the video track of an init segment, even when audio comes first', () => {
    const init = new Uint8Array([
      ...box('ftyp', fourcc('iso5'), words(512)),
      ...box('moov', box('mvhd', new Uint8Array(100)), trak(1, 48_000, 'soun'), trak(2, 15_360, 'vide')),
    ]);
    expect(fmp4TimingTrack(init)).toEqual({ trackId: 2, timescale: 15_360 });
  });

  it('takes the first track of an audio-only stream, and reads version-1 headers', () => {
    const init = new Uint8Array([...box('moov', trak(7, 44_100, 'soun', 1))]);
    expect(fmp4TimingTrack(init)).toEqual({ trackId: 7, timescale: 44_100 });
  });

  it('answers null for bytes that are no init segment', () => {
    expect(fmp4TimingTrack(new Uint8Array([1, 2, 3]))).toBeNull();
    expect(fmp4TimingTrack(fourcc('#EXTM3U #EXT-X-VERSION:7 playlist text'))).toBeNull();
    // A box claiming more bytes than there are.
    const cut = box('moov', trak(1, 90_000, 'vide')).subarray(0, 40);
    expect(fmp4TimingTrack(cut)).toBeNull();
  });

  it('reads the decode time of the chosen track from a media segment (32 and 64 bit)', () => {
    const segment = new Uint8Array([
      ...box('styp', fourcc('msdh')),
      ...box('moof', box('mfhd', words(0, 1)), traf(1, 480_000), traf(2, 153_600)),
      ...box('mdat', new Uint8Array(16)),
    ]);
    expect(fmp4DecodeTime(segment, 2)).toBe(153_600);
    expect(fmp4DecodeTime(segment, 1)).toBe(480_000);
    expect(fmp4DecodeTime(segment, 3)).toBeNull();
    const late = new Uint8Array([...box('moof', traf(1, 2n ** 40n))]);
    expect(fmp4DecodeTime(late, 1)).toBe(2 ** 40);
  });

  it('places the first frame on the input timeline from the edit list (an empty edit, less skipped media)', () => {
    const init = new Uint8Array([...box('moov', mvhd, editedTrak(1, 12_800, 5000, 0))]);
    expect(fmp4PresentationStart(init, 1)).toBe(5);
    const skipped = new Uint8Array([...box('moov', mvhd, editedTrak(1, 12_800, 5000, 1280))]);
    expect(fmp4PresentationStart(skipped, 1)).toBeCloseTo(4.9, 6);
    const noEmpty = new Uint8Array([...box('moov', mvhd, editedTrak(1, 12_800, 0, 0))]);
    expect(fmp4PresentationStart(noEmpty, 1)).toBe(0);
    const unedited = new Uint8Array([...box('moov', mvhd, trak(1, 12_800, 'vide'))]);
    expect(fmp4PresentationStart(unedited, 1)).toBe(0);
    expect(fmp4PresentationStart(init, 2)).toBeNull();
    expect(fmp4PresentationStart(new Uint8Array([0, 0, 0]), 1)).toBeNull();
  });

  it('reads a segment that sits inside a larger buffer', () => {
    const inner = box('moof', traf(1, 1234));
    const outer = new Uint8Array(inner.length + 10);
    outer.set(inner, 10);
    expect(fmp4DecodeTime(outer.subarray(10), 1)).toBe(1234);
  });
});
