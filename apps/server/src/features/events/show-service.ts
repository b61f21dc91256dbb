import { randomBytes } from 'node:crypto';
import {
  canUnpublishShow,
  type ShowGroup,
  showCalendarPath,
  showEmbedSnippet,
  showGroup,
  showStorefrontPath,
  zonedLocalToUtc,
} from '@vitrine/domain';
import type {
  EventProduct,
  LiveEvent,
  Show,
  ShowInput,
  ShowLineupItem,
  ShowList,
  ShowSummary,
  ShowUpdate,
  ShowVisibility,
} from '@vitrine/protocol';
import type { EventCurrentStatus } from '@vitrine/protocol/vocabulary';
import type { Queryable } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import type { OutboxDatabase } from '../../realtime/outbox.ts';
import type { CatalogService } from '../catalog/catalog-service.ts';
import type { EventService } from './event-service.ts';

interface ShowRow {
  id: string;
  campaign_uid: string;
  event_name: string;
  event_start_timestamp: number;
  time_zone: string | null;
  status: ShowVisibility;
  current_status: EventCurrentStatus;
  deadline: number | null;
  cover_photo_path: string | null;
  first_published_at: number | null;
  product_count: number;
}

const SELECT_SHOWS = `
  SELECT e.id, e.campaign_uid, e.event_name, e.event_start_timestamp, e.time_zone, e.status, e.current_status,
         c.deadline, e.cover_photo_path, e.first_published_at,
         (SELECT count(*)::int FROM event_products p WHERE p.event_id = e.id) AS product_count
  FROM live_events e JOIN campaigns c ON c.uid = e.campaign_uid`;

/** The SQL condition of each tab of the studio's list (domain showGroup says the same). */
const GROUP_CONDITION: Record<ShowGroup, string> = {
  draft: `e.status = 'draft'`,
  upcoming: `e.status <> 'draft' AND e.current_status = 'planned'`,
  live: `e.status <> 'draft' AND e.current_status = 'live'`,
  past: `e.status <> 'draft' AND e.current_status = 'vod'`,
};

const GROUP_OF_ROW = `CASE WHEN e.status = 'draft' THEN 'draft' WHEN e.current_status = 'live' THEN 'live'
  WHEN e.current_status = 'vod' THEN 'past' ELSE 'upcoming' END`;

/** An id for a new show's event and campaign: unguessable, so a draft's id tells nobody it exists. */
const newShowUid = () => randomBytes(12).toString('base64url');

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

export interface ShowServiceDeps {
  db: OutboxDatabase;
  events: EventService;
  catalog: Pick<CatalogService, 'productsByUid'>;
  now: () => number;
  /**
   * The store's time zone (an IANA name): the zone of shows made before the studio, and the
   * default of the studio's form.
   */
  storeTimeZone: (pageUid: string) => Promise<string>;
}

/**
 * The studio's shows: a show is a live event with its own campaign (name, order deadline),
 * scheduled as a wall-clock time in the store's time zone, with an ordered line-up of the store's
 * products. Drafts are written like any event; the events feature's reads keep them private.
 */
/** A product on a show's line-up as the studio lists it (the control room adds whether it sold out). */
export const toLineupItem = ({ uid, productUid, product }: EventProduct): ShowLineupItem => ({
  uid,
  productUid,
  name: product.name,
  sku: product.sku,
  image: product.images[0] ?? null,
  prices: product.prices,
});

