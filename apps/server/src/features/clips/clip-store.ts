import type { ClipKind, ClipState } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';

/** A clip as stored (show_clips); times on the stream clock, epoch ms. */
export interface ClipRecord {
  uid: string;
  pageUid: string;
  eventId: string;
  kind: ClipKind;
  eventProductUid: string | null;
  boundsStart: number;
  boundsEnd: number;
  startAt: number;
  endAt: number;
  state: ClipState;
  mediaKey: string | null;
  /** Its first frame (JPEG) in the segment store, once cut; null for a clip cut before posters. */
  posterKey: string | null;
  cutStart: number | null;
  durationMs: number | null;
  version: number;
  hidden: boolean;
  error: string | null;
  updatedAt: number;
}

interface ClipRow {
  uid: string;
  page_uid: string;
  event_id: string;
  kind: ClipKind;
  event_product_uid: string | null;
  bounds_start: string | number;
  bounds_end: string | number;
  start_at: string | number;
  end_at: string | number;
  state: ClipState;
  media_key: string | null;
  poster_key: string | null;
  cut_start: string | number | null;
  duration_ms: number | null;
  version: number;
  hidden: boolean;
  error: string | null;
  updated_at: string | number;
}

const toRecord = (row: ClipRow): ClipRecord => ({
  uid: row.uid,
  pageUid: row.page_uid,
  eventId: row.event_id,
  kind: row.kind,
  eventProductUid: row.event_product_uid,
  boundsStart: Number(row.bounds_start),
  boundsEnd: Number(row.bounds_end),
  startAt: Number(row.start_at),
  endAt: Number(row.end_at),
  state: row.state,
  mediaKey: row.media_key,
  posterKey: row.poster_key,
  cutStart: row.cut_start === null ? null : Number(row.cut_start),
  durationMs: row.duration_ms,
  version: row.version,
  hidden: row.hidden,
  error: row.error,
  updatedAt: Number(row.updated_at),
});

/** The SQL of the clips feature's table, show_clips. */
/**
 * A new clip's values in the order both INSERTs take them ($1 to $7): its bounds are its first cut
 * ($5, $6 again) and its creation its first update ($7 again).
 */
const newClipValues = (
  clip: Pick<
    ClipRecord,
    'uid' | 'pageUid' | 'eventId' | 'eventProductUid' | 'boundsStart' | 'boundsEnd' | 'updatedAt'
  >,
) => [
  clip.uid,
  clip.pageUid,
  clip.eventId,
  clip.eventProductUid,
  clip.boundsStart,
  clip.boundsEnd,
  clip.updatedAt,
];

export function createClipStore(db: Queryable) {
  const select = async (where: string, params: unknown[]) =>
    (await db.query<ClipRow>(`SELECT * FROM show_clips WHERE ${where}`, params)).map(toRecord);
  return {
    /** The show's clips, in the order of the show. */
    ofEvent: (eventId: string) => select('event_id = $1 ORDER BY bounds_start, uid', [eventId]),

    async one(uid: string): Promise<ClipRecord | null> {
      return (await select('uid = $1', [uid]))[0] ?? null;
    },

    /** The store's cut, visible clips, newest first (the SDK's "Seen live" looks among them). */
    visibleOfPage: (pageUid: string, limit: number) =>
      select("page_uid = $1 AND state = 'ready' AND NOT hidden ORDER BY updated_at DESC, uid LIMIT $2", [
        pageUid,
        limit,
      ]),

    /** Every store's cut, visible clips, newest first (the sitemap). */
    visible: (limit: number) =>
      select("state = 'ready' AND NOT hidden ORDER BY updated_at DESC, uid LIMIT $1", [limit]),

    /** Adds a presented product's clip, unless the show has one for it already. */
    async addChapter(
      clip: Omit<
        ClipRecord,
        | 'state'
        | 'mediaKey'
        | 'posterKey'
        | 'cutStart'
        | 'durationMs'
        | 'version'
        | 'hidden'
        | 'error'
        | 'kind'
      >,
    ) {
      await db.query(
        `INSERT INTO show_clips (uid, page_uid, event_id, kind, event_product_uid, bounds_start, bounds_end,
           start_at, end_at, created_at, updated_at)
         VALUES ($1, $2, $3, 'chapter', $4, $5, $6, $5, $6, $7, $7)
         ON CONFLICT (event_id, event_product_uid) WHERE kind = 'chapter' DO NOTHING`,
        newClipValues(clip),
      );
    },

    async addHighlight(
      clip: Pick<
        ClipRecord,
        'uid' | 'pageUid' | 'eventId' | 'eventProductUid' | 'boundsStart' | 'boundsEnd' | 'updatedAt'
      >,
    ) {
      await db.query(
        `INSERT INTO show_clips (uid, page_uid, event_id, kind, event_product_uid, bounds_start, bounds_end,
           start_at, end_at, created_at, updated_at)
         VALUES ($1, $2, $3, 'highlight', $4, $5, $6, $5, $6, $7, $7)`,
        newClipValues(clip),
      );
    },

    /** Shows with a clip still to cut. */
    async eventsWithPending(): Promise<string[]> {
      const rows = await db.query<{ event_id: string }>(
        "SELECT DISTINCT event_id FROM show_clips WHERE state = 'pending'",
      );
      return rows.map((row) => row.event_id);
    },

    async countHighlights(eventId: string): Promise<number> {
      const [row] = await db.query<{ count: string | number }>(
        "SELECT count(*) AS count FROM show_clips WHERE event_id = $1 AND kind = 'highlight'",
        [eventId],
      );
      return Number(row?.count ?? 0);
    },

    /** A highlight's window cut back at the show's end (it was marked less than its length before). */
    async endHighlights(eventId: string, liveEnd: number, at: number) {
      await db.query(
        `UPDATE show_clips SET bounds_end = LEAST(bounds_end, $2), end_at = LEAST(end_at, $2), updated_at = $3
         WHERE event_id = $1 AND kind = 'highlight' AND bounds_end > $2`,
        [eventId, liveEnd, at],
      );
    },

    /** A new part chosen: the clip waits for its cut, under a new version (a new file name). */
    async trim(uid: string, startAt: number, endAt: number, at: number) {
      await db.query(
        `UPDATE show_clips SET start_at = $2, end_at = $3, state = 'pending', version = version + 1,
           error = NULL, updated_at = $4 WHERE uid = $1`,
        [uid, startAt, endAt, at],
      );
    },

    async setHidden(uid: string, hidden: boolean, at: number) {
      await db.query('UPDATE show_clips SET hidden = $2, updated_at = $3 WHERE uid = $1', [uid, hidden, at]);
    },

    /** The cut of `version` is stored; a cut of an older version (trimmed meanwhile) changes nothing. */
    async cut(
      uid: string,
      version: number,
      cut: { mediaKey: string; posterKey: string; cutStart: number; durationMs: number },
      at: number,
    ) {
      await db.query(
        `UPDATE show_clips SET state = 'ready', media_key = $3, poster_key = $4, cut_start = $5, duration_ms = $6,
           error = NULL, updated_at = $7 WHERE uid = $1 AND version = $2`,
        [uid, version, cut.mediaKey, cut.posterKey, cut.cutStart, cut.durationMs, at],
      );
    },

    async failed(uid: string, version: number, error: string, at: number) {
      await db.query(
        `UPDATE show_clips SET state = 'failed', error = $3, updated_at = $4 WHERE uid = $1 AND version = $2`,
        [uid, version, error.slice(0, 500), at],
      );
    },
  };
}

export type ClipStore = ReturnType<typeof createClipStore>;
