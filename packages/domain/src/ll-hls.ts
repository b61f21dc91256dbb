/**
 * Low-latency HLS (RFC 8216bis §4.4.4.9, §6.2.5) from our own packager: ffmpeg writes fragmented
 * MP4 of ~200 ms fragments (a keyframe each segment); each moof+mdat pair is published as a
 * partial segment the moment its bytes are whole, and the 1-second segments are those parts put
 * together. The rules here are pure: fragment timing, the playlist text, and when a blocking
 * playlist request may be answered.
 */
import type { RecordedSegment } from './live-stream-playlist.ts';

/** The fragment length ffmpeg is asked for (`-frag_duration`, in microseconds). */
export const LL_FRAGMENT_MICROSECONDS = 200_000;
/**
 * PART-TARGET: ffmpeg cuts a fragment at the first frame at or past 200 ms, so a part lasts 200 ms
 * up to one frame more (233 ms at 30 fps). Every part but a segment's last must last at least 85 %
 * of the target (hls-parser's strict rule), so the target sits just above 233 ms.
 */
export const LL_PART_TARGET_SECONDS = 0.234;
/** PART-HOLD-BACK: three part targets (the least RFC 8216bis recommends). */
export const LL_PART_HOLD_BACK_SECONDS = Math.round(3 * LL_PART_TARGET_SECONDS * 1000) / 1000;
/** Parts stay listed on the newest segments only: the open one and the two before it (three target durations). */
export const LL_PART_SEGMENTS = 3;
/** CAN-SKIP-UNTIL in target durations: six, the least the spec allows. */
export const LL_SKIP_TARGET_DURATIONS = 6;
/** How many segments an LL playlist lists at least: enough that a delta update skips some. */
export const LL_WINDOW_SEGMENTS = 12;
/** A blocking request waits at most this many target durations (then 503, RFC 8216bis §6.2.5.2). */
export const LL_BLOCKING_TARGET_DURATIONS = 3;
/** _HLS_msn may run ahead of the playlist's last segment by at most this (else 400). */
export const LL_MSN_ADVANCE_LIMIT = 2;

/** The LL-HLS media playlist's file name (a further rendition's after its name: `360p-ll.m3u8`). */
export const LL_PLAYLIST_FILE = 'll.m3u8';
/** The LL-HLS master playlist's file name (shows with several renditions). */
export const LL_MASTER_PLAYLIST_FILE = 'll-master.m3u8';

