/**
 * How a node packages its live shows (LIVE_PROFILE): the segment length, the live window and
 * the renditions. One setting instead of constants, so a node with the CPU for it can offer a
 * lower rendition beside the main one (an adaptive stream), and latency is tuned in one place.
 */

/** One rendition of a show. */
export interface LiveRendition {
  /** Its name in the setting and in its files' names: `720p`, `360p`. */
  name: string;
  /** The largest height of its picture (its width follows the picture's shape). */
  height: number;
  /** The highest frame rate it is encoded at. */
  maxFps: number;
  /** The video bitrate it is encoded at, in kbit/s (its master playlist bandwidth follows). */
  videoKbps: number;
}

export interface LiveProfile {
  /** The segment length asked of the packager; the publisher's keyframe interval should match it. */
  segmentSeconds: number;
  /** Segments in the live playlist's sliding window (the live edge a player may start from). */
  window: number;
  /**
   * The renditions, largest first. The first is the show's main one: H.264 from the publisher is
   * copied into it as it comes (any size); video to transcode is scaled to it. Every further one
   * is transcoded from the publisher's video (a core's share per show each).
   */
  renditions: LiveRendition[];
  /**
   * Whether viewers play the LL-HLS playlist (`ll.m3u8`, `ll-master.m3u8`) at Go live instead of
   * the regular one: on by default (about 1.2 s glass to glass instead of 3.5 s, bench/live
   * latency.md), `ll=off` to give every viewer the regular one. Both are always served (the
   * regular one for CDNs and players without LL-HLS). Never with several inline nodes, whose
   * viewers may be on a node that has the show's segments but not its parts.
   */
  lowLatency: boolean;
}

/** The audio of every rendition: AAC at this rate (kbit/s). */
export const LIVE_AUDIO_KBPS = 128;

/** Video bitrates by height when the setting names none (about YouTube's live recommendations). */
const VIDEO_KBPS_BY_HEIGHT: [number, number][] = [
  [1080, 4500],
  [720, 2500],
  [540, 1500],
  [480, 1100],
  [360, 700],
  [240, 400],
  [0, 250],
];

export const LIVE_PROFILE_LIMITS = {
  segmentSeconds: [0.5, 10],
  window: [3, 60],
  renditions: 4,
  height: [144, 2160],
  fps: [1, 60],
  videoKbps: [100, 20_000],
} as const;

const MAIN_RENDITION: LiveRendition = { name: '720p', height: 720, maxFps: 30, videoKbps: 2500 };
const LOW_RENDITION: LiveRendition = { name: '360p', height: 360, maxFps: 30, videoKbps: 700 };

/** Cores from which a node offers the 360p rendition by default (a transcode per show). */
export const LIVE_LOW_RENDITION_MIN_CORES = 4;

/**
 * The profile of a node that sets none: 1-second segments, a 6-segment window, 720p30, viewers on
 * the LL-HLS playlist; with LIVE_LOW_RENDITION_MIN_CORES cores or more, 360p30 beside it. A 2-core
 * node keeps its CPU for the shows themselves.
 */
export function defaultLiveProfile(cores: number): LiveProfile {
  return {
    segmentSeconds: 1,
    window: 6,
    renditions: cores >= LIVE_LOW_RENDITION_MIN_CORES ? [MAIN_RENDITION, LOW_RENDITION] : [MAIN_RENDITION],
    lowLatency: true,
  };
}

/** `720p30`, `360p`, `480p25@900k`: a height, a frame rate (30 unless said) and a bitrate. */
const RENDITION_PATTERN = /^([0-9]{3,4})p([0-9]{1,2})?(?:@([0-9]{2,5})k)?$/;

/**
 * Reads LIVE_PROFILE: `segment=1,window=6,renditions=720p30+360p30,ll=on`, each part optional (the
 * default's stands for what is left out). Answers the profile, or every problem in one message.
 */
