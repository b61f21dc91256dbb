import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type LiveEdgePosition,
  type LivePart,
  type LiveProfile,
  LL_PART_SEGMENTS,
  liveMediaPlaylist,
  livePartUri,
  lowLatencyMediaPlaylist,
  type OpenLiveSegment,
  type RecordedSegment,
  replayMediaPlaylist,
  replaySegments,
} from '@vitrine/domain';
import type { LRUCache } from 'lru-cache';
import type { SegmentStore } from './segment-store.ts';

/** Live windows of segments (and their init segments) kept in memory: the live edge every viewer asks for. */
const LIVE_EDGE_WINDOWS = 2;

/**
 * The list of a recording's segments, one JSON line each, appended as they come: the journal of
 * the process that packages the show, in its own folder (the files themselves are in the store).
 */
const SEGMENT_LIST = 'segments.ndjson';
/** The replay playlist put in the store when the show ends (served from there ever after). */
export const REPLAY_PLAYLIST = 'replay.m3u8';

/** The master playlists of a show with several renditions (LIVE_PROFILE): live, and the replay's. */
export const MASTER_PLAYLISTS = { live: 'master.m3u8', replay: 'replay-master.m3u8' } as const;

/**
 * File names a viewer may fetch from a recording: segments, init segments and playlists; those of
 * a further rendition begin with its name (`360p-r1-00001.m4s`, `360p-live.m3u8`).
 */
export const RECORDING_FILE_PATTERN =
  /^((?:[0-9]{3,4}p-)?(?:r[0-9]{1,6}-(?:init\.mp4|[0-9]{5,9}(?:\.[0-9]{1,3})?\.m4s)|live\.m3u8|ll\.m3u8|replay\.m3u8)|master\.m3u8|ll-master\.m3u8|replay-master\.m3u8)$/;

/** A show's id as it appears in `/live/<eventId>/` paths. */
export const EVENT_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** An LL-HLS playlist: a rendition's (`360p-ll.m3u8`, `ll.m3u8`) or the master (`ll-master.m3u8`). */
export const LOW_LATENCY_FILE = /^(?:([0-9]{3,4}p)-)?ll(-master)?\.m3u8$/;

/** Whether a file name is an LL-HLS part (`r1-00003.2.m4s`), not a whole segment. */
export const isPartName = (name: string) => /-[0-9]{5,9}\.[0-9]{1,3}\.m4s$/.test(name);

/** The packager run and segment number a segment's or part's name carries (`r2-00042.m4s`, `r2-00042.3.m4s`). */
function segmentPlace(name: string): { run: number; segment: number } | null {
  const match = /r([0-9]+)-([0-9]{5,9})\.(?:[0-9]{1,3}\.)?m4s$/.exec(name);
  return match ? { run: Number(match[1]), segment: Number(match[2]) } : null;
}

/** The further rendition a file belongs to (`360p`), or null for the main one's and the master playlists. */
export function renditionOf(name: string): string | null {
  return /^([0-9]{3,4}p)-/.exec(name)?.[1] ?? null;
}

/** A file of a recording with the bytes a viewer gets. */
export interface RecordingFile {
  bytes: Buffer;
  contentType: string;
}

export const SEGMENT_CONTENT_TYPE = 'video/iso.segment';
export const INIT_CONTENT_TYPE = 'video/mp4';
export const PLAYLIST_CONTENT_TYPE = 'application/vnd.apple.mpegurl';

/** Where a recording's files go: a segment store, under `prefix` (`<eventId>/`). */
export interface RecordingMedia {
  store: SegmentStore;
  prefix: string;
  /** The name its finished replay playlist is put under (a further rendition's: `360p-replay.m3u8`). */
  replayName?: string;
  /** The segment length and live window (LIVE_PROFILE). */
  profile: Pick<LiveProfile, 'segmentSeconds' | 'window'>;
  /**
   * Files read back from the store (a replay's segments, viewers behind the live edge), kept for
   * the next viewers asking: one cache for every recording of the engine (none: each read goes to
   * the store).
   */
  reads?: LRUCache<string, Buffer>;
}