/** Whether a playlist URL is an LL-HLS one: the player lets hls.js follow its PART-HOLD-BACK. */
export const isLowLatencyPlaylist = (url: string) =>
  /(?:^|\/)(?:[0-9]{3,4}p-)?ll(?:-master)?\.m3u8(?:[?#]|$)/.test(url);

/** One partial segment: a moof+mdat pair of the packager's fragmented MP4. */
export interface LivePart {
  uri: string;
  /** Seconds of media. */
  duration: number;
  /** Starts with a keyframe (INDEPENDENT=YES). */
  independent: boolean;
}

/** The segment the packager is writing: its parts so far, and the name its next part will have. */
export interface OpenLiveSegment {
  sequence: number;
  initUri: string;
  programDateTime: number;
  discontinuity: boolean;
  parts: readonly LivePart[];
  /** The URI of the next part (EXT-X-PRELOAD-HINT). */
  nextPartUri: string;
}

/** The live edge of an LL playlist: the parts of the newest closed segments, and the open one. */
export interface LowLatencyEdge {
  /** Parts of recently closed segments, by segment URI. */
  closedParts: ReadonlyMap<string, readonly LivePart[]>;
  /** The segment being written; null while no packager runs (then no part is listed). */
  open: OpenLiveSegment | null;
}

/** The file name of a part: its segment's name with the part's index (`r1-00003.m4s` → `r1-00003.2.m4s`). */
export const livePartUri = (segmentUri: string, index: number) =>
  segmentUri.replace(/\.m4s$/, `.${index}.m4s`);

function targetDuration(segments: readonly RecordedSegment[], segmentSeconds: number): number {
  return Math.max(Math.ceil(segmentSeconds), ...segments.map((segment) => Math.round(segment.duration)));
}

function partLine(part: LivePart): string {
  // A part the publisher made longer than the target (a gap in its frames) is listed at the
  // target: the media's own timestamps place it, and the playlist stays valid.
  const duration = Math.min(part.duration, LL_PART_TARGET_SECONDS);
  return `#EXT-X-PART:DURATION=${duration.toFixed(3)},URI="${part.uri}"${part.independent ? ',INDEPENDENT=YES' : ''}`;
}

/**
 * The LL media playlist: the last segments of the recording (at least LL_WINDOW_SEGMENTS), the
 * parts of the newest ones and of the open segment, a preload hint for the next part, and with
 * `skip` a delta update (EXT-X-SKIP) of what lies past the skip boundary. Media sequence,
 * discontinuity sequence and program date times as the regular live playlist's.
 */
export function lowLatencyMediaPlaylist(
  recording: readonly RecordedSegment[],
  edge: LowLatencyEdge,
  options: { window: number; ended: boolean; segmentSeconds: number; skip: boolean },
): string {
  const window = Math.max(options.window, LL_WINDOW_SEGMENTS);
  const shown = recording.slice(-window);
  const open = options.ended ? null : edge.open;
  const first = shown[0];
  const dropped = first ? recording.slice(0, recording.length - shown.length) : [];
  const discontinuities = dropped.filter((segment, index) => segment.discontinuity && index > 0).length;
  const firstIsDiscontinuity = first?.discontinuity && dropped.length > 0 ? 1 : 0;
  const target = targetDuration(recording, options.segmentSeconds);
  const skipUntil = target * LL_SKIP_TARGET_DURATIONS;
  // Parts on the open segment and the closed ones just before it: LL_PART_SEGMENTS in all.
  const partSegments = open ? LL_PART_SEGMENTS - 1 : 0;
  const withParts = new Set(shown.slice(shown.length - partSegments).map((segment) => segment.uri));
  let skipped = 0;
  if (options.skip) {
    // A segment is skipped when it ends at least the skip boundary before the playlist's end.
    let fromEnd = open ? open.parts.reduce((sum, part) => sum + part.duration, 0) : 0;
    const ends = shown.map(() => 0);
    for (let index = shown.length - 1; index >= 0; index -= 1) {
      ends[index] = fromEnd;
      fromEnd += shown[index]?.duration ?? 0;
    }
    while (skipped < shown.length && (ends[skipped] ?? 0) >= skipUntil) skipped += 1;
  }
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:9',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    `#EXT-X-TARGETDURATION:${target}`,
    `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=${skipUntil.toFixed(1)},PART-HOLD-BACK=${LL_PART_HOLD_BACK_SECONDS.toFixed(3)}`,
    `#EXT-X-PART-INF:PART-TARGET=${LL_PART_TARGET_SECONDS.toFixed(3)}`,
    `#EXT-X-MEDIA-SEQUENCE:${first?.sequence ?? open?.sequence ?? 0}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${discontinuities + firstIsDiscontinuity}`,
  ];
  if (skipped > 0) lines.push(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${skipped}`);
  let init: string | null = null;
  for (const [index, segment] of shown.entries()) {
    if (index < skipped) continue;
    // The window's first segment starting a new run is counted in the sequence above; one right
    // after skipped segments keeps its tag (they are only left out of the text).
    if (segment.discontinuity && index > 0) lines.push('#EXT-X-DISCONTINUITY');
    if (segment.initUri !== init) {
      lines.push(`#EXT-X-MAP:URI="${segment.initUri}"`);
      init = segment.initUri;
    }
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(segment.programDateTime).toISOString()}`);
    if (withParts.has(segment.uri)) lines.push(...(edge.closedParts.get(segment.uri) ?? []).map(partLine));
    lines.push(`#EXTINF:${segment.duration.toFixed(3)},`, segment.uri);
  }
  if (open) {
    if (open.discontinuity && shown.length > 0) lines.push('#EXT-X-DISCONTINUITY');
    if (open.initUri !== init) lines.push(`#EXT-X-MAP:URI="${open.initUri}"`);
    if (open.parts.length > 0)
      lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(open.programDateTime).toISOString()}`);
    lines.push(...open.parts.map(partLine));
    lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${open.nextPartUri}"`);
  }
  if (options.ended) lines.push('#EXT-X-ENDLIST');
  lines.push('');
  return lines.join('\n');
}

/** A blocking playlist request's query (`_HLS_msn`, `_HLS_part`, `_HLS_skip`). */
export interface BlockingReload {
  /** The segment the request waits for; null: answer at once. */
  msn: number | null;
  /** The part of that segment it waits for; null: the whole segment. */
  part: number | null;
  /** `_HLS_skip=YES`: a delta update. */
  skip: boolean;
}

const WHOLE_NUMBER = /^(0|[1-9][0-9]{0,9})$/;

