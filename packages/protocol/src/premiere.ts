import { PREMIERE_STATES } from '@vitrine/domain';
import { z } from 'zod';
import { Timestamp } from './common.ts';

export const PremiereState = z.enum(PREMIERE_STATES);
export type PremiereState = z.infer<typeof PremiereState>;

/** The uploaded file of a premiere as ffprobe read it. */
export const PremiereMedia = z.object({
  /** The name the host's file had (shown back to them; never a path on the server). */
  fileName: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  durationSeconds: z.number().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** ffprobe's codec names, e.g. `h264` (passed through) and `aac`; null when there is no audio. */
  videoCodec: z.string(),
  audioCodec: z.string().nullable(),
});
export type PremiereMedia = z.infer<typeof PremiereMedia>;

/** A show's premiere: its file, when it plays and where it stands. */
export const PremiereView = z.object({
  eventId: z.string(),
  state: PremiereState,
  media: PremiereMedia,
  /** When it plays as live (the show's start too); null until scheduled. */
  startsAt: Timestamp.nullable(),
  /** Seconds into the file it is now, while playing. */
  position: z.number().nonnegative().nullable(),
  /** Why it failed, in words for the host; null otherwise. */
  error: z.string().nullable(),
});
export type PremiereView = z.infer<typeof PremiereView>;

/** What the studio's premiere panel gets: the premiere (if any) and what this node can do. */
export const PremiereInfo = z.object({
  premiere: PremiereView.nullable(),
  /** Whether this node has ffmpeg and ffprobe to check and play a premiere; `missing` says what to install. */
  available: z.boolean(),
  missing: z.string().nullable(),
  maxBytes: z.number().int().positive(),
  maxSeconds: z.number().int().positive(),
  /** The media types an upload may have. */
  mediaTypes: z.array(z.string()),
});
export type PremiereInfo = z.infer<typeof PremiereInfo>;
