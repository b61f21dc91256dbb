import { type ResolvedPlayerSettings, resolvePlayerSettings } from '@vitrine/domain';
import {
  DEFAULT_MAX_UNITS_PER_SHOPPER,
  type IntegritySettings,
  type IntegritySettingsInput,
  type PageInput,
  type PlayerSettingsInput,
  type PriceList,
  type StoreInfo,
} from '@vitrine/protocol';
import type { Currency } from '@vitrine/protocol/vocabulary';
import type { Queryable } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import type { OutboxDatabase } from '../../realtime/outbox.ts';

interface PageRow {
  uid: string;
  name: string;
  description: string;
  terms: string;
  cvr: string;
  logo: string | null;
  /** Rows stored before the street field existed have none. */
  address: Omit<StoreInfo['address'], 'street'> & { street?: string };
  storefront: StoreInfo['storefront'];
  language: PageInput['language'];
  currency: PageInput['currency'];
  allowed_origins: string[];
  player_settings: PlayerSettingsInput;
  integrity_settings: IntegritySettingsInput;
  free_delivery_over: PriceList;
}

/**
 * A store's free-delivery threshold in one currency (minor units), or null when it has none. A
 * plain query rather than a StoreService method so checkout totals, computed inside the callers'
 * transactions, can read it on the same connection.
 */
export async function freeDeliveryThreshold(
  db: Queryable,
  pageUid: string,
  currency: Currency,
): Promise<number | null> {
  const [row] = await db.query<Pick<PageRow, 'free_delivery_over'>>(
    'SELECT free_delivery_over FROM pages WHERE uid = $1',
    [pageUid],
  );
  return row?.free_delivery_over[currency] ?? null;
}

/** The page facts other features need: its language, currency and embedding origins. */
export interface PageSummary {
  uid: string;
  language: PageInput['language'];
  currency: PageInput['currency'];
  allowedOrigins: string[];
}

/** A store's integrity settings with the defaults for what it did not set. */
export function resolveIntegritySettings(input: IntegritySettingsInput): IntegritySettings {
  return {
    maxUnitsPerShopper: input.maxUnitsPerShopper ?? DEFAULT_MAX_UNITS_PER_SHOPPER,
    raffleWinners: input.raffleWinners ?? 'anyEntrant',
    pollVotes: input.pollVotes ?? 'perAccount',
  };
}

/** Stores ("pages"): store info, player settings and the page's own language and currency. */
/** Topic of a page's player settings document. */
export const playerSettingsTopic = (pageUid: string) => `playerSettings:${pageUid}`;

