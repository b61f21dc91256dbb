import { execFile } from 'node:child_process';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseMediaPlaylist, type RecordedSegment, replayMediaPlaylist } from '@vitrine/domain';

const run = promisify(execFile);

/** The replay playlist of a premiere, beside its segments in the replay's folder. */
export const PREMIERE_REPLAY_PLAYLIST = 'replay.m3u8';
/** The names a viewer may fetch from a premiere's replay folder. */
export const PREMIERE_REPLAY_FILE_PATTERN = /^(init\.mp4|p[0-9]{5}\.m4s|replay\.m3u8)$/;
/** Seconds per replay segment (a replay is fetched ahead, so longer than live's is fine). */
const REPLAY_SEGMENT_SECONDS = 4;
/**
 * How long packaging one file may take: a copy (H.264) takes seconds, an encode up to about the
 * video's length on a small machine, so twice its length on top of a fixed allowance.
 */
const packageTimeoutMs = (durationMs: number) => 10 * 60_000 + 2 * durationMs;

/** Where viewers play a premiere's replay: `/premieres/<eventId>/replay.m3u8`. */
export const premiereReplayPath = (eventId: string, file = PREMIERE_REPLAY_PLAYLIST) =>
  `/premieres/${eventId}/${file}`;

/**
 * Packages the premiere's uploaded file, whole, as the show's replay (fMP4 HLS, VOD) into
 * `outDir`. The live recording is what reached viewers, with holes where the server was down;
 * the replay of a premiere is the file itself, stamped on the premiere's clock (its first frame
 * at `startsAt`) so product cues fall where they fell live.
 */
export async function packagePremiereReplay(options: {
  ffmpeg: string;
  file: string;
  outDir: string;
  startsAt: number;
  durationMs: number;
  videoCodec: string;
  audioCodec: string | null;
}): Promise<{ seconds: number }> {
  const { ffmpeg, file, outDir, startsAt } = options;
  const work = `${outDir}.part`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  await run(
    ffmpeg,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-i',
      file,
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      // H.264 (what viewers got live, passed through) is copied; anything else is encoded once.
      // An encode gets a keyframe at each segment's start, so segments are cut where asked.
      ...(options.videoCodec === 'h264'
        ? ['-c:v', 'copy']
        : [
            ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'],
            ...['-force_key_frames', `expr:gte(t,n_forced*${REPLAY_SEGMENT_SECONDS})`],
          ]),
      ...(options.audioCodec === 'aac' ? ['-c:a', 'copy'] : ['-c:a', 'aac']),
      '-f',
      'hls',
      '-hls_time',
      String(REPLAY_SEGMENT_SECONDS),
      '-hls_playlist_type',
      'vod',
      '-hls_segment_type',
      'fmp4',
      '-hls_fmp4_init_filename',
      'init.mp4',
      '-hls_segment_filename',
      join(work, 'p%05d.m4s'),
      join(work, 'ffmpeg.m3u8'),
    ],
    { timeout: packageTimeoutMs(options.durationMs) },
  ).catch(async (error: unknown) => {
    await rm(work, { recursive: true, force: true });
    throw error;
  });
  const entries = parseMediaPlaylist(await readFile(join(work, 'ffmpeg.m3u8'), 'utf8'));
  let at = startsAt;
  const segments: RecordedSegment[] = entries.map((entry, sequence) => {
    const segment = {
      sequence,
      uri: entry.uri,
      initUri: 'init.mp4',
      duration: entry.duration,
      programDateTime: Math.round(at),
      discontinuity: false,
    };
    at += entry.duration * 1000;
    return segment;
  });
  if (segments.length === 0) throw new Error('ffmpeg wrote no segment of the premiere file');
  await writeFile(
    join(work, PREMIERE_REPLAY_PLAYLIST),
    replayMediaPlaylist(segments, true, REPLAY_SEGMENT_SECONDS),
  );
  await rm(join(work, 'ffmpeg.m3u8'), { force: true });
  // Whole or not at all: viewers never get a half-written replay.
  await rm(outDir, { recursive: true, force: true });
  await rename(work, outDir);
  return { seconds: (at - startsAt) / 1000 };
}
