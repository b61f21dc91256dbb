import { PREMIERE_MAX_BYTES, PREMIERE_MAX_SECONDS } from '@vitrine/domain';
import { z } from 'zod';
import { Uid } from '../../common.ts';
import { PremiereInfo } from '../../premiere.ts';
import { TimeZone } from '../../store-settings.ts';
import { call } from '../define-call.ts';

const ShowPath = z.object({ pageUid: Uid, showUid: Uid });

/** The videos a premiere may be (MP4 and the QuickTime files phones record; ffprobe checks the content). */
export const PREMIERE_MEDIA_TYPES = ['video/mp4', 'video/quicktime'] as const;

/**
 * When a premiere plays: a wall-clock time in the store's time zone, like a show's start, to the
 * second if wanted (`<input type="datetime-local" step="1">` gives `2026-05-01T19:00:30`).
 */
export const PremiereScheduleInput = z.object({
  startsAt: z
    .string()
    .regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:[0-5]\d)?$/,
      'must be a date and time like 2026-05-01T19:00 or 2026-05-01T19:00:30',
    ),
  timeZone: TimeZone,
});
export type PremiereScheduleInput = z.infer<typeof PremiereScheduleInput>;

const PREMIERE = '/staff/stores/:pageUid/shows/:showUid/premiere';

/** The studio's premiere calls: hosts upload and schedule a show's video. */
export const premiereCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  getPremiere: call({
    method: 'GET',
    path: PREMIERE,
    auth: { staff: 'host' },
    summary:
      "A show's premiere (its uploaded video, when it plays, where it stands) and whether this node can play one.",
    params: ShowPath,
    response: PremiereInfo,
  }),
  schedulePremiere: call({
    method: 'POST',
    path: `${PREMIERE}/schedule`,
    auth: { staff: 'host' },
    summary:
      'Schedules the uploaded premiere (and the show) to start at a time to come; it then plays as live for every viewer, in step with the server clock, and becomes the replay.',
    params: ShowPath,
    request: PremiereScheduleInput,
    response: PremiereInfo,
  }),
  uploadPremiere: call({
    method: 'PUT',
    path: `${PREMIERE}/video`,
    auth: { staff: 'host' },
    summary: `Uploads the video a show premieres (MP4 or QuickTime, at most ${PREMIERE_MAX_BYTES / 1024 ** 2} MiB and ${PREMIERE_MAX_SECONDS / 3600} hours, with a video track); 415 for a file that is no playable video, 422 too long or without picture, 503 without ffmpeg/ffprobe on the server.`,
    params: ShowPath,
    query: z.object({ fileName: z.string().max(255).optional() }),
    binaryBody: { mediaTypes: PREMIERE_MEDIA_TYPES, maxBytes: PREMIERE_MAX_BYTES, streamed: true },
    response: PremiereInfo,
  }),
};
