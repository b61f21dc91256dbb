import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { copyMigratedPgliteTemplate, openEmptyPgliteDatabase } from '../test-support/pglite-template.ts';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';
import { openPgliteDatabase } from './pglite-database.ts';
import { openPostgresDatabase } from './postgres-database.ts';

const DATABASE_URL = process.env.DATABASE_URL;

/** Every migration file, in the order `migrate` applies them. */
async function migrationFiles(): Promise<string[]> {
  return (await readdir(new URL('./migrations/', import.meta.url)))
    .filter((name) => name.endsWith('.sql'))
    .sort();
}

/**
 * An empty, unmigrated database: in-memory PGlite, or a fresh schema on the PostgreSQL server
 * named by DATABASE_URL (the same choice test-support makes).
 */
async function openBlankDatabase(): Promise<{ db: Database; schema?: string; dispose(): Promise<void> }> {
  if (DATABASE_URL) {
    const schema = `test_migrate_${randomBytes(6).toString('hex')}`;
    const db = await openPostgresDatabase(DATABASE_URL, schema);
    return {
      db,
      schema,
      async dispose() {
        await db.exec(`DROP SCHEMA ${schema} CASCADE`);
        await db.close();
      },
    };
  }
  const db = await openEmptyPgliteDatabase();
  return { db, dispose: () => db.close() };
}

describe('migrate', () => {
  const disposals: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const dispose of disposals.splice(0)) await dispose();
  });

  it('applies every migration once, and nothing the second time', async () => {
    const blank = await openBlankDatabase();
    disposals.push(blank.dispose);
    const files = await migrationFiles();
    expect(files).toContain('0001_foundation.sql');

    expect(await migrate(blank.db)).toEqual(files);
    expect(await migrate(blank.db)).toEqual([]);

    const recorded = await blank.db.query<{ name: string }>(
      'SELECT name FROM schema_migrations ORDER BY name',
    );
    expect(recorded.map((row) => row.name)).toEqual(files);
    // The schema is in place: the foundation tables answer queries.
    for (const table of [
      'pages',
      'campaigns',
      'live_events',
      'products',
      'event_products',
      'event_product_cues',
    ]) {
      const [row] = await blank.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
      expect(row, table).toEqual({ count: 0 });
    }
  });

  it('keeps existing data when run again', async () => {
    const blank = await openBlankDatabase();
    disposals.push(blank.dispose);
    await migrate(blank.db);
    await blank.db.query(
      `INSERT INTO pages (uid, name, address, storefront, language, currency)
       VALUES ('kept-store', 'Kept', '{}', '{}', 'en', 'DKK')`,
    );
    expect(await migrate(blank.db)).toEqual([]);
    expect(await blank.db.query('SELECT uid, name FROM pages')).toEqual([
      { uid: 'kept-store', name: 'Kept' },
    ]);
  });

  // Two servers starting at once on a fresh database: `CREATE TABLE IF NOT EXISTS schema_migrations`
  // runs before the advisory lock is taken, so the racing CREATEs collide in pg_type
  // (see the report: db/migrate.ts). Remove `.fails` once the table is created under the lock.
  it.runIf(DATABASE_URL !== undefined)(
    'lets several servers migrate the same fresh PostgreSQL database at once',
    async () => {
      const files = await migrationFiles();
      for (let attempt = 0; attempt < 10; attempt++) {
        const schema = `test_migrate_race_${randomBytes(6).toString('hex')}`;
        // Connections open one after another (each creates the schema if missing); only migrate races.
        const servers: Database[] = [];
        try {
          for (let i = 0; i < 4; i++) servers.push(await openPostgresDatabase(DATABASE_URL!, schema));
          const results = await Promise.allSettled(servers.map((db) => migrate(db)));
          const errors = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
          // Today: 'error: duplicate key value violates unique constraint "pg_type_typname_nsp_index"'.
          expect(errors).toEqual([]);
          const applied = results.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
          expect(applied.sort()).toEqual(files);
        } finally {
          await servers[0]?.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          for (const db of servers) await db.close();
        }
      }
    },
  );
});

describe('PGlite data directory', () => {
  const tempDirs: string[] = [];
  afterAll(async () => {
    for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
  });

  it('keeps data across close and reopen', async () => {
    const root = await mkdtemp(join(tmpdir(), 'vitrine-pglite-'));
    tempDirs.push(root);
    // A nested folder that does not exist yet: opening creates it.
    const dataDir = join(root, 'nested', 'data');

    const first = await openPgliteDatabase(dataDir);
    try {
      expect(first.kind).toBe('pglite');
      expect(await migrate(first)).toEqual(await migrationFiles());
      await first.query(
        `INSERT INTO pages (uid, name, address, storefront, language, currency)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        ['persisted-store', 'Persisted', JSON.stringify({ city: 'Aarhus' }), '{}', 'da', 'DKK'],
      );
      await first.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO campaigns (uid, page_uid, name, deadline) VALUES ('persisted-campaign', 'persisted-store', 'C', $1)`,
          [1_750_000_000_000],
        );
      });
    } finally {
      await first.close();
    }
    expect((await stat(dataDir)).isDirectory()).toBe(true);
    expect((await readdir(dataDir)).length).toBeGreaterThan(0);

    const second = await openPgliteDatabase(dataDir);
    try {
      expect(await migrate(second)).toEqual([]);
      expect(await second.query('SELECT uid, name, address, language FROM pages')).toEqual([
        { uid: 'persisted-store', name: 'Persisted', address: { city: 'Aarhus' }, language: 'da' },
      ]);
      // BIGINT milliseconds come back as numbers.
      expect(await second.query('SELECT uid, deadline FROM campaigns')).toEqual([
        { uid: 'persisted-campaign', deadline: 1_750_000_000_000 },
      ]);
    } finally {
      await second.close();
    }
  });

  it('rolls back a failed transaction, leaving nothing behind after reopen', async () => {
    const root = await mkdtemp(join(tmpdir(), 'vitrine-pglite-'));
    tempDirs.push(root);
    // Created in the test above; here a copy of the migrated template (migrate then only confirms it).
    await copyMigratedPgliteTemplate(root);
    const first = await openPgliteDatabase(root);
    try {
      await migrate(first);
      await expect(
        first.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO pages (uid, name, address, storefront, language, currency)
             VALUES ('doomed-store', 'Doomed', '{}', '{}', 'en', 'DKK')`,
          );
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
    } finally {
      await first.close();
    }
    const second = await openPgliteDatabase(root);
    try {
      expect(await second.query('SELECT uid FROM pages')).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
