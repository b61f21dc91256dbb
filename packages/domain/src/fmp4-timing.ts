/**
 * The timing of fragmented MP4 (ISO BMFF) as the packager writes it: which track carries the
 * timeline (video, else the first track) and its timescale, from the init segment; and where a
 * media segment starts on that timeline (the track fragment's baseMediaDecodeTime), so program
 * date times follow the media's own timestamps instead of when ffmpeg happened to write a file.
 */

export interface Fmp4TimingTrack {
  trackId: number;
  /** Ticks per second of the track's media timeline. */
  timescale: number;
}

interface Box {
  type: string;
  /** The payload: after the box header. */
  start: number;
  end: number;
}

/** The boxes directly inside `[start, end)` of `bytes`; stops at the first malformed header. */
function boxes(bytes: Uint8Array, start: number, end: number): Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    let size = view.getUint32(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) break;
      size = Number(view.getBigUint64(at + 8));
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end) break;
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    found.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return found;
}

const child = (bytes: Uint8Array, parent: Box, type: string) =>
  boxes(bytes, parent.start, parent.end).find((box) => box.type === type) ?? null;

/**
 * Where a track's first frame sits on the input timeline the packager kept (`-copyts`), in
 * seconds: the init segment's edit list starts the track after an empty edit of that long (in
 * the movie's timescale), less any media time skipped at its start. Fragments' decode times
 * count from the first frame, so this ties them to the input's own timestamps, whatever the
 * packager dropped before it (ffmpeg may drop a first group of pictures while probing). Zero
 * without an edit list.
 */
export function fmp4PresentationStart(init: Uint8Array, trackId: number): number | null {
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  const moov = boxes(init, 0, init.length).find((box) => box.type === 'moov');
  if (!moov) return null;
  const mvhd = child(init, moov, 'mvhd');
  if (!mvhd || mvhd.end - mvhd.start < 24) return null;
  const movieTimescale = view.getUint32(mvhd.start + ((init[mvhd.start] ?? 0) === 1 ? 20 : 12));
  for (const trak of boxes(init, moov.start, moov.end).filter((box) => box.type === 'trak')) {
    const tkhd = child(init, trak, 'tkhd');
    if (!tkhd || tkhd.end - tkhd.start < 24) continue;
    if (view.getUint32(tkhd.start + ((init[tkhd.start] ?? 0) === 1 ? 20 : 12)) !== trackId) continue;
    const mdia = child(init, trak, 'mdia');
    const mdhd = mdia && child(init, mdia, 'mdhd');
    const mediaTimescale = mdhd ? view.getUint32(mdhd.start + ((init[mdhd.start] ?? 0) === 1 ? 20 : 12)) : 0;
    const edts = child(init, trak, 'edts');
    const elst = edts && child(init, edts, 'elst');
    if (!elst || elst.end - elst.start < 8 || movieTimescale === 0) return 0;
    const version = init[elst.start] ?? 0;
    const entries = view.getUint32(elst.start + 4);
    const size = version === 1 ? 20 : 12;
    let start = 0;
    for (
      let index = 0, at = elst.start + 8;
      index < entries && at + size <= elst.end;
      index += 1, at += size
    ) {
      const duration = version === 1 ? Number(view.getBigUint64(at)) : view.getUint32(at);
      const mediaTime = version === 1 ? Number(view.getBigInt64(at + 8)) : view.getInt32(at + 4);
      if (mediaTime === -1) start += duration / movieTimescale;
      else {
        if (mediaTime > 0 && mediaTimescale > 0) start -= mediaTime / mediaTimescale;
        break;
      }
    }
    return start;
  }
  return null;
}