/**
 * One show's recording: the segments every packager run handed over, in order, put in the segment
 * store, listed in a journal in the show's folder, with the live edge in memory. The recording is
 * the replay: the same segments, the same program date times.
 */
export interface ShowRecording {
  readonly dir: string;
  /** Every segment so far, in order. */
  segments(): readonly RecordedSegment[];
  /** The segment of that file name, if this recording has it. */
  segment(uri: string): RecordedSegment | null;
  /** The number of the next packager run (r1, r2, …): each run has its own init segment. */
  nextRun(): number;
  /**
   * Adds a segment the packager finished; `discontinuity` for the first of a later run. It is put
   * in the store (its run's init segment first), then its line in the segment list is written,
   * or (a full disk) with the next one that fits. With `stored: false` (the disk is full), or when
   * the store refuses it (`storeError`), it is kept in memory only: it plays at the live edge but
   * is no part of the replay.
   */
  add(
    segment: Omit<RecordedSegment, 'sequence'>,
    bytes: Buffer,
    initBytes: Buffer | null,
    options?: { stored: boolean },
  ): Promise<{ segment: RecordedSegment; storeError: unknown }>;
  /**
   * The live window; with ENDLIST once the show ended. Once live (`liveStartTime`), only what
   * followed Go live: the preview before it stays the studio's.
   */
  livePlaylist(ended: boolean, liveStartTime: number | null): string;
  /** The replay so far (EVENT), from the Go live moment on. */
  replayPlaylist(liveStartTime: number | null): string;
  /**
   * Puts the finished replay (VOD) in the store and answers its first segment's program date
   * time. When the store refuses it (a full disk) the replay playlist is kept in memory (and
   * served from there) instead, and `notWritten` says why.
   */
  finish(liveStartTime: number | null): Promise<{ firstFrame: number | null; notWritten: unknown }>;
  /**
   * A segment or init segment the recording lists (or its replay playlist): from memory at the
   * live edge, else from the store (what was read is kept a while for the next viewers).
   */
  file(name: string): Promise<RecordingFile | null>;
  /**
   * Deletes all but the newest `keep` segments, and the init segments only they used (the demo's
   * show, whose encoder runs for days: its disk use stays bounded). Only between packager runs.
   * Answers how many segments went.
   */
  dropOldest(keep: number): Promise<number>;
  /** Whether segments the packager closed are still being recorded (its next run follows them). */
  liveEdgeBusy(): boolean;
  /** The packager began a segment (LL-HLS): its parts follow. */
  openLiveSegment(
    segment: Pick<OpenLiveSegment, 'initUri' | 'programDateTime' | 'discontinuity'> & { uri: string },
    initBytes: Buffer | null,
  ): void;
  /** A whole part (moof+mdat) of the open segment: listed from now on. */
  addLivePart(bytes: Buffer, part: Omit<LivePart, 'uri'>): void;
  /** The open segment is whole: listed as a segment at once, recorded by `add`. */
  closeLiveSegment(uri: string, duration: number, bytes: Buffer): void;
  /** The packager run ended: no segment is open until the next one begins. */
  endLiveRun(): void;
  /** The LL-HLS playlist (`skip`: a delta update), like `livePlaylist` with parts. */
  lowLatencyPlaylist(ended: boolean, liveStartTime: number | null, skip: boolean): string;
  /** Where the live edge stands, for blocking playlist requests. */
  liveEdgePosition(ended: boolean): LiveEdgePosition;
  /** Resolves at the next change of the live edge (a part, a segment), or after `timeoutMs`. */
  liveEdgeChange(timeoutMs: number): Promise<void>;
  /**
   * Whether the part `name` may still come: a part of the open segment not yet written. A hinted
   * part (the open segment's next) never comes when a keyframe starts the next segment instead.
   */
  partMayStillCome(name: string): boolean;
}

