import { execFile, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { FFMPEG_MIN_MAJOR_VERSION, ffmpegVersionSupported, parseFfmpegVersion } from '@vitrine/domain';

/** The ffmpeg this node packages live streams with (and its version), or what is missing. */
export type FfmpegDiscovery =
  | { available: true; path: string; source: 'FFMPEG_PATH' | 'PATH'; version: string }
  | { available: false; missing: string };

const INSTALL_HINT =
  'install it (Debian/Ubuntu: apt-get install ffmpeg; macOS: brew install ffmpeg) or set FFMPEG_PATH to an ffmpeg binary, then restart the server.';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `ffmpeg -version` per binary, asked once per process: every app a test builds would ask again. */
const versions = new Map<string, string | null>();
function versionLine(path: string): string | null {
  if (!versions.has(path)) {
    // Generous: a machine busy with other work may take seconds to start any process.
    const result = spawnSync(path, ['-version'], { encoding: 'utf8', timeout: 60_000 });
    versions.set(path, result.status === 0 ? (result.stdout.split('\n')[0] ?? '') : null);
  }
  return versions.get(path) ?? null;
}

/**
 * Asks the ffmpeg `discoverFfmpeg` will check for its version in the background, so that the
 * check finds the answer waiting: the server's start does it while the database opens, instead
 * of waiting ~0.1 s (seconds on a busy machine) for `ffmpeg -version` on the way to listening.
 */
export function askFfmpegVersionAhead(
  configured: string | null,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const path = configured ?? ffmpegOnPath(env);
  if (!path || versions.has(path) || !executable(path)) return Promise.resolve();
  return new Promise((resolve) => {
    execFile(path, ['-version'], { encoding: 'utf8', timeout: 60_000 }, (error, stdout) => {
      // A failure is not remembered: the synchronous check asks again and says what is wrong.
      if (!error && !versions.has(path)) versions.set(path, stdout.split('\n')[0] ?? '');
      resolve();
    });
  });
}

/** The first `ffmpeg` on PATH that is an executable file. */
function ffmpegOnPath(env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'ffmpeg');
    if (executable(candidate)) return candidate;
  }
  return null;
}

/** The binary at `path` if it is an ffmpeg of a version live packaging works with. */
function checked(path: string, source: 'FFMPEG_PATH' | 'PATH'): FfmpegDiscovery {
  const line = versionLine(path);
  const version = line === null ? null : parseFfmpegVersion(line);
  if (!version) return { available: false, missing: `${path} did not answer as ffmpeg: ${INSTALL_HINT}` };
  if (!ffmpegVersionSupported(version))
    return {
      available: false,
      missing: `${path} is ffmpeg ${version.text}; live video needs ffmpeg ${FFMPEG_MIN_MAJOR_VERSION} or later: ${INSTALL_HINT}`,
    };
  return { available: true, path, source, version: version.text };
}

/**
 * Finds ffmpeg: FFMPEG_PATH when set (and then only it), else `ffmpeg` on PATH; it must be
 * version 5 or later. Without one, everything but live video works, and the start-up report and
 * the studio's go-live page say what to install.
 */
export function discoverFfmpeg(
  configured: string | null,
  env: NodeJS.ProcessEnv = process.env,
): FfmpegDiscovery {
  if (configured) {
    return executable(configured)
      ? checked(configured, 'FFMPEG_PATH')
      : { available: false, missing: `FFMPEG_PATH names ${configured}, which is not an executable file.` };
  }
  const onPath = ffmpegOnPath(env);
  if (onPath) return checked(onPath, 'PATH');
  return {
    available: false,
    missing: `ffmpeg ${FFMPEG_MIN_MAJOR_VERSION} or later is not installed: ${INSTALL_HINT}`,
  };
}
