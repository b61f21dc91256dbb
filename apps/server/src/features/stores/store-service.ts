import { randomBytes } from 'node:crypto';
import {
  DEFAULT_PLAYER_SETTINGS,
  freightTable,
  type ResolvedPlayerSettings,
  resolvePlayerSettings,
  resolveShippingOffer,
  type ShippingOfferSettings,
  soldIn,
} from '@vitrine/domain';
import {
  DEFAULT_MAX_UNITS_PER_SHOPPER,
  type EmbeddingSettings,
  type IntegritySettings,
  type IntegritySettingsInput,
  type PageInput,
  type PickupStore,
  type PlayerSettingsInput,
  type PriceList,
  type SalesSettings,
  type ShippingSettings,
  type StoreInfo,
  type StoreInfoSettings,
  type StoreSettings,
} from '@vitrine/protocol';
import {
  CURRENCIES,
  type Currency,
  LOCALES,
  type Locale,
  type ShippingMethodKind,
} from '@vitrine/protocol/vocabulary';
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
  time_zone: string;
  languages: PageInput['language'][];
  currencies: Currency[];
  shipping_methods: Partial<ShippingOfferSettings>;
  pickup_stores: Required<PickupStore>[];
}

/** What checkout charges for delivery in one store and currency. */
export interface DeliveryTerms {
  /** Freight of each method offered (minor units); a method not offered is absent. */
  freight: Partial<Record<ShippingMethodKind, number>>;
  /** The subtotal from which delivery costs nothing, or null when it always costs. */
  freeOver: number | null;
}

/** What a store's delivery terms are made of in every currency (readDeliveryOffer). */
export interface DeliveryOffer {
  shippingMethods: PageRow['shipping_methods'] | undefined;
  freeDeliveryOver: Partial<PageRow['free_delivery_over']>;
}

/** The store's shipping offer and free-delivery thresholds, for deliveryTermsIn. */
export async function readDeliveryOffer(db: Queryable, pageUid: string): Promise<DeliveryOffer> {
  const [row] = await db.query<Pick<PageRow, 'free_delivery_over' | 'shipping_methods'>>(
    'SELECT free_delivery_over, shipping_methods FROM pages WHERE uid = $1',
    [pageUid],
  );
  return { shippingMethods: row?.shipping_methods, freeDeliveryOver: row?.free_delivery_over ?? {} };
}

/** A store's delivery terms in one currency, from its offer. */
export function deliveryTermsIn(offer: DeliveryOffer, currency: Currency): DeliveryTerms {
  return {
    freight: freightTable(resolveShippingOffer(offer.shippingMethods), currency),
    freeOver: offer.freeDeliveryOver[currency] ?? null,
  };
}

/**
 * A store's delivery terms in one currency: its shipping offer and free-delivery threshold. A
 * plain query like freeDeliveryThreshold, for reads inside the callers' transactions.
 */
export async function deliveryTerms(
  db: Queryable,
  pageUid: string,
  currency: Currency,
): Promise<DeliveryTerms> {
  return deliveryTermsIn(await readDeliveryOffer(db, pageUid), currency);
}

/** Stored player settings: only what differs from the default, so a default stays one. */
function playerSettingsToStore(input: PlayerSettingsInput): PlayerSettingsInput {
  return Object.fromEntries(
    Object.entries(input).filter(
      ([key, value]) => DEFAULT_PLAYER_SETTINGS[key as keyof PlayerSettingsInput] !== value,
    ),
  ) as PlayerSettingsInput;
}

/** Pickup stores with a uid each: kept ones keep theirs so chosen pickup points stay valid. */
function withPickupUids(pageUid: string, stores: readonly PickupStore[]): Required<PickupStore>[] {
  return stores.map((store) => ({
    ...store,
    uid: store.uid ?? `${pageUid.slice(0, 60)}-pickup-${randomBytes(6).toString('hex')}`,
  }));
}