/** The media type of a recording's file by its name. */
export function contentTypeOf(name: string): string {
  if (name.endsWith('.m3u8')) return PLAYLIST_CONTENT_TYPE;
  return name.endsWith('.mp4') ? INIT_CONTENT_TYPE : SEGMENT_CONTENT_TYPE;
}

/**
 * Opens (or creates) the recording whose journal is in `dir` and whose files are in `media`,
 * reading back the segments a previous process listed.
 */
export async function openShowRecording(dir: string, media: RecordingMedia): Promise<ShowRecording> {
  const { store, prefix, profile } = media;
  const replayName = media.replayName ?? REPLAY_PLAYLIST;
  const liveEdgeSegments = profile.window * LIVE_EDGE_WINDOWS;
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
  // Runs continue after the highest one listed or stored (a segment may be stored whose line the
  // journal lost), so a new run never replaces a stored file.
  const runs = [...segments.map((segment) => segment.uri), ...(await store.list(prefix))]
    // A further rendition's files carry the run's number too (`360p-r3-…`).
    .map((name) => /(?:^|\/)(?:[0-9]{3,4}p-)?r([0-9]+)-[^/]*$/.exec(name)?.[1])
    .filter((run): run is string => run !== undefined)
    .map(Number);
  let lastRun = Math.max(0, ...runs);
  /** Init segments in the store, and those of runs whose init is not stored yet. */
  const storedInits = new Set(segments.map((segment) => segment.initUri));
  const unstoredInits = new Map<string, Buffer>();
  const memory = new Map<string, Buffer>();
  /** Segments only in memory (the disk was full): the live edge, never the replay. */
  const memoryOnly = new Set<string>();
  const onDisk = (list: readonly RecordedSegment[]) =>
    memoryOnly.size === 0 ? list : list.filter((segment) => !memoryOnly.has(segment.uri));
  /** The replay playlist when the disk could not take it. */
  let finishedReplay: string | null = null;
  /** The segment list's length on disk: a line a full disk cut short is cut off again. */
  let listBytes = await open(join(dir, SEGMENT_LIST), 'a').then(async (handle) => {
    const { size } = await handle.stat();
    await handle.close();
    return size;
  });
  const byUri = new Map(segments.map((segment) => [segment.uri, segment]));
  const initUris = new Set(segments.map((segment) => segment.initUri));
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

  /** The LL-HLS live edge: the open segment, those closed but not recorded yet, recent parts. */
  let openSegment: (OpenLiveSegment & { uri: string; parts: LivePart[] }) | null = null;
  const closing: RecordedSegment[] = [];
  const closingBytes = new Map<string, Buffer>();
  const closedParts = new Map<string, readonly LivePart[]>();
  const partBytes = new Map<string, Buffer>();
  let edgeVersion = 0;
  let edgeWaiters: (() => void)[] = [];
  const edgeChanged = () => {
    edgeVersion += 1;
    const waiting = edgeWaiters;
    edgeWaiters = [];
    for (const wake of waiting) wake();
  };
  const newest = () => closing.at(-1) ?? segments.at(-1);

  /** Lines of the segment list the disk did not take yet: written with the next one. */
  let unlisted = '';

  /**
   * Appends one line to the segment list. When the disk takes only part of it (full), the list
   * is cut back to its last whole line (a later line would be glued to the broken one) and the
   * line waits in memory for the next append: the list catches up once space is freed.
   */
  async function appendLine(line: string) {
    const text = unlisted + line;
    const handle = await open(join(dir, SEGMENT_LIST), 'a').catch(() => null);
    if (!handle) {
      unlisted = text;
      return;
    }
    try {
      await handle.appendFile(text);
      listBytes += Buffer.byteLength(text);
      unlisted = '';
    } catch {
      await handle.truncate(listBytes).catch(() => undefined);
      unlisted = text;
    } finally {
      await handle.close();
    }
  }

  function keepAtEdge(name: string, bytes: Buffer) {
    memory.set(name, bytes);
    const recent = new Set(
      segments.slice(-liveEdgeSegments).flatMap((segment) => [segment.uri, segment.initUri]),
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
    async add(segment, bytes, initBytes, options = { stored: true }) {
      if (initBytes && !storedInits.has(segment.initUri)) unstoredInits.set(segment.initUri, initBytes);
      let storeError: unknown = null;
      if (options.stored) {
        try {
          const init = unstoredInits.get(segment.initUri);
          if (init) {
            await store.put(`${prefix}${segment.initUri}`, init, INIT_CONTENT_TYPE);
            storedInits.add(segment.initUri);
            unstoredInits.delete(segment.initUri);
          }
          await store.put(`${prefix}${segment.uri}`, bytes, SEGMENT_CONTENT_TYPE);
        } catch (error) {
          storeError = error;
        }
      }
      // After the last one's: the oldest may have been dropped (dropOldest).
      const recorded: RecordedSegment = { ...segment, sequence: (segments.at(-1)?.sequence ?? -1) + 1 };
      segments.push(recorded);
      byUri.set(recorded.uri, recorded);
      initUris.add(recorded.initUri);
      const stored = options.stored && storeError === null;
      if (!stored) memoryOnly.add(recorded.uri);
      if (initBytes) keepAtEdge(segment.initUri, initBytes);
      keepAtEdge(segment.uri, bytes);
      const closed = closing.findIndex((each) => each.uri === recorded.uri);
      if (closed !== -1) {
        closing.splice(closed, 1);
        closingBytes.delete(recorded.uri);
        edgeChanged();
      }
      if (stored) await appendLine(`${JSON.stringify(recorded)}\n`);
      return { segment: recorded, storeError };
    },
    livePlaylist: (ended, liveStartTime) =>
      memo(`live:${ended}:${liveStartTime}`, () =>
        liveMediaPlaylist(
          replaySegments(segments, liveStartTime),
          profile.window,
          ended,
          profile.segmentSeconds,
        ),
      ),
    replayPlaylist: (liveStartTime) =>
      memo(`replay:${liveStartTime}`, () =>
        replayMediaPlaylist(replaySegments(onDisk(segments), liveStartTime), false, profile.segmentSeconds),
      ),
    async finish(liveStartTime) {
      const replay = replaySegments(onDisk(segments), liveStartTime);
      const text = replayMediaPlaylist(replay, true, profile.segmentSeconds);
      let notWritten: unknown = null;
      try {
        await store.put(`${prefix}${replayName}`, Buffer.from(text), PLAYLIST_CONTENT_TYPE);
        finishedReplay = null;
      } catch (error) {
        // A full disk: the replay plays from memory until the process ends.
        finishedReplay = text;
        notWritten = error;
      }
      return { firstFrame: replay[0]?.programDateTime ?? null, notWritten };
    },
    async dropOldest(keep) {
      const dropped = segments.splice(0, Math.max(0, segments.length - keep));
      if (dropped.length === 0) return 0;
      const keptInits = new Set(segments.map((segment) => segment.initUri));
      // The list first (written aside, then renamed), so a crash never lists a deleted file.
      const list = segments.map((segment) => `${JSON.stringify(segment)}\n`).join('');
      await writeFile(join(dir, `${SEGMENT_LIST}.tmp`), list);
      await rename(join(dir, `${SEGMENT_LIST}.tmp`), join(dir, SEGMENT_LIST));
      listBytes = Buffer.byteLength(list);
      unlisted = '';
      composed.clear();
      for (const segment of dropped) {
        byUri.delete(segment.uri);
        memoryOnly.delete(segment.uri);
        memory.delete(segment.uri);
        await rm(join(dir, segment.uri), { force: true });
        if (!keptInits.has(segment.initUri) && initUris.delete(segment.initUri)) {
          memory.delete(segment.initUri);
          await rm(join(dir, segment.initUri), { force: true });
        }
      }
      return dropped.length;
    },
    liveEdgeBusy: () => closing.length > 0,
    openLiveSegment(segment, initBytes) {
      if (initBytes) memory.set(segment.initUri, initBytes);
      const sequence = (newest()?.sequence ?? -1) + 1;
      openSegment = { ...segment, sequence, parts: [], nextPartUri: livePartUri(segment.uri, 0) };
      edgeChanged();
    },
    addLivePart(bytes, part) {
      if (!openSegment) return;
      const uri = livePartUri(openSegment.uri, openSegment.parts.length);
      partBytes.set(uri, bytes);
      openSegment.parts.push({ ...part, uri });
      openSegment.nextPartUri = livePartUri(openSegment.uri, openSegment.parts.length);
      edgeChanged();
    },
    closeLiveSegment(uri, duration, bytes) {
      if (!openSegment || openSegment.uri !== uri) return;
      closing.push({
        sequence: openSegment.sequence,
        uri,
        initUri: openSegment.initUri,
        duration,
        programDateTime: openSegment.programDateTime,
        discontinuity: openSegment.discontinuity,
      });
      closingBytes.set(uri, bytes);
      closedParts.set(uri, openSegment.parts);
      // Parts stay served a little longer than listed: a player may still be fetching them.
      while (closedParts.size > LL_PART_SEGMENTS + 1) {
        const [oldest, parts] = closedParts.entries().next().value as [string, readonly LivePart[]];
        closedParts.delete(oldest);
        for (const part of parts) partBytes.delete(part.uri);
      }
      openSegment = null;
      edgeChanged();
    },
    endLiveRun() {
      if (openSegment) {
        for (const part of openSegment.parts) partBytes.delete(part.uri);
        openSegment = null;
      }
      edgeChanged();
    },
    lowLatencyPlaylist: (ended, liveStartTime, skip) =>
      memo(`ll:${edgeVersion}:${ended}:${liveStartTime}:${skip}`, () =>
        lowLatencyMediaPlaylist(
          replaySegments([...segments, ...closing], liveStartTime),
          { closedParts, open: openSegment },
          { window: profile.window, ended, segmentSeconds: profile.segmentSeconds, skip },
        ),
      ),
    liveEdgePosition: (ended) => ({
      lastSegment: newest()?.sequence ?? -1,
      open: openSegment ? { sequence: openSegment.sequence, parts: openSegment.parts.length } : null,
      ended,
    }),
    partMayStillCome(name) {
      if (partBytes.has(name)) return false;
      // Between two segments, or a later run or segment than the open one: it may come.
      const part = segmentPlace(name);
      const open = openSegment ? segmentPlace(openSegment.uri) : null;
      if (!part || !open) return true;
      if (part.run !== open.run) return part.run > open.run;
      return part.segment >= open.segment;
    },
    liveEdgeChange: (timeoutMs) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        edgeWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
    async file(name) {
      const part = partBytes.get(name) ?? closingBytes.get(name);
      if (part) return { bytes: part, contentType: SEGMENT_CONTENT_TYPE };
      if (name === replayName && finishedReplay !== null)
        return { bytes: Buffer.from(finishedReplay), contentType: contentTypeOf(name) };
      const cached = memory.get(name);
      if (cached) return { bytes: cached, contentType: contentTypeOf(name) };
      // Only what the recording lists: a file the packager left unfinished (a full disk) is not its.
      if (name.endsWith('.m4s') ? !byUri.has(name) : name.endsWith('.mp4') && !initUris.has(name))
        return null;
      const key = `${prefix}${name}`;
      const recalled = media.reads?.get(key);
      if (recalled) return { bytes: recalled, contentType: contentTypeOf(name) };
      const bytes = await store.get(key);
      if (bytes) media.reads?.set(key, bytes);
      return bytes ? { bytes, contentType: contentTypeOf(name) } : null;
    },
  };
}
