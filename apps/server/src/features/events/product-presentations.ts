import {
  CONTROL_CENTER_CUE_SOURCE,
  MAX_PRESENTED_PRODUCTS,
  type ProductCue,
  presentationsOf,
  presentedNow,
  presentRefusal,
} from '@vitrine/domain';
import type { ControlRoomPresentations } from '@vitrine/protocol';
import type { Queryable } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { OutboxDatabase } from '../../realtime/outbox.ts';
import type { EventService } from './event-service.ts';

export const NOT_IN_SHOW_MESSAGE = 'This product is not in the show: add it to the line-up first.';
export const TOO_MANY_PRESENTED_MESSAGE = `${MAX_PRESENTED_PRODUCTS} products are presented already: stop presenting one first.`;
export const ALREADY_PRESENTED_MESSAGE = 'This product is presented already.';

/**
 * The control room's presentations of a show's products, kept as control-center cues of the
 * events feature (event_product_cues): presenting opens a cue stamped now on the stream clock
 * (the server's clock, which stamps the stream's program date times), stopping closes it. The
 * cues are the history viewers' players follow live and the replay's product chapters.
 */
export function createProductPresentations(deps: {
  db: OutboxDatabase;
  events: Pick<EventService, 'announceEvent'>;
  now: () => number;
}) {
  const { db, events, now } = deps;

  async function read(eventId: string, q: Queryable = db): Promise<ControlRoomPresentations> {
    const rows = await q.query<{
      uid: string;
      source: string;
      start: string;
      end: string | null;
      deleted: boolean;
    }>(
      `SELECT event_product_uid AS uid, source, presentation_start_timestamp AS start,
         presentation_end_timestamp AS "end", deleted
       FROM event_product_cues WHERE event_id = $1 AND source = $2 ORDER BY presentation_start_timestamp, id`,
      [eventId, CONTROL_CENTER_CUE_SOURCE],
    );
    const cues: ProductCue[] = rows.map((row) => ({
      uid: row.uid,
      source: row.source,
      presentationStartTimestamp: Number(row.start),
      presentationEndTimestamp: row.end === null ? null : Number(row.end),
      deleted: row.deleted,
    }));
    const history = presentationsOf(cues);
    return { presented: presentedNow(history), history };
  }

  return {
    read: (eventId: string) => read(eventId),

    /**
     * Presents a product of the show now. The event row is locked first, so two people pressing
     * at once cannot present a fourth product between them.
     */
    async present(eventId: string, eventProductUid: string): Promise<ControlRoomPresentations> {
      return db.transaction(async (tx) => {
        const [event] = await tx.query('SELECT id FROM live_events WHERE id = $1 FOR UPDATE', [eventId]);
        if (!event) throw notFound(`No show "${eventId}".`);
        const [product] = await tx.query('SELECT 1 FROM event_products WHERE event_id = $1 AND uid = $2', [
          eventId,
          eventProductUid,
        ]);
        if (!product) throw new HttpError(422, 'not_in_show', NOT_IN_SHOW_MESSAGE);
        const refusal = presentRefusal((await read(eventId, tx)).presented, eventProductUid);
        if (refusal === 'too-many')
          throw new HttpError(409, 'too_many_presented', TOO_MANY_PRESENTED_MESSAGE);
        if (refusal === 'already-presented')
          throw new HttpError(409, 'already_presented', ALREADY_PRESENTED_MESSAGE);
        await tx.query(
          `INSERT INTO event_product_cues (event_id, event_product_uid, source, presentation_start_timestamp,
             presentation_end_timestamp, deleted) VALUES ($1, $2, $3, $4, NULL, false)`,
          [eventId, eventProductUid, CONTROL_CENTER_CUE_SOURCE, now()],
        );
        await events.announceEvent(tx, eventId, { modified: [eventProductUid] });
        return read(eventId, tx);
      });
    },

    /**
     * Stops presenting a product: its open presentation ends now. Stopping one that is not
     * presented (the other person stopped it a moment before) changes nothing.
     */
    async stop(eventId: string, eventProductUid: string): Promise<ControlRoomPresentations> {
      return db.transaction(async (tx) => {
        await tx.query('SELECT id FROM live_events WHERE id = $1 FOR UPDATE', [eventId]);
        const closed = await tx.query(
          `UPDATE event_product_cues SET presentation_end_timestamp = $4
           WHERE event_id = $1 AND event_product_uid = $2 AND source = $3 AND NOT deleted
             AND presentation_end_timestamp IS NULL
           RETURNING id`,
          [eventId, eventProductUid, CONTROL_CENTER_CUE_SOURCE, now()],
        );
        if (closed.length > 0) await events.announceEvent(tx, eventId, { modified: [eventProductUid] });
        return read(eventId, tx);
      });
    },
  };
}

export type ProductPresentations = ReturnType<typeof createProductPresentations>;
