import { LIVE_STREAM_STATES, LL_MASTER_PLAYLIST_FILE, LL_PLAYLIST_FILE } from '@vitrine/domain';
import { z } from 'zod';
import { Timestamp } from './common.ts';

export const LiveStreamState = z.enum(LIVE_STREAM_STATES);
export type LiveStreamState = z.infer<typeof LiveStreamState>;

/** What the packager measures of the incoming stream (ffmpeg's progress), for the studio. */
export const LiveStreamHealth = z.object({
  protocol: z.enum(['rtmp', 'whip', 'srt', 'premiere']),
  /** Kilobits per second arriving from the publisher. */
  bitrateKbps: z.number().nonnegative().nullable(),
  framesPerSecond: z.number().nonnegative().nullable(),
  /** Seconds between keyframes (the segment length follows it; 1 s is right). */
  keyframeIntervalSeconds: z.number().nonnegative().nullable(),
  /** Frames the packager dropped since the publish began. */
  droppedFrames: z.number().int().nonnegative(),
  /** Whether the video is passed through (H.264) or transcoded. */
  videoPassthrough: z.boolean(),
  /** When the current publisher started. */
  since: Timestamp,
});
export type LiveStreamHealth = z.infer<typeof LiveStreamHealth>;

/**
 * The playlists of a live show under `/live/<eventId>/`: the regular live window (`live.m3u8`,
 * for CDNs and players without LL-HLS), the LL-HLS one from the same segments (`ll.m3u8`, with
 * parts, blocking reload and delta updates), the replay, and with several renditions their
 * master playlists. A further rendition's media playlists begin with its name (`360p-ll.m3u8`).
 */
export const LIVE_PLAYLIST_FILES = {
  live: 'live.m3u8',
  lowLatency: LL_PLAYLIST_FILE,
  replay: 'replay.m3u8',
  liveMaster: 'master.m3u8',
  lowLatencyMaster: LL_MASTER_PLAYLIST_FILE,
  replayMaster: 'replay-master.m3u8',
} as const;

/** The public paths of a show's playlists (LIVE_PLAYLIST_FILES under `/live/<eventId>/`). */
export const livePlaylistPaths = (eventId: string) => ({
  live: `/live/${eventId}/${LIVE_PLAYLIST_FILES.live}`,
  lowLatency: `/live/${eventId}/${LIVE_PLAYLIST_FILES.lowLatency}`,
  replay: `/live/${eventId}/${LIVE_PLAYLIST_FILES.replay}`,
  liveMaster: `/live/${eventId}/${LIVE_PLAYLIST_FILES.liveMaster}`,
  lowLatencyMaster: `/live/${eventId}/${LIVE_PLAYLIST_FILES.lowLatencyMaster}`,
  replayMaster: `/live/${eventId}/${LIVE_PLAYLIST_FILES.replayMaster}`,
});

/** A show's stream as the studio's go-live page shows it. */
export const LiveStreamView = z.object({
  eventId: z.string(),
  state: LiveStreamState,
  /** The secret an encoder publishes with (OBS: "Stream Key"); rotating it refuses the old one. */
  streamKey: z.string(),
  /** OBS's "Server" for RTMP; null when this node takes no RTMP (RTMP_PORT=off). */
  rtmpUrl: z.string().nullable(),
  /** The WHIP endpoint (OBS 30+ "WHIP", the studio's browser go-live); null while not offered. */
  whipUrl: z.string().nullable(),
  /** Where viewers play it: the live playlist while live, the replay playlist afterwards. */
  liveUrl: z.string(),
  /** The LL-HLS playlist (its master with several renditions), served by the node that packages the show. */
  lowLatencyUrl: z.string(),
  replayUrl: z.string(),
  /** The live playlist for the studio's preview: it plays before Go live, when viewers get nothing yet. */
  previewUrl: z.string(),
  liveStartTime: Timestamp.nullable(),
  liveEndTime: Timestamp.nullable(),
  /** The incoming stream's figures; null while nobody publishes. */
  health: LiveStreamHealth.nullable(),
  /** Whether this node can package streams; `missing` says exactly what to install otherwise. */
  packager: z.object({
    available: z.boolean(),
    ffmpeg: z.string().nullable(),
    missing: z.string().nullable(),
  }),
  /**
   * The disk where recordings are written: free space, the minutes of recording left at the
   * incoming bitrate, whether it runs low (the studio warns), and whether it is full (`full`:
   * the show goes on for viewers from memory, but the recording pauses until space is freed).
   */
  disk: z.object({
    freeBytes: z.number().nonnegative().nullable(),
    minutesLeft: z.number().int().nonnegative().nullable(),
    low: z.boolean(),
    full: z.boolean(),
  }),
  /**
   * The last publish this show refused for what it sent (e.g. a 4K 60 fps stream this node
   * would have to transcode), with why; null when none was.
   */
  refusal: z.object({ message: z.string(), at: Timestamp }).nullable(),
});
export type LiveStreamView = z.infer<typeof LiveStreamView>;
