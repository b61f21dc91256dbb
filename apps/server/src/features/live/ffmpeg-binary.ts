import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, join } from 'node:path';

/** The ffmpeg this node packages live streams with, or what is missing. */
export type FfmpegDiscovery =
  | { available: true; path: string; source: 'FFMPEG_PATH' | 'PATH' | 'npm' }
  | { available: false; missing: string };

/**
 * npm packages that ship an ffmpeg binary inside the package itself (no download at install:
 * the machines we run on may reach nothing but the npm registry), tried after the system's.
 */
export const PACKAGED_FFMPEG = [`@ffmpeg-installer/${process.platform}-${process.arch}`];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds ffmpeg: FFMPEG_PATH when set (and then only it), else `ffmpeg` on PATH, else a binary
 * shipped in an installed npm package. Without one, everything but live packaging works and the
 * studio's stream call says what to install.
 */
export function discoverFfmpeg(
  configured: string | null,
  env: NodeJS.ProcessEnv = process.env,
  packages: readonly string[] = PACKAGED_FFMPEG,
): FfmpegDiscovery {
  if (configured) {
    return executable(configured)
      ? { available: true, path: configured, source: 'FFMPEG_PATH' }
      : { available: false, missing: `FFMPEG_PATH names ${configured}, which is not an executable file.` };
  }
  for (const dir of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'ffmpeg');
    if (executable(candidate)) return { available: true, path: candidate, source: 'PATH' };
  }
  const require = createRequire(import.meta.url);
  for (const name of packages) {
    try {
      const manifest = require.resolve(`${name}/package.json`);
      const candidate = join(manifest, '..', process.platform === 'win32' ? 'ffmpeg.exe' : 'ffmpeg');
      if (executable(candidate)) return { available: true, path: candidate, source: 'npm' };
    } catch {
      // Not installed: try the next.
    }
  }
  return {
    available: false,
    missing:
      'ffmpeg is not installed: install it (Debian/Ubuntu: apt-get install ffmpeg; macOS: brew install ffmpeg) or set FFMPEG_PATH to an ffmpeg binary, then restart the server.',
  };
}
