import { appendFile, mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  LIVE_PLAYLIST_WINDOW,
  liveMediaPlaylist,
  type RecordedSegment,
  replayMediaPlaylist,
  replaySegments,
} from '@vitrine/domain';

/** Segments (and their init segments) kept in memory: the live edge every viewer asks for. */
const LIVE_EDGE_SEGMENTS = LIVE_PLAYLIST_WINDOW * 2;

/** The list of a recording's segments, one JSON line each, appended as they come. */
const SEGMENT_LIST = 'segments.ndjson';
/** The replay playlist written when the show ends (served from disk ever after). */
export const REPLAY_PLAYLIST = 'replay.m3u8';

/** File names a viewer may fetch from a recording: segments, init segments and playlists. */
export const RECORDING_FILE_PATTERN = /^(r[0-9]{1,6}-(init\.mp4|[0-9]{5,9}\.m4s)|live\.m3u8|replay\.m3u8)$/;

/** A file of a recording with the bytes a viewer gets. */
export interface RecordingFile {
  bytes: Buffer;
  contentType: string;
}

export const SEGMENT_CONTENT_TYPE = 'video/iso.segment';
export const INIT_CONTENT_TYPE = 'video/mp4';

/**
 * One show's recording: the segments every packager run wrote, in order, on disk in the show's
 * folder, with the live edge in memory. The recording is the replay: the same segments, the
 * same program date times.
 */
export interface ShowRecording {
  readonly dir: string;
  /** Every segment so far, in order. */
  segments(): readonly RecordedSegment[];
  /** The segment of that file name, if this recording has it. */
  segment(uri: string): RecordedSegment | null;
  /** The number of the next packager run (r1, r2, …): each run has its own init segment. */
  nextRun(): number;
  /** Adds a segment the packager finished; `discontinuity` for the first of a later run. */
  add(
    segment: Omit<RecordedSegment, 'sequence'>,
    bytes: Buffer,
    initBytes: Buffer | null,
  ): Promise<RecordedSegment>;
  /**
   * The live window; with ENDLIST once the show ended. Once live (`liveStartTime`), only what
   * followed Go live: the preview before it stays the studio's.
   */
  livePlaylist(ended: boolean, liveStartTime: number | null): string;
  /** The replay so far (EVENT), from the Go live moment on. */
  replayPlaylist(liveStartTime: number | null): string;
  /** Writes the finished replay (VOD) to disk and answers its first segment's program date time. */
  finish(liveStartTime: number | null): Promise<number | null>;
  /** A segment or init segment: from memory at the live edge, else from disk. */
  file(name: string): Promise<RecordingFile | null>;
}

/** The media type of a recording's file by its name. */
export function contentTypeOf(name: string): string {
  return name.endsWith('.mp4') ? INIT_CONTENT_TYPE : SEGMENT_CONTENT_TYPE;
}

/** Opens (or creates) the recording in `dir`, reading back the segments a previous process listed. */
export async function openShowRecording(dir: string): Promise<ShowRecording> {
  await mkdir(dir, { recursive: true });
  const segments: RecordedSegment[] = [];
  const listed = await readFile(join(dir, SEGMENT_LIST), 'utf8').catch(() => '');
  for (const line of listed.split('\n')) {
    if (!line.trim()) continue;
    try {
      segments.push(JSON.parse(line) as RecordedSegment);
    } catch {
      // A line cut short by a crash: the segments before it still play.
    }
  }
  // Runs continue after the highest one on disk (a run may have written files but no segment).
  const runs = (await readdir(dir))
    .map((name) => /^r([0-9]+)-/.exec(name)?.[1])
    .filter((run): run is string => run !== undefined)
    .map(Number);
  let lastRun = Math.max(0, ...runs);
  const memory = new Map<string, Buffer>();
  const byUri = new Map(segments.map((segment) => [segment.uri, segment]));
  /** Composed playlists, until the next segment (every viewer of the show asks for the same text). */
  const composed = new Map<string, string>();
  const memo = (key: string, compose: () => string) => {
    const full = `${segments.length}:${key}`;
    let text = composed.get(full);
    if (text === undefined) {
      if (composed.size > 8) composed.clear();
      text = compose();
      composed.set(full, text);
    }
    return text;
  };

  function keepAtEdge(name: string, bytes: Buffer) {
    memory.set(name, bytes);
    const recent = new Set(
      segments.slice(-LIVE_EDGE_SEGMENTS).flatMap((segment) => [segment.uri, segment.initUri]),
    );
    for (const kept of memory.keys()) if (!recent.has(kept)) memory.delete(kept);
  }

  return {
    dir,
    segments: () => segments,
    segment: (uri) => byUri.get(uri) ?? null,
    nextRun: () => {
      lastRun += 1;
      return lastRun;
    },
    async add(segment, bytes, initBytes) {
      const recorded: RecordedSegment = { ...segment, sequence: segments.length };
      segments.push(recorded);
      byUri.set(recorded.uri, recorded);
      if (initBytes) keepAtEdge(segment.initUri, initBytes);
      keepAtEdge(segment.uri, bytes);
      await appendFile(join(dir, SEGMENT_LIST), `${JSON.stringify(recorded)}\n`);
      return recorded;
    },
    livePlaylist: (ended, liveStartTime) =>
      memo(`live:${ended}:${liveStartTime}`, () =>
        liveMediaPlaylist(replaySegments(segments, liveStartTime), undefined, ended),
      ),
    replayPlaylist: (liveStartTime) =>
      memo(`replay:${liveStartTime}`, () =>
        replayMediaPlaylist(replaySegments(segments, liveStartTime), false),
      ),
    async finish(liveStartTime) {
      const replay = replaySegments(segments, liveStartTime);
      // Written aside and renamed, so a reader never sees half a playlist.
      const temporary = join(dir, `${REPLAY_PLAYLIST}.tmp`);
      await writeFile(temporary, replayMediaPlaylist(replay, true));
      await rename(temporary, join(dir, REPLAY_PLAYLIST));
      return replay[0]?.programDateTime ?? null;
    },
    async file(name) {
      const cached = memory.get(name);
      if (cached) return { bytes: cached, contentType: contentTypeOf(name) };
      const bytes = await readFile(join(dir, name)).catch(() => null);
      return bytes ? { bytes, contentType: contentTypeOf(name) } : null;
    },
  };
}
