import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { PREMIERE_MAX_SECONDS } from '@vitrine/domain';
import { HttpError } from '../../http/errors.ts';
import type { FfmpegDiscovery } from '../live/ffmpeg-binary.ts';
import type { ProbedMedia } from './premiere-store.ts';

/** The tools a premiere needs: ffmpeg plays it (the live packager's), ffprobe checks the upload. */
export type PremiereTools =
  | { available: true; ffmpeg: string; ffprobe: string }
  | { available: false; missing: string };

/** How long ffprobe may read one file (it reads the header and index, not the whole video). */
const PROBE_TIMEOUT_MS = 30_000;

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/**
 * Finds ffprobe beside the live packager's ffmpeg (FFMPEG_PATH or the system's), else on PATH.
 * The npm package's ffmpeg has no ffprobe: premieres then say what to install.
 */
export function discoverPremiereTools(
  ffmpeg: FfmpegDiscovery,
  env: NodeJS.ProcessEnv = process.env,
): PremiereTools {
  if (!ffmpeg.available) return { available: false, missing: ffmpeg.missing };
  const candidates = [
    join(dirname(ffmpeg.path), 'ffprobe'),
    ...(env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .map((dir) => join(dir, 'ffprobe')),
  ];
  const ffprobe = candidates.find(executable);
  return ffprobe
    ? { available: true, ffmpeg: ffmpeg.path, ffprobe }
    : {
        available: false,
        missing:
          'ffprobe is not installed (it checks uploaded premieres): install ffmpeg from your system (Debian/Ubuntu: apt-get install ffmpeg), then restart the server.',
      };
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
}
interface ProbeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: ProbeStream[];
}

/** Container names ffprobe gives MP4 and QuickTime files (one demuxer reads them all). */
const MP4_FORMAT = /(^|,)(mov|mp4)(,|$)/;

const notAVideo = (detail: string) =>
  new HttpError(415, 'unsupported_media_type', `This file is not a video the server can play: ${detail}`);

/**
 * Reads an uploaded video with ffprobe and checks it can premiere: an MP4/QuickTime file (else
 * 415), with a video track the server can decode and at most PREMIERE_MAX_SECONDS long (else 422).
 */
export async function probePremiereMedia(ffprobe: string, path: string): Promise<ProbedMedia> {
  const output = await new Promise<ProbeOutput | null>((resolve) => {
    execFile(
      ffprobe,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path],
      { timeout: PROBE_TIMEOUT_MS, maxBuffer: 4 * 1024 ** 2 },
      (error, stdout) => {
        if (error) return resolve(null);
        try {
          resolve(JSON.parse(stdout) as ProbeOutput);
        } catch {
          resolve(null);
        }
      },
    );
  });
  if (!output?.format?.format_name) throw notAVideo('it could not be read as MP4 or QuickTime.');
  if (!MP4_FORMAT.test(output.format.format_name))
    throw notAVideo(`it is ${output.format.format_name}, not MP4 or QuickTime.`);
  const streams = output.streams ?? [];
  const video = streams.find((stream) => stream.codec_type === 'video' && stream.codec_name !== 'mjpeg');
  if (!video)
    throw new HttpError(
      422,
      'unprocessable',
      'This video has no picture (no video track); a premiere needs one.',
    );
  if (!video.codec_name || !video.width || !video.height)
    throw notAVideo('its video track uses a codec the server cannot decode.');
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  const seconds = Number.parseFloat(output.format.duration ?? video.duration ?? '');
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new HttpError(422, 'unprocessable', 'This video has no duration (is it complete?).');
  if (seconds > PREMIERE_MAX_SECONDS)
    throw new HttpError(
      422,
      'unprocessable',
      `This video is ${formatHours(seconds)} long; a premiere may last at most ${formatHours(PREMIERE_MAX_SECONDS)}.`,
    );
  return {
    durationMs: Math.round(seconds * 1000),
    width: video.width,
    height: video.height,
    videoCodec: video.codec_name,
    audioCodec: audio?.codec_name ?? null,
  };
}

function formatHours(seconds: number): string {
  const total = Math.round(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  return `${hours} h ${String(minutes).padStart(2, '0')} min`;
}
