import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type ClipWindow, clipSegments, parseMediaPlaylist } from '@vitrine/domain';
import type { SegmentStore } from '../live/segment-store.ts';
import { REPLAY_PLAYLIST } from '../live/show-recording.ts';

const run = promisify(execFile);

/** A clip is a copy of at most 90 s of stream: seconds, even on a busy machine. */
const CUT_TIMEOUT_MS = 120_000;

/** The MP4 a clip's file is, in the segment store. */
export const CLIP_CONTENT_TYPE = 'video/mp4';
/** Its poster, its first frame. */
export const CLIP_POSTER_CONTENT_TYPE = 'image/jpeg';

/**
 * The poster's width at most: a phone's full width at its pixel ratio, and what chat apps show
 * (1.91:1 cards up to 1200 px wide take a 720 px picture without a visible loss).
 */
const POSTER_MAX_WIDTH = 720;

/** What a cut made: the file's and its poster's keys, the program date time of its first frame, its length. */
export interface ClipCut {
  mediaKey: string;
  posterKey: string;
  cutStart: number;
  durationMs: number;
}

/**
 * Puts a cut clip (`output`, an MP4 in `work`) and its poster in the segment store as
 * `<eventId>/clips/<name>.mp4` and `.jpg`. The poster is the clip's first frame (a keyframe: the
 * only frame decoded), scaled to at most POSTER_MAX_WIDTH.
 */
async function storeClipAndPoster(
  options: { ffmpeg: string; store: SegmentStore; eventId: string; name: string },
  work: string,
  output: string,
): Promise<Pick<ClipCut, 'mediaKey' | 'posterKey'>> {
  const poster = join(work, 'poster.jpg');
  await run(
    options.ffmpeg,
    [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-i', output],
      ...['-frames:v', '1', '-vf', `scale='min(${POSTER_MAX_WIDTH},iw)':-2`, '-q:v', '4', poster],
    ],
    { timeout: CUT_TIMEOUT_MS },
  );
  const mediaKey = `${options.eventId}/clips/${options.name}.mp4`;
  const posterKey = `${options.eventId}/clips/${options.name}.jpg`;
  await options.store.put(mediaKey, await readFile(output), CLIP_CONTENT_TYPE);
  await options.store.put(posterKey, await readFile(poster), CLIP_POSTER_CONTENT_TYPE);
  return { mediaKey, posterKey };
}

/**
 * Cuts `window` of a show's recording into one MP4, without re-encoding, and puts it and its
 * poster in the segment store beside the recording (`<eventId>/clips/<name>.mp4`, `.jpg`).
 *
 * How: the recording is fMP4 HLS whose segments each start on a keyframe (the packager forces one
 * every second and cuts a segment at each). The finished replay playlist in the store gives every
 * segment's program date time, so the clip starts with the segment the window's start falls in
 * and ends with the one its end falls in (domain clipSegments): both cut points are keyframes.
 * Those segments, after their run's init segment, are one fragmented MP4; ffmpeg reads it with
 * `-ss 0 -to <their length>` and `-c copy` (a remux: no frame is decoded) into a progressive MP4
 * with its index first (`+faststart`), timestamps from zero, that any browser and chat app plays.
 */
export async function cutClip(options: {
  ffmpeg: string;
  store: SegmentStore;
  eventId: string;
  window: ClipWindow;
  name: string;
}): Promise<ClipCut> {
  const { ffmpeg, store, eventId, window } = options;
  const playlist = await store.get(`${eventId}/${REPLAY_PLAYLIST}`);
  if (!playlist) throw new Error('the show has no finished recording');
  const entries = parseMediaPlaylist(playlist.toString('utf8'));
  const cut = clipSegments(entries, window);
  if (!cut || cut.segments.length === 0) throw new Error('the recording has no video at this moment');
  const initUri = cut.segments[0]?.initUri;
  const parts: Buffer[] = [];
  if (initUri) {
    const init = await store.get(`${eventId}/${initUri}`);
    if (!init) throw new Error(`the recording's ${initUri} is missing`);
    parts.push(init);
  }
  for (const segment of cut.segments) {
    const bytes = await store.get(`${eventId}/${segment.uri}`);
    if (!bytes) throw new Error(`the recording's ${segment.uri} is missing`);
    parts.push(bytes);
  }
  const seconds = cut.segments.reduce((sum, segment) => sum + segment.duration, 0);
  const work = await mkdtemp(join(tmpdir(), 'vitrine-clip-'));
  try {
    const source = join(work, 'source.mp4');
    const output = join(work, 'clip.mp4');
    await writeFile(source, Buffer.concat(parts));
    await run(
      ffmpeg,
      [
        ...['-hide_banner', '-loglevel', 'error', '-y'],
        ...['-ss', '0', '-to', seconds.toFixed(3), '-i', source],
        ...['-map', '0:v:0', '-map', '0:a:0?', '-c', 'copy'],
        ...['-movflags', '+faststart', '-f', 'mp4', output],
      ],
      { timeout: CUT_TIMEOUT_MS },
    );
    const keys = await storeClipAndPoster(options, work, output);
    return { ...keys, cutStart: cut.cutStart, durationMs: Math.round(seconds * 1000) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Cuts `window` of a show whose recording is one progressive MP4 on disk (the demo's replay is
 * demo-show.mp4, not an HLS recording in the store), `videoStart` being the stream time of its
 * first frame, and puts it in the segment store like any clip.
 *
 * How: `-ss` before the input and `-c copy` (a remux: no frame is decoded), so the clip starts
 * on the keyframe at or before the window's start (demo-show.mp4 has one every 1–2 s and one at
 * each product's start): at most that much earlier than the cutStart it reports.
 */
export async function cutClipFromMp4(options: {
  ffmpeg: string;
  store: SegmentStore;
  eventId: string;
  source: string;
  videoStart: number;
  window: ClipWindow;
  name: string;
}): Promise<ClipCut> {
  const { ffmpeg, window } = options;
  const from = Math.max(0, window.start - options.videoStart) / 1000;
  const seconds = (window.end - window.start) / 1000;
  const work = await mkdtemp(join(tmpdir(), 'vitrine-clip-'));
  try {
    const output = join(work, 'clip.mp4');
    await run(
      ffmpeg,
      [
        ...['-hide_banner', '-loglevel', 'error', '-y'],
        ...['-ss', from.toFixed(3), '-i', options.source, '-t', seconds.toFixed(3)],
        ...['-map', '0:v:0', '-map', '0:a:0?', '-c', 'copy', '-avoid_negative_ts', 'make_zero'],
        ...['-movflags', '+faststart', '-f', 'mp4', output],
      ],
      { timeout: CUT_TIMEOUT_MS },
    );
    const keys = await storeClipAndPoster(options, work, output);
    return { ...keys, cutStart: window.start, durationMs: Math.round(seconds * 1000) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