export function createStoreService(db: OutboxDatabase) {
  async function findPage(pageUid: string): Promise<PageRow | undefined> {
    const [row] = await db.query<PageRow>('SELECT * FROM pages WHERE uid = $1', [pageUid]);
    return row;
  }

  async function requirePage(pageUid: string): Promise<PageRow> {
    const row = await findPage(pageUid);
    if (!row) throw notFound(`No store with page uid "${pageUid}".`);
    return row;
  }

  return {
    async upsertPage(pageUid: string, input: PageInput): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx.query<Pick<PageRow, 'player_settings'>>(
          `INSERT INTO pages (uid, name, description, terms, cvr, logo, address, storefront, language, currency,
                            allowed_origins, player_settings, integrity_settings, free_delivery_over)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
         ON CONFLICT (uid) DO UPDATE SET
           name = EXCLUDED.name, description = EXCLUDED.description, terms = EXCLUDED.terms,
           cvr = EXCLUDED.cvr, logo = EXCLUDED.logo, address = EXCLUDED.address,
           storefront = EXCLUDED.storefront, language = EXCLUDED.language, currency = EXCLUDED.currency,
           allowed_origins = EXCLUDED.allowed_origins, player_settings = EXCLUDED.player_settings,
           integrity_settings = EXCLUDED.integrity_settings,
           free_delivery_over = EXCLUDED.free_delivery_over,
           updated_at = now()
         RETURNING player_settings`,
          [
            pageUid,
            input.name,
            input.description,
            input.terms,
            input.cvr,
            input.logo,
            JSON.stringify(input.address),
            JSON.stringify(input.storefront),
            input.language,
            input.currency,
            JSON.stringify(input.allowedOrigins),
            JSON.stringify(input.playerSettings),
            JSON.stringify(input.integritySettings),
            JSON.stringify(input.freeDeliveryOver),
          ],
        );
        const doc = resolvePlayerSettings(row?.player_settings ?? input.playerSettings);
        tx.publish(playerSettingsTopic(pageUid), [{ type: 'modified', docId: pageUid, doc }]);
      });
    },

    async storeInfo(pageUid: string): Promise<StoreInfo> {
      const row = await requirePage(pageUid);
      return {
        uid: row.uid,
        address: { ...row.address, street: row.address.street ?? '' },
        terms: row.terms,
        description: row.description,
        cvr: row.cvr,
        name: row.name,
        logo: row.logo,
        storefront: row.storefront,
      };
    },

    async playerSettings(pageUid: string): Promise<ResolvedPlayerSettings> {
      return resolvePlayerSettings((await requirePage(pageUid)).player_settings);
    },

    /** The store's rules against hoarding and stuffing, defaults filled in. */
    async integritySettings(pageUid: string): Promise<IntegritySettings> {
      return resolveIntegritySettings((await requirePage(pageUid)).integrity_settings);
    },

    async pageSummary(pageUid: string): Promise<PageSummary> {
      const row = await requirePage(pageUid);
      return {
        uid: row.uid,
        language: row.language,
        currency: row.currency,
        allowedOrigins: row.allowed_origins,
      };
    },

    /**
     * Adds origins to the page's allowed embedding origins (those not there yet, at the end) and
     * returns the list; the demo retailer's origins are added this way on every start.
     */
    async allowOrigins(pageUid: string, origins: readonly string[]): Promise<string[]> {
      const current = (await requirePage(pageUid)).allowed_origins;
      const added = [...new Set(origins)].filter((origin) => !current.includes(origin));
      if (!added.length) return current;
      const [row] = await db.query<{ allowed_origins: string[] }>(
        `UPDATE pages SET allowed_origins = allowed_origins || $2::jsonb, updated_at = now()
         WHERE uid = $1 RETURNING allowed_origins`,
        [pageUid, JSON.stringify(added)],
      );
      return row?.allowed_origins ?? [...current, ...added];
    },

    /**
     * The summaries of several pages, by uid, in one query; unknown pages are left out. `q`: the
     * caller's transaction, when it reads inside one.
     */
    async pageSummaries(pageUids: readonly string[], q: Queryable = db): Promise<Map<string, PageSummary>> {
      if (pageUids.length === 0) return new Map();
      const rows = await q.query<Pick<PageRow, 'uid' | 'language' | 'currency' | 'allowed_origins'>>(
        'SELECT uid, language, currency, allowed_origins FROM pages WHERE uid = ANY($1)',
        [[...new Set(pageUids)]],
      );
      return new Map(
        rows.map((row) => [
          row.uid,
          {
            uid: row.uid,
            language: row.language,
            currency: row.currency,
            allowedOrigins: row.allowed_origins,
          },
        ]),
      );
    },

    /** Whether the store exists. */
    /** Names and logos of stores, by uid (the studio's store picker); unknown stores are left out. */
    async storeCards(
      pageUids: readonly string[],
    ): Promise<Map<string, { name: string; logo: string | null }>> {
      if (pageUids.length === 0) return new Map();
      const rows = await db.query<Pick<PageRow, 'uid' | 'name' | 'logo'>>(
        'SELECT uid, name, logo FROM pages WHERE uid = ANY($1)',
        [[...new Set(pageUids)]],
      );
      return new Map(rows.map((row) => [row.uid, { name: row.name, logo: row.logo }]));
    },

    async pageExists(pageUid: string): Promise<boolean> {
      const rows = await db.query('SELECT 1 FROM pages WHERE uid = $1', [pageUid]);
      return rows.length > 0;
    },

    /** The store's name, or null for an unknown store; `q`: the caller's transaction. */
    async pageName(pageUid: string, q: Queryable = db): Promise<string | null> {
      const [row] = await q.query<Pick<PageRow, 'name'>>('SELECT name FROM pages WHERE uid = $1', [pageUid]);
      return row?.name ?? null;
    },

    async pageCount(): Promise<number> {
      const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM pages');
      return row?.count ?? 0;
    },
  };
}

export type StoreService = ReturnType<typeof createStoreService>;