/** Reads the LL query; an error says what is wrong with it (the server answers 400 with it). */
export function parseBlockingReload(
  /** The request's query (URLSearchParams). */
  query: { get(name: string): string | null },
): { ok: true; reload: BlockingReload } | { ok: false; message: string } {
  const msn = query.get('_HLS_msn');
  const part = query.get('_HLS_part');
  const skip = query.get('_HLS_skip');
  if (msn !== null && !WHOLE_NUMBER.test(msn))
    return { ok: false, message: '_HLS_msn must be a whole number.' };
  if (part !== null && !WHOLE_NUMBER.test(part))
    return { ok: false, message: '_HLS_part must be a whole number.' };
  if (part !== null && msn === null)
    return { ok: false, message: '_HLS_part needs _HLS_msn (RFC 8216bis §6.2.5.2).' };
  if (skip !== null && skip !== 'YES' && skip !== 'v2')
    return { ok: false, message: '_HLS_skip must be YES.' };
  return {
    ok: true,
    reload: {
      msn: msn === null ? null : Number(msn),
      part: part === null ? null : Number(part),
      skip: skip !== null,
    },
  };
}

/** Where the live edge stands, for a blocking request. */
export interface LiveEdgePosition {
  /** The sequence of the newest whole segment, or -1. */
  lastSegment: number;
  /** The open segment's sequence and its parts so far; null while none is written. */
  open: { sequence: number; parts: number } | null;
  ended: boolean;
}

/**
 * Whether a blocking request can be answered now (`ready`), must wait (`wait`), or asks too far
 * ahead (`too-far`: 400, RFC 8216bis §6.2.5.2). A part index past a segment's last part means a
 * later part: answered once that segment closed.
 */
export function blockingReloadState(
  reload: BlockingReload,
  edge: LiveEdgePosition,
): 'ready' | 'wait' | 'too-far' {
  if (reload.msn === null || edge.ended) return 'ready';
  const newest = edge.open?.sequence ?? edge.lastSegment;
  if (reload.msn > newest + LL_MSN_ADVANCE_LIMIT) return 'too-far';
  if (reload.msn <= edge.lastSegment) return 'ready';
  if (reload.part !== null && edge.open?.sequence === reload.msn && reload.part < edge.open.parts)
    return 'ready';
  return 'wait';
}

/** What the packager reads off one fragment (moof+mdat) for its part. */
export interface Fmp4FragmentTiming {
  /** The timing track's decode time of the fragment's first sample. */
  decodeTime: number;
  /** Its duration in the track's timescale (the sum of its samples'). */
  duration: number;
  /** Its first sample is a sync sample (a keyframe). */
  independent: boolean;
}

/**
 * The timing of the `trackId` run in one moof (its first sample's decode time, the sum of its
 * sample durations, whether the first sample is a keyframe), from tfhd/tfdt/trun with the
 * track's trex defaults. Null when the moof has no such track fragment.
 */