export function createShowService({ db, events, catalog, now, storeTimeZone }: ShowServiceDeps) {
  async function requireRow(pageUid: string, showUid: string, q: Queryable = db): Promise<ShowRow> {
    const [row] = await q.query<ShowRow>(`${SELECT_SHOWS} WHERE e.id = $1 AND e.page_uid = $2`, [
      showUid,
      pageUid,
    ]);
    // Another store's show is as unknown as a show that does not exist.
    if (!row) throw notFound(`No show "${showUid}" in this store.`);
    return row;
  }

  async function toSummary(pageUid: string, row: ShowRow): Promise<ShowSummary> {
    return {
      uid: row.id,
      campaignUid: row.campaign_uid,
      name: row.event_name,
      startsAt: Number(row.event_start_timestamp),
      timeZone: row.time_zone ?? (await storeTimeZone(pageUid)),
      visibility: row.status,
      currentStatus: row.current_status,
      group: showGroup(row.status, row.current_status),
      deadline: row.deadline === null ? null : Number(row.deadline),
      coverUrl: row.cover_photo_path,
      productCount: Number(row.product_count),
    };
  }

  async function show(pageUid: string, showUid: string, origin: string): Promise<Show> {
    const row = await requireRow(pageUid, showUid);
    const summary = await toSummary(pageUid, row);
    const lineup = (await events.eventProducts(showUid)).map(toLineupItem);
    const place = { pageUid, campaignUid: row.campaign_uid, eventId: row.id };
    return {
      ...summary,
      productCount: lineup.length,
      lineup,
      links: {
        storefrontUrl: `${origin}${showStorefrontPath(place)}`,
        embedSnippet: showEmbedSnippet(origin, place),
        calendarUrl: row.status === 'draft' ? null : `${origin}${showCalendarPath(row.id)}`,
      },
      deletable: row.status === 'draft' && row.first_published_at === null,
      unpublishable: row.status !== 'draft' && canUnpublishShow(row.current_status),
    };
  }

  /** A wall-clock time in a zone as an instant; a time the schemas let through but no clock shows is a 400. */
  function instantOf(field: string, local: string, timeZone: string): number {
    const instant = zonedLocalToUtc(local, timeZone);
    if (instant === null)
      throw new HttpError(400, 'invalid_request', `${field}: is not a date and time in ${timeZone}`);
    return instant;
  }

  function checkDeadline(start: number, deadline: number | null): void {
    if (deadline !== null && deadline < start)
      throw new HttpError(400, 'invalid_request', 'deadline: must not be before the start');
  }

  return {
    show,

    async list(
      pageUid: string,
      query: { group?: ShowGroup; search?: string; offset: number; limit: number },
    ): Promise<ShowList> {
      const conditions = ['e.page_uid = $1'];
      const params: unknown[] = [pageUid];
      if (query.group) conditions.push(GROUP_CONDITION[query.group]);
      if (query.search) {
        params.push(`%${escapeLike(query.search)}%`);
        conditions.push(`e.event_name ILIKE $${params.length}`);
      }
      const where = conditions.join(' AND ');
      // Past shows and the whole list newest first; what is still ahead soonest first.
      const order =
        query.group === undefined || query.group === 'past'
          ? 'e.event_start_timestamp DESC, e.id'
          : 'e.event_start_timestamp ASC, e.id';
      const rows = await db.query<ShowRow>(
        `${SELECT_SHOWS} WHERE ${where} ORDER BY ${order} LIMIT ${query.limit} OFFSET ${query.offset}`,
        params,
      );
      const [total] = await db.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM live_events e WHERE ${where}`,
        params,
      );
      const grouped = await db.query<{ show_group: ShowGroup; count: number }>(
        `SELECT ${GROUP_OF_ROW} AS show_group, count(*)::int AS count FROM live_events e WHERE e.page_uid = $1 GROUP BY 1`,
        [pageUid],
      );
      const counts: Record<ShowGroup, number> = { upcoming: 0, live: 0, past: 0, draft: 0 };
      for (const { show_group, count } of grouped) counts[show_group] = Number(count);
      return {
        shows: await Promise.all(rows.map((row) => toSummary(pageUid, row))),
        total: Number(total?.count ?? 0),
        counts,
        timeZone: await storeTimeZone(pageUid),
      };
    },

    async create(pageUid: string, input: ShowInput, origin: string): Promise<Show> {
      const start = instantOf('startsAt', input.startsAt, input.timeZone);
      const deadline = input.deadline === null ? null : instantOf('deadline', input.deadline, input.timeZone);
      checkDeadline(start, deadline);
      const uid = newShowUid();
      await db.transaction(async (tx) => {
        await tx.query(
          'INSERT INTO campaigns (uid, page_uid, name, deadline, using_checkout) VALUES ($1, $2, $3, $4, false)',
          [uid, pageUid, input.name, deadline],
        );
        await tx.query(
          `INSERT INTO live_events (id, page_uid, campaign_uid, status, current_status, event_name,
             event_start_timestamp, time_zone, first_published_at)
           VALUES ($1, $2, $1, $3, 'planned', $4, $5, $6, $7)`,
          [
            uid,
            pageUid,
            input.visibility,
            input.name,
            start,
            input.timeZone,
            input.visibility === 'draft' ? null : now(),
          ],
        );
        await events.announceEvent(tx, uid);
      });
      return show(pageUid, uid, origin);
    },

    async update(pageUid: string, showUid: string, input: ShowUpdate, origin: string): Promise<Show> {
      await db.transaction(async (tx) => {
        const row = await requireRow(pageUid, showUid, tx);
        const timeZone = input.timeZone ?? row.time_zone ?? (await storeTimeZone(pageUid));
        const start =
          input.startsAt === undefined
            ? Number(row.event_start_timestamp)
            : instantOf('startsAt', input.startsAt, timeZone);
        const deadline =
          input.deadline === undefined
            ? row.deadline === null
              ? null
              : Number(row.deadline)
            : input.deadline === null
              ? null
              : instantOf('deadline', input.deadline, timeZone);
        checkDeadline(start, deadline);
        const visibility = input.visibility ?? row.status;
        if (visibility === 'draft' && row.status !== 'draft' && !canUnpublishShow(row.current_status)) {
          throw new HttpError(
            409,
            'conflict',
            'A show that has been live stays published: viewers have watched it and shoppers may have bought from it.',
          );
        }
        const name = input.name ?? row.event_name;
        await tx.query(
          `UPDATE live_events SET event_name = $2, event_start_timestamp = $3, time_zone = $4, status = $5,
             first_published_at = COALESCE(first_published_at, $6), updated_at = now() WHERE id = $1`,
          [showUid, name, start, timeZone, visibility, visibility === 'draft' ? null : now()],
        );
        await tx.query('UPDATE campaigns SET name = $2, deadline = $3, updated_at = now() WHERE uid = $1', [
          row.campaign_uid,
          name,
          deadline,
        ]);
        await events.announceEvent(tx, showUid);
      });
      return show(pageUid, showUid, origin);
    },

    async delete(pageUid: string, showUid: string): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await requireRow(pageUid, showUid, tx);
        if (row.status !== 'draft' || row.first_published_at !== null) {
          throw new HttpError(
            409,
            'conflict',
            row.status === 'draft'
              ? 'This show was published once, so it is kept (with its comments and orders) as a draft.'
              : 'Only a draft can be deleted: make the show a draft first to cancel it.',
          );
        }
        await tx.query('DELETE FROM live_events WHERE id = $1', [showUid]);
        // The campaign goes with its last show; one shared with other events stays theirs.
        await tx.query(
          'DELETE FROM campaigns c WHERE c.uid = $1 AND NOT EXISTS (SELECT 1 FROM live_events e WHERE e.campaign_uid = c.uid)',
          [row.campaign_uid],
        );
      });
    },

    /**
     * Sets the line-up to these products in this order: products kept keep their event product
     * (and cues), new ones are added, the others leave. Every product must be the store's.
     */
    async setLineup(
      pageUid: string,
      showUid: string,
      productUids: readonly string[],
      origin: string,
    ): Promise<Show> {
      await requireRow(pageUid, showUid);
      const products = await catalog.productsByUid(productUids);
      const known = new Set(
        products.filter((product) => product.pageUid === pageUid).map((product) => product.uid),
      );
      const unknown = productUids.filter((uid) => !known.has(uid));
      if (unknown.length > 0) throw notFound(`No product "${unknown[0]}" in this store's catalogue.`);
      await db.transaction(async (tx) => {
        const current = await tx.query<{ uid: string; product_uid: string }>(
          'SELECT uid, product_uid FROM event_products WHERE event_id = $1',
          [showUid],
        );
        const byProduct = new Map(current.map((row) => [row.product_uid, row.uid]));
        const wanted = new Set(productUids);
        const removed = current.filter((row) => !wanted.has(row.product_uid)).map((row) => row.uid);
        if (removed.length > 0)
          await tx.query('DELETE FROM event_products WHERE event_id = $1 AND uid = ANY($2)', [
            showUid,
            removed,
          ]);
        const modified: string[] = [];
        for (const [sorting, productUid] of productUids.entries()) {
          const uid = byProduct.get(productUid) ?? newShowUid();
          modified.push(uid);
          await tx.query(
            `INSERT INTO event_products (uid, event_id, product_uid, sorting) VALUES ($1, $2, $3, $4)
             ON CONFLICT (event_id, uid) DO UPDATE SET sorting = EXCLUDED.sorting, updated_at = now()`,
            [uid, showUid, productUid, sorting],
          );
        }
        await events.announceEvent(tx, showUid, { modified, removed });
      });
      return show(pageUid, showUid, origin);
    },

    /** Sets the cover image's URL (stored by the media feature). */
    async setCover(pageUid: string, showUid: string, coverUrl: string, origin: string): Promise<Show> {
      await db.transaction(async (tx) => {
        await requireRow(pageUid, showUid, tx);
        await tx.query('UPDATE live_events SET cover_photo_path = $2, updated_at = now() WHERE id = $1', [
          showUid,
          coverUrl,
        ]);
        await events.announceEvent(tx, showUid);
      });
      return show(pageUid, showUid, origin);
    },

    /** The show as the player gets it, drafts too: for the studio's preview only. */
    async preview(pageUid: string, showUid: string): Promise<{ event: LiveEvent; products: EventProduct[] }> {
      const event = await events.anyEvent(pageUid, showUid);
      if (!event) throw notFound(`No show "${showUid}" in this store.`);
      return { event, products: await events.eventProducts(showUid) };
    },

    /** The campaign of a show of the store (its competitions hang on it); 404 for another store's. */
    async campaignOf(pageUid: string, showUid: string): Promise<string> {
      return (await requireRow(pageUid, showUid)).campaign_uid;
    },

    /**
     * The public calendar entry of a published show; null for a draft or an unknown show, which
     * have none.
     */
    async calendarEntry(showUid: string): Promise<{
      pageUid: string;
      campaignUid: string;
      name: string;
      start: number;
      end: number | null;
    } | null> {
      const [row] = await db.query<{
        page_uid: string;
        campaign_uid: string;
        event_name: string;
        event_start_timestamp: number;
        live_start_time: number | null;
        live_end_time: number | null;
      }>(
        `SELECT page_uid, campaign_uid, event_name, event_start_timestamp, live_start_time, live_end_time
         FROM live_events WHERE id = $1 AND status <> 'draft'`,
        [showUid],
      );
      if (!row) return null;
      const start = Number(row.event_start_timestamp);
      // Once it has been live, the entry lasts as long as the broadcast did.
      const liveFor =
        row.live_start_time !== null && row.live_end_time !== null
          ? Number(row.live_end_time) - Number(row.live_start_time)
          : null;
      return {
        pageUid: row.page_uid,
        campaignUid: row.campaign_uid,
        name: row.event_name,
        start,
        end: liveFor !== null && liveFor > 0 ? start + liveFor : null,
      };
    },
  };
}

export type ShowService = ReturnType<typeof createShowService>;
