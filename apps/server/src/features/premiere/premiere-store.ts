import type { PremiereState } from '@vitrine/domain';
import type { Queryable } from '../../db/database.ts';

/** What ffprobe read of an uploaded video (kept with the premiere). */
export interface ProbedMedia {
  durationMs: number;
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string | null;
}

/** A show's premiere as stored (premieres). */
export interface PremiereRecord extends ProbedMedia {
  eventId: string;
  pageUid: string;
  /** The file's name in the premieres directory (never the host's name). */
  mediaKey: string;
  fileName: string;
  sizeBytes: number;
  startsAt: number | null;
  state: PremiereState;
  error: string | null;
}

interface PremiereRow {
  event_id: string;
  page_uid: string;
  media_key: string;
  file_name: string;
  size_bytes: string | number;
  duration_ms: string | number;
  width: number;
  height: number;
  video_codec: string;
  audio_codec: string | null;
  starts_at: string | number | null;
  state: PremiereState;
  error: string | null;
}

const toRecord = (row: PremiereRow): PremiereRecord => ({
  eventId: row.event_id,
  pageUid: row.page_uid,
  mediaKey: row.media_key,
  fileName: row.file_name,
  sizeBytes: Number(row.size_bytes),
  durationMs: Number(row.duration_ms),
  width: row.width,
  height: row.height,
  videoCodec: row.video_codec,
  audioCodec: row.audio_codec,
  startsAt: row.starts_at === null ? null : Number(row.starts_at),
  state: row.state,
  error: row.error,
});

/** The SQL of the premiere feature's table, premieres. */
export function createPremiereStore(db: Queryable) {
  return {
    async byEvent(eventId: string): Promise<PremiereRecord | null> {
      const [row] = await db.query<PremiereRow>('SELECT * FROM premieres WHERE event_id = $1', [eventId]);
      return row ? toRecord(row) : null;
    },

    /** The premieres still to play or playing: the runner arms them when the server starts. */
    async pending(): Promise<PremiereRecord[]> {
      const rows = await db.query<PremiereRow>(
        `SELECT * FROM premieres WHERE state IN ('scheduled', 'playing') ORDER BY starts_at`,
      );
      return rows.map(toRecord);
    },

    /** The premieres that have played (their file is their replay). */
    async ended(): Promise<PremiereRecord[]> {
      const rows = await db.query<PremiereRow>(`SELECT * FROM premieres WHERE state = 'ended'`);
      return rows.map(toRecord);
    },

    /**
     * Stores an uploaded file as the show's premiere; a scheduled one stays scheduled with the
     * new file, anything else starts over as ready. Answers the file it replaced, if any.
     */
    async putMedia(
      media: ProbedMedia & {
        eventId: string;
        pageUid: string;
        mediaKey: string;
        fileName: string;
        sizeBytes: number;
      },
    ): Promise<string | null> {
      const [before] = await db.query<{ media_key: string }>(
        'SELECT media_key FROM premieres WHERE event_id = $1',
        [media.eventId],
      );
      await db.query(
        `INSERT INTO premieres (event_id, page_uid, media_key, file_name, size_bytes, duration_ms, width, height,
           video_codec, audio_codec)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (event_id) DO UPDATE SET media_key = $3, file_name = $4, size_bytes = $5, duration_ms = $6,
           width = $7, height = $8, video_codec = $9, audio_codec = $10, error = NULL,
           state = CASE WHEN premieres.state = 'scheduled' THEN 'scheduled' ELSE 'ready' END, updated_at = now()`,
        [
          media.eventId,
          media.pageUid,
          media.mediaKey,
          media.fileName,
          media.sizeBytes,
          media.durationMs,
          media.width,
          media.height,
          media.videoCodec,
          media.audioCodec,
        ],
      );
      return before?.media_key ?? null;
    },

    async schedule(eventId: string, startsAt: number): Promise<void> {
      await db.query(
        `UPDATE premieres SET starts_at = $2, state = 'scheduled', error = NULL, updated_at = now() WHERE event_id = $1`,
        [eventId, startsAt],
      );
    },

    /** Moves a premiere on from `from` (so a stale runner never overwrites a newer state). */
    async transition(eventId: string, from: PremiereState[], to: PremiereState, error: string | null = null) {
      const rows = await db.query<{ event_id: string }>(
        `UPDATE premieres SET state = $3, error = $4, updated_at = now()
         WHERE event_id = $1 AND state = ANY($2::text[]) RETURNING event_id`,
        [eventId, from, to, error],
      );
      return rows.length > 0;
    },
  };
}

export type PremiereStore = ReturnType<typeof createPremiereStore>;
