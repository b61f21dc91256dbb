import { createBatchedLookup } from './batched-lookup.ts';
import type { Queryable } from './database.ts';

/**
 * A scope of cached reads whose version the database keeps (migration 0025_read_versions.sql):
 * every write to a store's catalogue, settings, campaigns and shows bumps `page:<store uid>`, and
 * every write to a user or their saved choices bumps `user:<user uid>`, in the writer's transaction.
 */
export type ReadScope = `page:${string}` | `user:${string}`;

export interface ReadCacheOptions {
  db: Queryable;
  /** Entries kept at most; past it the oldest goes (a node's memory stays bounded). */
  maxEntries?: number;
  /** A safety net only: an entry older than this is read again even if its version did not move. */
  maxAgeMs?: number;
  now?: () => number;
}

/** The versions of some scopes as read at one moment: reads through it are at least that fresh. */
export interface ReadView {
  /**
   * The value of `key` in `scope`: cached when it was loaded at the scope's current version (and
   * not too long ago), else `load()`ed now and cached. `key` must say everything `load` depends on.
   */
  get<T>(scope: ReadScope, key: string, load: () => Promise<T>): Promise<T>;
}

interface Entry {
  version: number;
  loadedAt: number;
  value: Promise<unknown>;
}

/** 20,000 entries: a few per shopper of a busy show and per product, a few megabytes. */
const MAX_ENTRIES = 20_000;
const MAX_AGE_MS = 5 * 60_000;

/**
 * A node's cache of reads that rarely change (issue 18, flash-sale adds): one statement reads the
 * versions of the scopes a request depends on (shared by the requests that arrived together), then every cached read of those scopes is checked
 * against them. A write committed before that statement is therefore always seen, on every node
 * and whoever wrote it (a script, another node, a migration), without a message on the change bus
 * that could be lost or arrive after the next request. Values are shared between requests: callers
 * must not mutate them.
 */
export function createReadCache({
  db,
  maxEntries = MAX_ENTRIES,
  maxAgeMs = MAX_AGE_MS,
  now = Date.now,
}: ReadCacheOptions) {
  const entries = new Map<string, Entry>();

  // The versions asked for by requests that arrived together are read by one statement.
  const versionOf = createBatchedLookup(async (scopes) => {
    const rows = await db.query<{ scope: string; version: string | number }>(
      'SELECT scope, version FROM read_versions WHERE scope = ANY($1)',
      [scopes],
    );
    return new Map(rows.map((row) => [row.scope, Number(row.version)]));
  });

  async function versionsOf(scopes: readonly ReadScope[]): Promise<Map<string, number>> {
    const unique = [...new Set(scopes)];
    const versions = await Promise.all(unique.map((scope) => versionOf(scope)));
    // A scope never written has no row: version 0.
    return new Map(unique.map((scope, index) => [scope, versions[index] ?? 0]));
  }

  return {
    /** Reads the versions of `scopes` (one statement); the view reads only within them. */
    async view(scopes: readonly ReadScope[]): Promise<ReadView> {
      const versions = await versionsOf(scopes);
      return {
        get<T>(scope: ReadScope, key: string, load: () => Promise<T>): Promise<T> {
          if (!scopes.includes(scope)) throw new Error(`Scope ${scope} was not read by this view.`);
          const version = versions.get(scope) ?? 0;
          const id = `${scope}\u0000${key}`;
          const at = now();
          const cached = entries.get(id);
          // An entry at a newer version (loaded by a later view) is as good: it is fresher still.
          if (cached && cached.version >= version && at - cached.loadedAt < maxAgeMs) {
            return cached.value as Promise<T>;
          }
          const value = load();
          const entry: Entry = { version, loadedAt: at, value };
          entries.delete(id);
          entries.set(id, entry);
          // A failed read is not kept: the next request tries again.
          value.catch(() => {
            if (entries.get(id) === entry) entries.delete(id);
          });
          while (entries.size > maxEntries) {
            const oldest = entries.keys().next().value;
            if (oldest === undefined) break;
            entries.delete(oldest);
          }
          return value;
        },
      };
    },

    /** Entries held now (tests of the bound). */
    size: () => entries.size,
  };
}

export type ReadCache = ReturnType<typeof createReadCache>;