function settingsOf(row: PageRow): StoreSettings {
  return {
    info: {
      name: row.name,
      description: row.description,
      cvr: row.cvr,
      address: { ...row.address, street: row.address.street ?? '' },
      timeZone: row.time_zone,
    },
    terms: row.terms,
    logo: row.logo,
    player: resolvePlayerSettings(row.player_settings),
    embedding: { allowedOrigins: row.allowed_origins },
    sales: {
      language: row.language,
      languages: soldIn(row.language, row.languages, LOCALES),
      currency: row.currency,
      currencies: soldIn(row.currency, row.currencies, CURRENCIES),
    },
    shipping: {
      methods: resolveShippingOffer(row.shipping_methods),
      freeDeliveryOver: row.free_delivery_over,
    },
    pickupStores: row.pickup_stores,
  };
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
  /** The IANA time zone shows are scheduled in. */
  timeZone: string;
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

  /** Sets columns of a page (values as SQL parameters) and answers its settings. */
  async function updateColumns(
    pageUid: string,
    columns: Record<string, string | null>,
  ): Promise<StoreSettings> {
    const names = Object.keys(columns);
    const assignments = names.map((name, index) => `${name} = $${index + 2}`).join(', ');
    return db.transaction(async (tx) => {
      const [row] = await tx.query<PageRow>(
        `UPDATE pages SET ${assignments}, updated_at = now() WHERE uid = $1 RETURNING *`,
        [pageUid, ...names.map((name) => columns[name] ?? null)],
      );
      if (!row) throw notFound(`No store with page uid "${pageUid}".`);
      if ('player_settings' in columns) {
        const doc = resolvePlayerSettings(row.player_settings);
        tx.publish(playerSettingsTopic(pageUid), [{ type: 'modified', docId: pageUid, doc }]);
      }
      return settingsOf(row);
    });
  }

  return {
    async upsertPage(pageUid: string, input: PageInput): Promise<void> {
      await db.transaction(async (tx) => {
        const [row] = await tx.query<Pick<PageRow, 'player_settings'>>(
          `INSERT INTO pages (uid, name, description, terms, cvr, logo, address, storefront, language, currency,
                            allowed_origins, player_settings, integrity_settings, free_delivery_over,
                            time_zone, languages, currencies, shipping_methods, pickup_stores)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)
         ON CONFLICT (uid) DO UPDATE SET
           name = EXCLUDED.name, description = EXCLUDED.description, terms = EXCLUDED.terms,
           cvr = EXCLUDED.cvr, logo = EXCLUDED.logo, address = EXCLUDED.address,
           storefront = EXCLUDED.storefront, language = EXCLUDED.language, currency = EXCLUDED.currency,
           allowed_origins = EXCLUDED.allowed_origins, player_settings = EXCLUDED.player_settings,
           integrity_settings = EXCLUDED.integrity_settings,
           free_delivery_over = EXCLUDED.free_delivery_over,
           time_zone = EXCLUDED.time_zone, languages = EXCLUDED.languages,
           currencies = EXCLUDED.currencies, shipping_methods = EXCLUDED.shipping_methods,
           pickup_stores = EXCLUDED.pickup_stores,
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
            input.timeZone,
            JSON.stringify(input.languages),
            JSON.stringify(input.currencies),
            JSON.stringify(input.shippingMethods ?? {}),
            JSON.stringify(withPickupUids(pageUid, input.pickupStores)),
          ],
        );
        const doc = resolvePlayerSettings(row?.player_settings ?? input.playerSettings);
        tx.publish(playerSettingsTopic(pageUid), [{ type: 'modified', docId: pageUid, doc }]);
      });
    },

    /** The studio's view of the store's settings, defaults filled in. */
    async settings(pageUid: string): Promise<StoreSettings> {
      return settingsOf(await requirePage(pageUid));
    },

    async updateInfo(pageUid: string, info: StoreInfoSettings): Promise<StoreSettings> {
      return updateColumns(pageUid, {
        name: info.name,
        description: info.description,
        cvr: info.cvr,
        address: JSON.stringify(info.address),
        time_zone: info.timeZone,
      });
    },

    async updateTerms(pageUid: string, terms: string): Promise<StoreSettings> {
      return updateColumns(pageUid, { terms });
    },

    /** Replaces the player settings (absent ones take the default) and tells open players. */
    async updatePlayerSettings(pageUid: string, input: PlayerSettingsInput): Promise<StoreSettings> {
      return updateColumns(pageUid, { player_settings: JSON.stringify(playerSettingsToStore(input)) });
    },

    async updateLogo(pageUid: string, logo: string | null): Promise<StoreSettings> {
      return updateColumns(pageUid, { logo });
    },

    async updateEmbedding(pageUid: string, embedding: EmbeddingSettings): Promise<StoreSettings> {
      return updateColumns(pageUid, { allowed_origins: JSON.stringify(embedding.allowedOrigins) });
    },

    async updateSales(pageUid: string, sales: SalesSettings): Promise<StoreSettings> {
      return updateColumns(pageUid, {
        language: sales.language,
        languages: JSON.stringify(soldIn(sales.language, sales.languages, LOCALES)),
        currency: sales.currency,
        currencies: JSON.stringify(soldIn(sales.currency, sales.currencies, CURRENCIES)),
      });
    },

    async updateShipping(pageUid: string, shipping: ShippingSettings): Promise<StoreSettings> {
      return updateColumns(pageUid, {
        shipping_methods: JSON.stringify(shipping.methods),
        free_delivery_over: JSON.stringify(shipping.freeDeliveryOver),
      });
    },

    async updatePickupStores(pageUid: string, stores: readonly PickupStore[]): Promise<StoreSettings> {
      return updateColumns(pageUid, { pickup_stores: JSON.stringify(withPickupUids(pageUid, stores)) });
    },

    /**
     * Where orders can be picked up: the store's pickup stores, or the store itself at its address
     * when it lists none.
     */
    async pickupStores(pageUid: string): Promise<Required<PickupStore>[]> {
      const row = await requirePage(pageUid);
      if (row.pickup_stores.length > 0) return row.pickup_stores;
      return [
        {
          uid: `${row.uid}-store`,
          name: row.name,
          street: row.address.street ?? '',
          postCode: row.address.postCode,
          city: row.address.city,
          openingHours: '',
        },
      ];
    },

    /** The IANA time zone the store's shows are scheduled in. */
    async timeZone(pageUid: string): Promise<string> {
      return (await requirePage(pageUid)).time_zone;
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
        timeZone: row.time_zone,
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
      const rows = await q.query<
        Pick<PageRow, 'uid' | 'language' | 'currency' | 'allowed_origins' | 'time_zone'>
      >('SELECT uid, language, currency, allowed_origins, time_zone FROM pages WHERE uid = ANY($1)', [
        [...new Set(pageUids)],
      ]);
      return new Map(
        rows.map((row) => [
          row.uid,
          {
            uid: row.uid,
            language: row.language,
            currency: row.currency,
            allowedOrigins: row.allowed_origins,
            timeZone: row.time_zone,
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

    /**
     * Every store with the languages it sells in (main first) and when it last changed, by uid,
     * at most `limit` (the sitemap's).
     */
    async storeListing(limit: number): Promise<{ uid: string; languages: Locale[]; updatedAt: number }[]> {
      const rows = await db.query<Pick<PageRow, 'uid' | 'language' | 'languages'> & { updated_ms: number }>(
        `SELECT uid, language, languages, (extract(epoch FROM updated_at) * 1000)::bigint AS updated_ms
         FROM pages ORDER BY uid LIMIT $1`,
        [limit],
      );
      return rows.map((row) => ({
        uid: row.uid,
        languages: soldIn(row.language, row.languages, LOCALES),
        updatedAt: Number(row.updated_ms),
      }));
    },

    /** The store made first (the site's default page), or null while there is none. */
    async firstPageUid(): Promise<string | null> {
      const [row] = await db.query<{ uid: string }>('SELECT uid FROM pages ORDER BY created_at, uid LIMIT 1');
      return row?.uid ?? null;
    },

    async pageCount(): Promise<number> {
      const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM pages');
      return row?.count ?? 0;
    },
  };
}

export type StoreService = ReturnType<typeof createStoreService>;