export function parseLiveProfile(
  text: string,
  defaults: LiveProfile,
): { ok: true; profile: LiveProfile } | { ok: false; message: string } {
  const problems: string[] = [];
  const profile: LiveProfile = { ...defaults, renditions: [...defaults.renditions] };
  const limits = LIVE_PROFILE_LIMITS;
  const seen = new Set<string>();
  for (const part of text
    .split(',')
    .map((piece) => piece.trim())
    .filter(Boolean)) {
    const [key, value = '', extra] = part.split('=').map((piece) => piece.trim());
    if (extra !== undefined || !key || !value) {
      problems.push(`"${part}" is not key=value`);
      continue;
    }
    if (seen.has(key)) problems.push(`${key} is given twice`);
    seen.add(key);
    if (key === 'segment') {
      const seconds = Number(value.replace(/s$/, ''));
      const [min, max] = limits.segmentSeconds;
      if (!Number.isFinite(seconds) || seconds < min || seconds > max)
        problems.push(`segment must be seconds from ${min} to ${max} (got "${value}")`);
      else profile.segmentSeconds = seconds;
    } else if (key === 'window') {
      const window = Number(value);
      const [min, max] = limits.window;
      if (!Number.isInteger(window) || window < min || window > max)
        problems.push(`window must be a whole number of segments from ${min} to ${max} (got "${value}")`);
      else profile.window = window;
    } else if (key === 'renditions') {
      const renditions: LiveRendition[] = [];
      for (const token of value.split('+').map((piece) => piece.trim())) {
        const match = RENDITION_PATTERN.exec(token);
        if (!match) {
          problems.push(`rendition "${token}" is not HEIGHTp[FPS][@KBPSk], e.g. 720p30 or 360p30@700k`);
          continue;
        }
        const height = Number(match[1]);
        const maxFps = match[2] ? Number(match[2]) : 30;
        const videoKbps = match[3]
          ? Number(match[3])
          : (VIDEO_KBPS_BY_HEIGHT.find(([atLeast]) => height >= atLeast)?.[1] ?? 250);
        const bad = [
          height < limits.height[0] || height > limits.height[1] || height % 2 !== 0
            ? `an even height from ${limits.height[0]} to ${limits.height[1]}`
            : null,
          maxFps < limits.fps[0] || maxFps > limits.fps[1]
            ? `a frame rate from ${limits.fps[0]} to ${limits.fps[1]}`
            : null,
          videoKbps < limits.videoKbps[0] || videoKbps > limits.videoKbps[1]
            ? `a bitrate from ${limits.videoKbps[0]}k to ${limits.videoKbps[1]}k`
            : null,
        ].filter(Boolean);
        if (bad.length > 0) problems.push(`rendition "${token}" needs ${bad.join(' and ')}`);
        else renditions.push({ name: `${height}p`, height, maxFps, videoKbps });
      }
      if (renditions.length > limits.renditions)
        problems.push(`at most ${limits.renditions} renditions (got ${renditions.length})`);
      if (
        renditions.some(
          (rendition, index) => index > 0 && rendition.height >= (renditions[index - 1]?.height ?? 0),
        )
      )
        problems.push('renditions go from the largest to the smallest, each of its own height');
      if (renditions.length > 0) profile.renditions = renditions;
    } else if (key === 'll') {
      if (value !== 'on' && value !== 'off') problems.push(`ll must be on or off (got "${value}")`);
      else profile.lowLatency = value === 'on';
    } else problems.push(`unknown part "${key}" (segment, window, renditions, ll)`);
  }
  return problems.length > 0 ? { ok: false, message: problems.join('; ') } : { ok: true, profile };
}

/** One variant of an adaptive stream, as the master playlist lists it. */
export interface MasterVariant {
  /** Its media playlist, relative to the master playlist. */
  uri: string;
  /** Peak bits per second (segments' sizes over their durations, audio included). */
  bandwidth: number;
  codecs: readonly string[];
  width: number | null;
  height: number | null;
  frameRate: number | null;
}

/**
 * The master playlist of an adaptive stream (RFC 8216 §4.3.4.2): each rendition's media
 * playlist with what a player chooses by. The first listed is where most players start.
 */
export function masterPlaylist(variants: readonly MasterVariant[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const variant of variants) {
    const attributes = [
      `BANDWIDTH=${Math.max(1, Math.round(variant.bandwidth))}`,
      ...(variant.codecs.length > 0 ? [`CODECS="${variant.codecs.join(',')}"`] : []),
      ...(variant.width && variant.height ? [`RESOLUTION=${variant.width}x${variant.height}`] : []),
      ...(variant.frameRate ? [`FRAME-RATE=${variant.frameRate.toFixed(3)}`] : []),
    ];
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, variant.uri);
  }
  return [...lines, ''].join('\n');
}
