import { z } from 'zod';
import { Timestamp } from './common.ts';
import { LiveStreamHealth, LiveStreamView } from './live-stream.ts';

/**
 * The media channel (issue 29): how the web server's live service (the controller: stream keys,
 * the show's state, Go live and End) and the media worker (ingest, packaging, recording, the live
 * edge) talk when the worker runs in its own process. Every message is checked against these
 * schemas on both sides.
 *
 * - `GET  /media/events`  the worker's events to one controller, one JSON object a line
 *   (`MediaEvent`); its first line is `hello`. A request that needs an answer (`authorize`,
 *   `check-key`) carries an id, answered by an `answer` command.
 * - `POST /media/command` a controller's command (`MediaCommand`), answered in the response body.
 * - `GET  /media/read/<eventId>/<file>` a file of the show's live edge or recording, with the
 *   controller's view of the show in `MediaReadContext`'s query parameters (plus LL-HLS's own).
 * Every request carries the worker's token (`MEDIA_TOKEN_HEADER`); the worker answers nothing
 * without it.
 */
export const MEDIA_PATHS = {
  events: '/media/events',
  command: '/media/command',
  read: '/media/read/',
} as const;
export const MEDIA_TOKEN_HEADER = 'x-vitrine-media-token';
/**
 * On a read's 404: `0` when the worker holds nothing of the show (the controller looks in the
 * store), `1` when it holds the show but not that file.
 */
export const MEDIA_HELD_HEADER = 'x-vitrine-media-held';
/**
 * A child worker's IPC: the web server sends it its settings and token (`MEDIA_WORKER_SETTINGS`,
 * never in the environment, where the bucket's secret would show), and the worker answers where
 * it listens (`MEDIA_WORKER_READY`).
 */
export const MEDIA_WORKER_SETTINGS = 'media-worker-settings';
export const MEDIA_WORKER_READY = 'media-worker-ready';

const EventId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);
const RequestId = z.string().min(1).max(64);

export const MediaPublishProtocol = z.enum(['rtmp', 'whip', 'srt', 'premiere']);
export const MediaVideoCodec = z.enum(['h264', 'vp8', 'vp9', 'av1', 'other']);
export const MediaRefusalReason = z.enum([
  'unknown-key',
  'already-publishing',
  'ended',
  'no-ffmpeg',
  'beyond-transcode-budget',
]);
export const MediaPublishEndReason = z.enum([
  'publisher-gone',
  'show-ended',
  'packager-failed',
  'beyond-transcode-budget',
  'packager-behind',
]);

/** A publisher at the worker's ingest, as the controller judges it (key, state, transcode budget). */
export const MediaAuthorizeRequest = z.object({
  streamKey: z.string().min(1).max(256),
  protocol: MediaPublishProtocol,
  videoCodec: MediaVideoCodec,
  /** What the publisher declares of its video (RTMP metadata); null when nothing. */
  videoFormat: z
    .object({
      width: z.number().nullable(),
      height: z.number().nullable(),
      framesPerSecond: z.number().nullable(),
    })
    .nullable(),
  remoteAddress: z.string().max(256).nullable(),
});
export type MediaAuthorizeRequest = z.infer<typeof MediaAuthorizeRequest>;

/**
 * The controller's answer: the show may take the publisher (its state moved to receiving or
 * live), or why not (`eventId` when the show is known, so its studio shows the refusal).
 */
export const MediaPublishAnswer = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), eventId: EventId }),
  z.object({
    ok: z.literal(false),
    reason: MediaRefusalReason,
    message: z.string(),
    eventId: EventId.nullable(),
  }),
]);
export type MediaPublishAnswer = z.infer<typeof MediaPublishAnswer>;

export const MediaCheckKeyAnswer = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), eventId: EventId }),
  z.object({ ok: z.literal(false), reason: MediaRefusalReason, message: z.string() }),
]);
export type MediaCheckKeyAnswer = z.infer<typeof MediaCheckKeyAnswer>;

/** The controller's view of a show a read needs: whether it ended, when it went live, a valid preview. */
export const MediaReadContext = z.object({
  ended: z.boolean(),
  liveStartTime: Timestamp.nullable(),
  previewing: z.boolean(),
});
export type MediaReadContext = z.infer<typeof MediaReadContext>;

/** A show's stream as the worker sees it. */
export const MediaShow = z.object({
  /** Whether the worker holds the show's recording (it ingested it). */
  holds: z.boolean(),
  publishing: z.boolean(),
  health: LiveStreamHealth.nullable(),
  refusal: z.object({ message: z.string(), at: Timestamp }).nullable(),
  disk: LiveStreamView.shape.disk,
  segments: z.number().int().nonnegative(),
});
export type MediaShow = z.infer<typeof MediaShow>;

