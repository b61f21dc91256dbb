import { randomBytes } from 'node:crypto';
import type { LiveStreamState } from '@vitrine/domain';
import type { Queryable } from '../../db/database.ts';

/** A show's stream as stored (live_streams). */
export interface LiveStreamRecord {
  eventId: string;
  pageUid: string;
  streamKey: string;
  state: LiveStreamState;
  liveStartTime: number | null;
  liveEndTime: number | null;
}

interface LiveStreamRow {
  event_id: string;
  page_uid: string;
  stream_key: string;
  state: LiveStreamState;
  live_start_time: string | number | null;
  live_end_time: string | number | null;
}

const toRecord = (row: LiveStreamRow): LiveStreamRecord => ({
  eventId: row.event_id,
  pageUid: row.page_uid,
  streamKey: row.stream_key,
  state: row.state,
  liveStartTime: row.live_start_time === null ? null : Number(row.live_start_time),
  liveEndTime: row.live_end_time === null ? null : Number(row.live_end_time),
});

/** A new stream key: 24 random bytes, URL-safe (it sits in an RTMP path and a bearer header). */
export function newStreamKey(): string {
  return `live_${randomBytes(24).toString('base64url')}`;
}

/** The SQL of the live feature's table, live_streams. */
export function createLiveStore(db: Queryable) {
  async function byEvent(eventId: string): Promise<LiveStreamRecord | null> {
    const [row] = await db.query<LiveStreamRow>('SELECT * FROM live_streams WHERE event_id = $1', [eventId]);
    return row ? toRecord(row) : null;
  }

  return {
    byEvent,

    async byKey(streamKey: string): Promise<LiveStreamRecord | null> {
      const [row] = await db.query<LiveStreamRow>('SELECT * FROM live_streams WHERE stream_key = $1', [
        streamKey,
      ]);
      return row ? toRecord(row) : null;
    },

    /** The show's stream, made (idle, with a fresh key) the first time it is asked for. */
    async ensure(eventId: string, pageUid: string, now: number): Promise<LiveStreamRecord> {
      await db.query(
        `INSERT INTO live_streams (event_id, page_uid, stream_key, key_rotated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (event_id) DO NOTHING`,
        [eventId, pageUid, newStreamKey(), now],
      );
      const record = await byEvent(eventId);
      if (!record) throw new Error(`live stream of ${eventId} vanished`);
      return record;
    },

    async rotateKey(eventId: string, now: number): Promise<void> {
      await db.query(
        'UPDATE live_streams SET stream_key = $2, key_rotated_at = $3, updated_at = now() WHERE event_id = $1',
        [eventId, newStreamKey(), now],
      );
    },

    /**
     * Moves the stream from `from` to `to`; false when another node (or call) moved it first, so
     * two transitions never both apply.
     */
    async transition(
      eventId: string,
      from: LiveStreamState,
      to: LiveStreamState,
      times: { liveStartTime?: number; liveEndTime?: number } = {},
    ): Promise<boolean> {
      const rows = await db.query(
        `UPDATE live_streams SET state = $3, live_start_time = COALESCE($4, live_start_time),
           live_end_time = COALESCE($5, live_end_time), updated_at = now()
         WHERE event_id = $1 AND state = $2 RETURNING event_id`,
        [eventId, from, to, times.liveStartTime ?? null, times.liveEndTime ?? null],
      );
      return rows.length === 1;
    },

    /** Streams left mid-show (a node stopped with them): they wait for their encoder again. */
    async unfinished(): Promise<LiveStreamRecord[]> {
      const rows = await db.query<LiveStreamRow>(
        "SELECT * FROM live_streams WHERE state IN ('receiving', 'live', 'reconnecting')",
      );
      return rows.map(toRecord);
    },
  };
}

export type LiveStore = ReturnType<typeof createLiveStore>;
