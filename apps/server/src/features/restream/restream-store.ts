import type { RestreamState } from '@vitrine/domain';
import type { Queryable } from '../../db/database.ts';

/** A destination as stored (restream_destinations); the key only sealed. */
export interface RestreamRecord {
  id: string;
  eventId: string;
  pageUid: string;
  label: string;
  serverUrl: string;
  streamKeySealed: string;
  streamKeyMasked: string;
  started: boolean;
  state: RestreamState;
  reason: string | null;
  bytesSent: number;
  bitrateKbps: number | null;
  stateSince: number | null;
  runner: string | null;
  leaseUntil: number | null;
}

/** The health a runner writes of its destination. */
export interface RestreamHealth {
  state: RestreamState;
  reason: string | null;
  bytesSent: number;
  bitrateKbps: number | null;
  stateSince: number | null;
}

interface RestreamRow {
  id: string;
  event_id: string;
  page_uid: string;
  label: string;
  server_url: string;
  stream_key_sealed: string;
  stream_key_masked: string;
  started: boolean;
  state: RestreamState;
  reason: string | null;
  bytes_sent: string | number;
  bitrate_kbps: number | null;
  state_since: string | number | null;
  runner: string | null;
  lease_until: string | number | null;
}

const COLUMNS =
  'id, event_id, page_uid, label, server_url, stream_key_sealed, stream_key_masked, started, state, reason, bytes_sent, bitrate_kbps, state_since, runner, lease_until';

const toRecord = (row: RestreamRow): RestreamRecord => ({
  id: row.id,
  eventId: row.event_id,
  pageUid: row.page_uid,
  label: row.label,
  serverUrl: row.server_url,
  streamKeySealed: row.stream_key_sealed,
  streamKeyMasked: row.stream_key_masked,
  started: row.started,
  state: row.state,
  reason: row.reason,
  bytesSent: Number(row.bytes_sent),
  bitrateKbps: row.bitrate_kbps === null ? null : Number(row.bitrate_kbps),
  stateSince: row.state_since === null ? null : Number(row.state_since),
  runner: row.runner,
  leaseUntil: row.lease_until === null ? null : Number(row.lease_until),
});

/** The SQL of the restream feature's table, restream_destinations. */
export function createRestreamStore(db: Queryable) {
  return {
    async listOfEvent(eventId: string): Promise<RestreamRecord[]> {
      const rows = await db.query<RestreamRow>(
        `SELECT ${COLUMNS} FROM restream_destinations WHERE event_id = $1 ORDER BY created_at, id`,
        [eventId],
      );
      return rows.map(toRecord);
    },

    async byId(eventId: string, id: string): Promise<RestreamRecord | null> {
      const [row] = await db.query<RestreamRow>(
        `SELECT ${COLUMNS} FROM restream_destinations WHERE event_id = $1 AND id = $2`,
        [eventId, id],
      );
      return row ? toRecord(row) : null;
    },

    /** Adds a destination unless the show has `max` already; false then. */
    async add(
      record: Pick<
        RestreamRecord,
        'id' | 'eventId' | 'pageUid' | 'label' | 'serverUrl' | 'streamKeySealed' | 'streamKeyMasked'
      >,
      max: number,
    ): Promise<boolean> {
      const rows = await db.query(
        `INSERT INTO restream_destinations (id, event_id, page_uid, label, server_url, stream_key_sealed, stream_key_masked)
         SELECT $1, $2, $3, $4, $5, $6, $7
         WHERE (SELECT count(*) FROM restream_destinations WHERE event_id = $2) < $8
         RETURNING id`,
        [
          record.id,
          record.eventId,
          record.pageUid,
          record.label,
          record.serverUrl,
          record.streamKeySealed,
          record.streamKeyMasked,
          max,
        ],
      );
      return rows.length === 1;
    },

    async remove(eventId: string, id: string): Promise<boolean> {
      const rows = await db.query(
        'DELETE FROM restream_destinations WHERE event_id = $1 AND id = $2 RETURNING id',
        [eventId, id],
      );
      return rows.length === 1;
    },

    /** The host's start or stop; a stop also says so in the health (`stopped`, since now). */
    async setStarted(eventId: string, id: string, started: boolean, now: number): Promise<void> {
      await db.query(
        started
          ? `UPDATE restream_destinations SET started = true, updated_at = now(),
               state = CASE WHEN started THEN state ELSE 'waiting' END,
               state_since = CASE WHEN started THEN state_since ELSE $3 END,
               reason = CASE WHEN started THEN reason ELSE NULL END
             WHERE event_id = $1 AND id = $2`
          : `UPDATE restream_destinations SET started = false, state = 'stopped', reason = NULL,
               bitrate_kbps = NULL, state_since = $3, updated_at = now()
             WHERE event_id = $1 AND id = $2`,
        [eventId, id, now],
      );
    },

    /** Stops every destination of a show (it ended), with the reason. */
    async stopAllOfEvent(eventId: string, reason: string, now: number): Promise<void> {
      await db.query(
        `UPDATE restream_destinations SET started = false, state = 'stopped', reason = $2,
           bitrate_kbps = NULL, state_since = $3, runner = NULL, lease_until = NULL, updated_at = now()
         WHERE event_id = $1 AND started`,
        [eventId, reason, now],
      );
    },

    /**
     * Takes (or keeps) the lease of every started destination that is free, expired or already
     * this runner's, until `leaseUntil`; answers them. One node runs each destination.
     */
    async claimStarted(runner: string, now: number, leaseUntil: number): Promise<RestreamRecord[]> {
      const rows = await db.query<RestreamRow>(
        `UPDATE restream_destinations SET runner = $1, lease_until = $3
         WHERE started AND (runner IS NULL OR runner = $1 OR lease_until IS NULL OR lease_until < $2)
         RETURNING ${COLUMNS}`,
        [runner, now, leaseUntil],
      );
      return rows.map(toRecord);
    },

    /** Lets go of a lease (the runner stopped it, or is closing). */
    async release(id: string, runner: string): Promise<void> {
      await db.query(
        'UPDATE restream_destinations SET runner = NULL, lease_until = NULL WHERE id = $1 AND runner = $2',
        [id, runner],
      );
    },

    /** Writes a runner's health, only while it holds the lease and the destination is started. */
    async writeHealth(id: string, runner: string, health: RestreamHealth): Promise<void> {
      await db.query(
        `UPDATE restream_destinations SET state = $3, reason = $4, bytes_sent = $5, bitrate_kbps = $6,
           state_since = $7, updated_at = now()
         WHERE id = $1 AND runner = $2 AND started`,
        [id, runner, health.state, health.reason, health.bytesSent, health.bitrateKbps, health.stateSince],
      );
    },
  };
}

export type RestreamStore = ReturnType<typeof createRestreamStore>;