/** The track whose decode times the segments' program date times follow: video first, else the first track. */
export function fmp4TimingTrack(init: Uint8Array): Fmp4TimingTrack | null {
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  const moov = boxes(init, 0, init.length).find((box) => box.type === 'moov');
  if (!moov) return null;
  const tracks: (Fmp4TimingTrack & { video: boolean })[] = [];
  for (const trak of boxes(init, moov.start, moov.end).filter((box) => box.type === 'trak')) {
    const tkhd = child(init, trak, 'tkhd');
    const mdia = child(init, trak, 'mdia');
    const mdhd = mdia && child(init, mdia, 'mdhd');
    const hdlr = mdia && child(init, mdia, 'hdlr');
    if (!tkhd || !mdhd || tkhd.end - tkhd.start < 24 || mdhd.end - mdhd.start < 24) continue;
    const tkhdVersion = init[tkhd.start] ?? 0;
    const trackId = view.getUint32(tkhd.start + (tkhdVersion === 1 ? 20 : 12));
    const mdhdVersion = init[mdhd.start] ?? 0;
    const timescale = view.getUint32(mdhd.start + (mdhdVersion === 1 ? 20 : 12));
    const handler =
      hdlr && hdlr.end - hdlr.start >= 12
        ? String.fromCharCode(...init.subarray(hdlr.start + 8, hdlr.start + 12))
        : '';
    if (timescale > 0) tracks.push({ trackId, timescale, video: handler === 'vide' });
  }
  const chosen = tracks.find((track) => track.video) ?? tracks[0];
  return chosen ? { trackId: chosen.trackId, timescale: chosen.timescale } : null;
}

/** The decode time (in the track's timescale) of the first sample of `trackId` in a media segment. */
export function fmp4DecodeTime(segment: Uint8Array, trackId: number): number | null {
  const view = new DataView(segment.buffer, segment.byteOffset, segment.byteLength);
  for (const moof of boxes(segment, 0, segment.length).filter((box) => box.type === 'moof')) {
    for (const traf of boxes(segment, moof.start, moof.end).filter((box) => box.type === 'traf')) {
      const tfhd = child(segment, traf, 'tfhd');
      const tfdt = child(segment, traf, 'tfdt');
      if (!tfhd || !tfdt || tfhd.end - tfhd.start < 8 || tfdt.end - tfdt.start < 8) continue;
      if (view.getUint32(tfhd.start + 4) !== trackId) continue;
      const version = segment[tfdt.start] ?? 0;
      if (version === 1) {
        if (tfdt.end - tfdt.start < 12) return null;
        return Number(view.getBigUint64(tfdt.start + 4));
      }
      return view.getUint32(tfdt.start + 4);
    }
  }
  return null;
}

/** What a player must be able to decode for a rendition (EXT-X-STREAM-INF CODECS, RESOLUTION). */
export interface Fmp4Format {
  /** RFC 6381 codec strings: `avc1.64001f`, `mp4a.40.2`. */
  codecs: string[];
  width: number | null;
  height: number | null;
}

const hex2 = (value: number) => value.toString(16).padStart(2, '0');

/**
 * The codecs and picture size an init segment declares, from its sample descriptions: H.264's
 * profile and level from its `avcC`, AAC as the packager always encodes it (LC). Null when the
 * init segment has no track this can name.
 */
export function fmp4Format(init: Uint8Array): Fmp4Format | null {
  const view = new DataView(init.buffer, init.byteOffset, init.byteLength);
  const moov = boxes(init, 0, init.length).find((box) => box.type === 'moov');
  if (!moov) return null;
  const format: Fmp4Format = { codecs: [], width: null, height: null };
  for (const trak of boxes(init, moov.start, moov.end).filter((box) => box.type === 'trak')) {
    const mdia = child(init, trak, 'mdia');
    const minf = mdia && child(init, mdia, 'minf');
    const stbl = minf && child(init, minf, 'stbl');
    const stsd = stbl && child(init, stbl, 'stsd');
    // A full box: version and flags, then the entry count.
    const entry = stsd ? boxes(init, stsd.start + 8, stsd.end)[0] : undefined;
    if (!entry) continue;
    if (entry.type === 'avc1' || entry.type === 'avc3') {
      // A visual sample entry: its width and height, then its boxes after 78 bytes of fields.
      if (entry.end - entry.start < 78) continue;
      format.width = view.getUint16(entry.start + 24);
      format.height = view.getUint16(entry.start + 26);
      const avcC = boxes(init, entry.start + 78, entry.end).find((box) => box.type === 'avcC');
      if (!avcC || avcC.end - avcC.start < 4) continue;
      const [profile, compatibility, level] = [1, 2, 3].map((at) => init[avcC.start + at] ?? 0) as [
        number,
        number,
        number,
      ];
      format.codecs.push(`${entry.type}.${hex2(profile)}${hex2(compatibility)}${hex2(level)}`);
    } else if (entry.type === 'mp4a') format.codecs.push('mp4a.40.2');
  }
  return format.codecs.length > 0 ? format : null;
}
