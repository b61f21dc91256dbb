/**
 * What one node can take of a live show: the disk its recording fills, and the video it must
 * transcode (H.264 is passed through at any size; anything else costs decoding and encoding).
 */

/** Below this much free disk where recordings go, the studio warns the host. */
export const LOW_DISK_BYTES = 2 * 1024 ** 3;
/** Below this many minutes of recording left at the current bitrate, the studio warns too. */
export const LOW_DISK_MINUTES = 30;
/**
 * Free space a recording keeps in hand: below it the packager stops writing to the disk (the
 * show goes on from memory) before a write can fail half-way.
 */
export const DISK_RESERVE_MIN_BYTES = 1024 ** 2;
/** …or this many seconds of the stream at its current bitrate, whichever is more. */
export const DISK_RESERVE_SECONDS = 10;
/** Recording resumes on the disk once this many reserves are free again (no flapping). */
export const DISK_RESUME_RESERVES = 4;

export interface DiskOutlook {
  freeBytes: number;
  /** Minutes of recording left at `bitrateKbps`; null without a bitrate. */
  minutesLeft: number | null;
  /** Whether the host should be warned (free space or minutes under the thresholds). */
  low: boolean;
  /** Bytes below which the recording must stop writing to the disk. */
  reserveBytes: number;
}

/** The outlook of the recordings disk with `freeBytes` free while `bitrateKbps` arrive. */
export function diskOutlook(freeBytes: number, bitrateKbps: number | null): DiskOutlook {
  const bytesPerSecond = bitrateKbps && bitrateKbps > 0 ? (bitrateKbps * 1000) / 8 : null;
  const reserveBytes = Math.max(DISK_RESERVE_MIN_BYTES, (bytesPerSecond ?? 0) * DISK_RESERVE_SECONDS);
  const minutesLeft =
    bytesPerSecond === null
      ? null
      : Math.max(0, Math.floor((freeBytes - reserveBytes) / bytesPerSecond / 60));
  return {
    freeBytes,
    minutesLeft,
    low: freeBytes < LOW_DISK_BYTES || (minutesLeft !== null && minutesLeft < LOW_DISK_MINUTES),
    reserveBytes,
  };
}

/** The most video a node transcodes: frame size and rate (a 4K 60 fps stream is 16 times 1080p30). */
export interface TranscodeBudget {
  width: number;
  height: number;
  framesPerSecond: number;
}

/** The default budget: 1080p at 30 fps, what libx264 veryfast keeps up with on a core or two. */
export const DEFAULT_TRANSCODE_BUDGET: TranscodeBudget = { width: 1920, height: 1080, framesPerSecond: 30 };

/**
 * Reads LIVE_TRANSCODE_MAX: `WIDTHxHEIGHT@FPS` (e.g. `1920x1080@30`), or `none` for a node that
 * transcodes nothing (only H.264 publishers are taken). Null when the text says neither.
 */
export function parseTranscodeBudget(text: string): TranscodeBudget | 'none' | null {
  if (text === 'none') return 'none';
  const match = /^([0-9]{2,5})x([0-9]{2,5})@([0-9]{1,3})$/.exec(text);
  if (!match) return null;
  const [width, height, framesPerSecond] = match.slice(1).map(Number) as [number, number, number];
  return width > 0 && height > 0 && framesPerSecond > 0 ? { width, height, framesPerSecond } : null;
}

/** What a publisher says of its video (RTMP's metadata); null where it says nothing. */
export interface PublishedVideoFormat {
  width: number | null;
  height: number | null;
  framesPerSecond: number | null;
}

/**
 * Why a stream that must be transcoded is beyond the node's budget, or null when it fits (or
 * says nothing of its size: a browser publishes what the studio asked for). A frame larger than
 * the budget's, or more pixels a second, is refused: decoding alone would take the node.
 */
export function transcodeRefusal(
  format: PublishedVideoFormat | null,
  budget: TranscodeBudget | 'none',
): string | null {
  if (budget === 'none') {
    return 'This stream is not H.264, and this node transcodes no video: send H.264 (passed through at any size).';
  }
  if (!format?.width || !format.height) return null;
  const pixels = format.width * format.height;
  const budgetPixels = budget.width * budget.height;
  const pixelRate = pixels * (format.framesPerSecond ?? budget.framesPerSecond);
  if (pixels <= budgetPixels && pixelRate <= budgetPixels * budget.framesPerSecond) return null;
  const rate = format.framesPerSecond ? ` at ${Math.round(format.framesPerSecond)} fps` : '';
  const described = `${format.width}×${format.height}${rate}`;
  const advice = 'Send H.264 (passed through at any size), or lower the resolution or frame rate.';
  return `This ${described} stream is not H.264, so this node would have to transcode it, and it transcodes at most ${budget.width}×${budget.height} at ${budget.framesPerSecond} fps. ${advice}`;
}