/** The end of a show's stream: its first frame's time, and why the replay was not written, if not. */
export const MediaEndAnswer = z.object({
  firstFrame: z.number().nonnegative().nullable(),
  notWritten: z.string().nullable(),
  segments: z.number().int().nonnegative(),
});
export type MediaEndAnswer = z.infer<typeof MediaEndAnswer>;

/**
 * A premiere's uploaded video played as a live input by the worker: from its current point at
 * `startsAt` over `durationSeconds` (the file must be at `path` on the worker's machine).
 */
export const MediaFileInput = z.object({
  path: z.string().min(1).max(4096),
  startsAt: Timestamp,
  durationSeconds: z.number().positive(),
  videoCodec: MediaVideoCodec,
});
export type MediaFileInput = z.infer<typeof MediaFileInput>;

/** What the worker tells a controller. */
export const MediaEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('hello'),
    ingest: z.object({ rtmpPort: z.number().int().nullable(), whipPath: z.string().nullable() }),
    ffmpeg: z.object({ available: z.boolean(), path: z.string().nullable(), missing: z.string().nullable() }),
  }),
  z.object({ type: z.literal('authorize'), id: RequestId, request: MediaAuthorizeRequest }),
  z.object({ type: z.literal('check-key'), id: RequestId, streamKey: z.string().min(1).max(256) }),
  z.object({ type: z.literal('publisher-gone'), eventId: EventId, reason: MediaPublishEndReason }),
  z.object({ type: z.literal('played-out'), eventId: EventId }),
  z.object({ type: z.literal('segment'), eventId: EventId, rendition: z.number().int().nonnegative() }),
  /** A publish the controller started (`publish-file`) ended, for any reason. */
  z.object({ type: z.literal('publish-ended'), eventId: EventId, reason: MediaPublishEndReason }),
  /** Keeps the line open through proxies; no meaning of its own. */
  z.object({ type: z.literal('ping') }),
]);
export type MediaEvent = z.infer<typeof MediaEvent>;

/** What a controller asks the worker; each answers with the `MediaCommandAnswers` shape of its type. */
export const MediaCommand = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('answer'),
    id: RequestId,
    answer: z.union([MediaPublishAnswer, MediaCheckKeyAnswer]),
  }),
  z.object({ type: z.literal('describe'), eventId: EventId }),
  z.object({ type: z.literal('end'), eventId: EventId, liveStartTime: Timestamp.nullable() }),
  z.object({ type: z.literal('drop-oldest'), eventId: EventId, keep: z.number().int().nonnegative() }),
  z.object({ type: z.literal('stop-publisher'), eventId: EventId }),
  z.object({ type: z.literal('end-publish'), eventId: EventId }),
  z.object({ type: z.literal('publish-file'), streamKey: z.string().min(1).max(256), input: MediaFileInput }),
]);
export type MediaCommand = z.infer<typeof MediaCommand>;

export const MediaCommandAnswers = {
  answer: z.object({ ok: z.literal(true) }),
  describe: MediaShow,
  end: MediaEndAnswer,
  'drop-oldest': z.object({ dropped: z.number().int().nonnegative() }),
  'stop-publisher': z.object({ ok: z.literal(true) }),
  'end-publish': z.object({ ok: z.literal(true) }),
  'publish-file': z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), eventId: EventId }),
    z.object({ ok: z.literal(false), reason: MediaRefusalReason, message: z.string() }),
  ]),
} as const satisfies Record<MediaCommand['type'], z.ZodType>;
export type MediaCommandAnswer<T extends MediaCommand['type']> = z.infer<(typeof MediaCommandAnswers)[T]>;

/** A read's context as query parameters (beside LL-HLS's `_HLS_*`). */
export function mediaReadParams(context: MediaReadContext): Record<'ended' | 'start' | 'preview', string> {
  return {
    ended: context.ended ? '1' : '0',
    start: context.liveStartTime === null ? '' : String(context.liveStartTime),
    preview: context.previewing ? '1' : '0',
  };
}

/** The context back from a read's query parameters (`param` reads one); null when it is not one. */
export function parseMediaReadParams(param: (name: string) => string | null): MediaReadContext | null {
  const ended = param('ended');
  const start = param('start');
  const parsed = MediaReadContext.safeParse({
    ended: ended === '1',
    liveStartTime: start ? Number(start) : null,
    previewing: param('preview') === '1',
  });
  return parsed.success && (ended === '0' || ended === '1') ? parsed.data : null;
}
