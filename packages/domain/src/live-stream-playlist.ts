/** One fMP4 media segment of a show's recording, as the packager found it. */
export interface RecordedSegment {
  /** Its position in the whole recording, from 0: the media sequence number. */
  sequence: number;
  /** File name beside the playlists (`r2-00031.m4s`). */
  uri: string;
  /** The fMP4 initialisation segment this segment needs (one per packager run). */
  initUri: string;
  /** Seconds of media. */
  duration: number;
  /** The wall-clock time of its first frame (EXT-X-PROGRAM-DATE-TIME), in epoch milliseconds. */
  programDateTime: number;
  /** The first segment of a packager run after another (an encoder reconnect or an ffmpeg restart). */
  discontinuity: boolean;
}

const HEADER = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];

function targetDuration(segments: readonly RecordedSegment[], segmentSeconds: number): number {
  // The target may not change while a live playlist is refreshed, so it never drops under the
  // configured segment length (a publisher whose keyframes come slower makes it grow once).
  return Math.max(Math.ceil(segmentSeconds), ...segments.map((segment) => Math.round(segment.duration)));
}

function segmentLines(segments: readonly RecordedSegment[]): string[] {
  const lines: string[] = [];
  let init: string | null = null;
  for (const [index, segment] of segments.entries()) {
    if (segment.discontinuity && index > 0) lines.push('#EXT-X-DISCONTINUITY');
    if (segment.initUri !== init) {
      lines.push(`#EXT-X-MAP:URI="${segment.initUri}"`);
      init = segment.initUri;
    }
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(segment.programDateTime).toISOString()}`);
    lines.push(`#EXTINF:${segment.duration.toFixed(3)},`);
    lines.push(segment.uri);
  }
  return lines;
}

/**
 * The live playlist: the last `window` segments of the recording. Composed here rather than
 * served from ffmpeg's own file, so the media sequence and program date time run on across
 * packager runs (a reconnecting encoder continues the same playlist after a discontinuity).
 */
export function liveMediaPlaylist(
  recording: readonly RecordedSegment[],
  window: number,
  ended: boolean,
  /** The segment length the packager is asked for (LIVE_PROFILE): the least target duration. */
  segmentSeconds: number,
): string {
  const shown = recording.slice(-window);
  const first = shown[0];
  const dropped = first ? recording.slice(0, recording.length - shown.length) : [];
  // Every discontinuity tag that slid out of the window counts (RFC 8216 §4.3.3.3).
  const discontinuities = dropped.filter((segment, index) => segment.discontinuity && index > 0).length;
  const firstIsDiscontinuity = first?.discontinuity && dropped.length > 0 ? 1 : 0;
  return [
    ...HEADER,
    `#EXT-X-TARGETDURATION:${targetDuration(recording, segmentSeconds)}`,
    `#EXT-X-MEDIA-SEQUENCE:${first?.sequence ?? 0}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${discontinuities + firstIsDiscontinuity}`,
    // The window's first segment starting a new run is already counted above: no tag for it.
    ...segmentLines(
      shown.map((segment, index) => (index === 0 ? { ...segment, discontinuity: false } : segment)),
    ),
    // After the End a player on the live playlist stops at its last segment.
    ...(ended ? ['#EXT-X-ENDLIST'] : []),
    '',
  ].join('\n');
}

/**
 * The replay playlist: every segment of the recording from `from` on. While the show runs it
 * is an EVENT playlist (it only grows); once ended it is VOD with ENDLIST.
 */
export function replayMediaPlaylist(
  recording: readonly RecordedSegment[],
  ended: boolean,
  segmentSeconds: number,
): string {
  return [
    ...HEADER,
    `#EXT-X-TARGETDURATION:${targetDuration(recording, segmentSeconds)}`,
    `#EXT-X-PLAYLIST-TYPE:${ended ? 'VOD' : 'EVENT'}`,
    `#EXT-X-MEDIA-SEQUENCE:${recording[0]?.sequence ?? 0}`,
    ...segmentLines(recording),
    ...(ended ? ['#EXT-X-ENDLIST'] : []),
    '',
  ].join('\n');
}

/**
 * The part of a recording the replay shows: from the segment holding the Go live moment on, so
 * the preview before it stays private. Without a Go live moment, everything.
 */
export function replaySegments(
  recording: readonly RecordedSegment[],
  liveStartTime: number | null,
): RecordedSegment[] {
  if (liveStartTime === null) return [...recording];
  return recording.filter((segment) => segment.programDateTime + segment.duration * 1000 > liveStartTime);
}

/** A segment entry of a media playlist ffmpeg wrote (the packager reads them back). */
export interface PackagerPlaylistEntry {
  uri: string;
  initUri: string | null;
  duration: number;
  programDateTime: number | null;
}

/** Reads the segments of an HLS media playlist (ffmpeg's), in order; unknown tags are skipped. */
export function parseMediaPlaylist(text: string): PackagerPlaylistEntry[] {
  const entries: PackagerPlaylistEntry[] = [];
  let initUri: string | null = null;
  let duration: number | null = null;
  let programDateTime: number | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#EXT-X-MAP:')) {
      initUri = /URI="([^"]+)"/.exec(line)?.[1] ?? null;
    } else if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) {
      const time = Date.parse(line.slice('#EXT-X-PROGRAM-DATE-TIME:'.length));
      programDateTime = Number.isNaN(time) ? null : time;
    } else if (line.startsWith('#EXTINF:')) {
      const seconds = Number.parseFloat(line.slice('#EXTINF:'.length));
      duration = Number.isFinite(seconds) ? seconds : null;
    } else if (line && !line.startsWith('#') && duration !== null) {
      entries.push({ uri: line, initUri, duration, programDateTime });
      duration = null;
      programDateTime = null;
    }
  }
  return entries;
}
