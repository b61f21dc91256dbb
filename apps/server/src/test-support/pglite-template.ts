import { openAsBlob } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { migrate } from '../db/migrate.ts';
import { openPgliteDatabase, type PgliteDatabase } from '../db/pglite-database.ts';

/**
 * Every server test file needs its own migrated database. Creating an empty PGlite cluster and
 * applying every migration costs several times more than loading a copy of a database already
 * migrated, so the server project's global setup migrates one database per run and writes its
 * data directory to the file named here; each test database starts from that copy.
 */
export const PGLITE_TEMPLATE_ENV = 'VITRINE_TEST_PGLITE_TEMPLATE';

/** Migrates a new in-memory database with this checkout's migrations and saves its data directory to `file`. */
export async function writeMigratedPgliteTemplate(file: string): Promise<void> {
  const db = await openPgliteDatabase(undefined);
  try {
    await migrate(db);
    await writeFile(file, Buffer.from(await (await db.dumpDataDir()).arrayBuffer()));
  } finally {
    await db.close();
  }
}

/**
 * Fills `dataDir`, a server's VITRINE_DATA_DIR, with a copy of the run's migrated template, so that
 * the server it is given to opens an existing database instead of creating and migrating one (most
 * of a first start: 27 of 36 s at load 10). Returns false, leaving the folder to the server, when
 * there is no template (the suite run without the server project's global setup).
 */
export async function copyMigratedPgliteTemplate(dataDir: string): Promise<boolean> {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (!template) return false;
  const db = await openPgliteDatabase(dataDir, { startFrom: await openAsBlob(template) });
  await db.close();
  return true;
}

/**
 * A new in-memory database: a copy of the run's migrated template when the global setup made one
 * (vitest's server project), otherwise an empty cluster (benchmarks, scripts). Either way it is
 * then migrated, which for the copy only confirms that no migration is missing.
 */
export async function openMigratedPgliteDatabase(): Promise<PgliteDatabase> {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  const db = await openPgliteDatabase(undefined, template ? { startFrom: await openAsBlob(template) } : {});
  await migrate(db);
  return db;
}
