import { RESTREAM_SERVER_URL_PATTERN, RESTREAM_STATES, RESTREAM_STREAM_KEY_PATTERN } from '@vitrine/domain';
import { z } from 'zod';
import { Timestamp } from './common.ts';

export const RestreamState = z.enum(RESTREAM_STATES);
export type RestreamState = z.infer<typeof RestreamState>;

/** A new destination a show is sent on to: the platform's server URL and its stream key. */
export const RestreamDestinationInput = z.object({
  /** The host's own name for it ("YouTube", "Facebook page"). */
  label: z.string().trim().min(1).max(60),
  /** The platform's RTMP or RTMPS server, without the key (YouTube: rtmp://a.rtmp.youtube.com/live2). */
  serverUrl: z
    .string()
    .trim()
    .max(300)
    .regex(RESTREAM_SERVER_URL_PATTERN, 'must be an rtmp:// or rtmps:// server URL with an application path'),
  /** The platform's stream key: kept secret, never sent back (only its masked form). */
  streamKey: z
    .string()
    .trim()
    .regex(RESTREAM_STREAM_KEY_PATTERN, 'must be 1–512 printable characters without spaces'),
});
export type RestreamDestinationInput = z.infer<typeof RestreamDestinationInput>;

/** A destination as the studio sees it: its stream key only masked, and its health. */
export const RestreamDestination = z.object({
  id: z.string(),
  label: z.string(),
  serverUrl: z.string(),
  /** The saved key's last characters behind dots (`••••wxyz`); the key itself never leaves the server. */
  streamKeyMasked: z.string(),
  /** Whether the host started it (it runs while the show is live, and stops when the show ends). */
  started: z.boolean(),
  state: RestreamState,
  /** Why it failed (the platform refused the key, could not be reached…); null otherwise. */
  reason: z.string().nullable(),
  /** Bytes sent to the platform by the current run. */
  bytesSent: z.number().int().nonnegative(),
  /** The bitrate sent, kilobits per second; null before anything was. */
  bitrateKbps: z.number().nonnegative().nullable(),
  /** Since when it is in its state. */
  since: Timestamp.nullable(),
});
export type RestreamDestination = z.infer<typeof RestreamDestination>;

/** A show's destinations and how many it may have. */
export const RestreamList = z.object({
  destinations: z.array(RestreamDestination),
  max: z.number().int().positive(),
  /** Whether this server can restream (it has ffmpeg); `missing` says what to install otherwise. */
  available: z.boolean(),
  missing: z.string().nullable(),
});
export type RestreamList = z.infer<typeof RestreamList>;