export function fmp4FragmentTiming(
  moof: Uint8Array,
  trackId: number,
  defaults: { duration: number; flags: number } = { duration: 0, flags: 0 },
): Fmp4FragmentTiming | null {
  const view = new DataView(moof.buffer, moof.byteOffset, moof.byteLength);
  const children = (start: number, end: number) => {
    const found: { type: string; start: number; end: number }[] = [];
    let at = start;
    while (at + 8 <= end) {
      const size = view.getUint32(at);
      if (size < 8 || at + size > end) break;
      found.push({
        type: String.fromCharCode(...moof.subarray(at + 4, at + 8)),
        start: at + 8,
        end: at + size,
      });
      at += size;
    }
    return found;
  };
  const top = children(0, moof.length).find((box) => box.type === 'moof');
  if (!top) return null;
  for (const traf of children(top.start, top.end).filter((box) => box.type === 'traf')) {
    const boxes = children(traf.start, traf.end);
    const tfhd = boxes.find((box) => box.type === 'tfhd');
    if (!tfhd || tfhd.end - tfhd.start < 8 || view.getUint32(tfhd.start + 4) !== trackId) continue;
    const tfhdFlags = view.getUint32(tfhd.start) & 0xffffff;
    let at = tfhd.start + 8;
    if (tfhdFlags & 0x01) at += 8; // base data offset
    if (tfhdFlags & 0x02) at += 4; // sample description index
    let defaultDuration = defaults.duration;
    let defaultFlags = defaults.flags;
    if (tfhdFlags & 0x08) {
      defaultDuration = view.getUint32(at);
      at += 4;
    }
    if (tfhdFlags & 0x10) at += 4; // default sample size
    if (tfhdFlags & 0x20) defaultFlags = view.getUint32(at);
    const tfdt = boxes.find((box) => box.type === 'tfdt');
    let decodeTime = 0;
    if (tfdt) {
      decodeTime =
        (moof[tfdt.start] ?? 0) === 1
          ? Number(view.getBigUint64(tfdt.start + 4))
          : view.getUint32(tfdt.start + 4);
    }
    let duration = 0;
    let independent: boolean | null = null;
    for (const trun of boxes.filter((box) => box.type === 'trun')) {
      const flags = view.getUint32(trun.start) & 0xffffff;
      const count = view.getUint32(trun.start + 4);
      let cursor = trun.start + 8;
      if (flags & 0x01) cursor += 4; // data offset
      let firstFlags: number | null = null;
      if (flags & 0x04) {
        firstFlags = view.getUint32(cursor);
        cursor += 4;
      }
      for (let sample = 0; sample < count && cursor <= trun.end; sample += 1) {
        let sampleDuration = defaultDuration;
        let sampleFlags = defaultFlags;
        if (flags & 0x100) {
          sampleDuration = view.getUint32(cursor);
          cursor += 4;
        }
        if (flags & 0x200) cursor += 4; // size
        if (flags & 0x400) {
          sampleFlags = view.getUint32(cursor);
          cursor += 4;
        }
        if (flags & 0x800) cursor += 4; // composition offset
        if (sample === 0 && independent === null) {
          // sample_is_non_sync_sample is bit 16 of the sample flags.
          independent = ((firstFlags ?? sampleFlags) & 0x10000) === 0;
        }
        duration += sampleDuration;
      }
    }
    return { decodeTime, duration, independent: independent ?? true };
  }
  return null;
}

/**
 * The trex defaults (sample duration and flags) of `trackId` in an init segment's mvex, which a
 * fragment's samples fall back to.
 */
export function fmp4TrackDefaults(init: Uint8Array, trackId: number): { duration: number; flags: number } {
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  const find = (start: number, end: number, type: string) => {
    let at = start;
    const found: { start: number; end: number }[] = [];
    while (at + 8 <= end) {
      const size = view.getUint32(at);
      if (size < 8 || at + size > end) break;
      if (String.fromCharCode(...init.subarray(at + 4, at + 8)) === type)
        found.push({ start: at + 8, end: at + size });
      at += size;
    }
    return found;
  };
  const moov = find(0, init.length, 'moov')[0];
  const mvex = moov && find(moov.start, moov.end, 'mvex')[0];
  for (const trex of mvex ? find(mvex.start, mvex.end, 'trex') : []) {
    if (trex.end - trex.start < 24 || view.getUint32(trex.start + 4) !== trackId) continue;
    return { duration: view.getUint32(trex.start + 12), flags: view.getUint32(trex.start + 20) };
  }
  return { duration: 0, flags: 0 };
}

/** One top-level box cut off the front of a growing byte stream. */
export interface Fmp4TopBox {
  type: string;
  bytes: Uint8Array;
}

/**
 * Cuts the whole top-level boxes off the front of `buffer` (bytes of a fragmented MP4 as they
 * arrive): answers them and how many bytes they took; a box still arriving stays for later.
 */
export function takeFmp4Boxes(buffer: Uint8Array): { boxes: Fmp4TopBox[]; used: number } {
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const boxes: Fmp4TopBox[] = [];
  let at = 0;
  while (at + 8 <= buffer.length) {
    let size = view.getUint32(at);
    if (size === 1) {
      if (at + 16 > buffer.length) break;
      size = Number(view.getBigUint64(at + 8));
    }
    if (size < 8) throw new Error('a malformed box in the packager stream');
    if (at + size > buffer.length) break;
    boxes.push({
      type: String.fromCharCode(...buffer.subarray(at + 4, at + 8)),
      bytes: buffer.subarray(at, at + size),
    });
    at += size;
  }
  return { boxes, used: at };
}

/**
 * Whether a fragment closes the segment being written before it: it starts with a keyframe and
 * the segment already holds at least its length (less half a part, the frames' rounding).
 */
export function startsNewSegment(
  fragment: { independent: boolean },
  segmentSoFar: number,
  segmentSeconds: number,
): boolean {
  return fragment.independent && segmentSoFar >= segmentSeconds - LL_FRAGMENT_MICROSECONDS / 2e6;
}
