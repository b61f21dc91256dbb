import { createHash } from 'node:crypto';
import { existsSync, openAsBlob } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from '../db/migrate.ts';
import { openPgliteDatabase, type PgliteDatabase } from '../db/pglite-database.ts';

/**
 * Every server test file needs its own migrated database. Creating an empty PGlite cluster and
 * applying every migration costs several times more than loading a copy of a database already
 * migrated, so the server project's global setup names a migrated one here (kept between runs:
 * cachedMigratedPgliteTemplate); each test database starts from that copy.
 */
export const PGLITE_TEMPLATE_ENV = 'VITRINE_TEST_PGLITE_TEMPLATE';

const ROOT = new URL('../../../../', import.meta.url);
const CACHE_DIR = fileURLToPath(new URL('node_modules/.cache/vitrine-tests/', ROOT));
const MIGRATIONS_DIR = new URL('../db/migrations/', import.meta.url);
const CACHE_FILE_PREFIX = 'pglite-migrated-';

/** Names what a migrated template is made of: PGlite's version, the migration runner and every migration. */
async function templateKey(): Promise<string> {
  const hash = createHash('sha256');
  hash.update(await readFile(new URL('node_modules/@electric-sql/pglite/package.json', ROOT)));
  hash.update(await readFile(new URL('../db/migrate.ts', import.meta.url)));
  for (const name of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(name);
    hash.update(await readFile(new URL(name, MIGRATIONS_DIR)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The data directory of a new database with this checkout's migrations, as a file (PGlite's
 * dumpDataDir), kept between runs in node_modules/.cache/vitrine-tests and named by what it is
 * made of (templateKey), so a changed migration or PGlite makes a new one and the old ones go.
 * Making it took 15–37 s a run on a busy two-core machine, and a CI run made it three times (the
 * integration suite and the two parts of the browser tests). Two runs making it at once each write
 * their own file and rename it into place, so a reader never sees half of one.
 */
export async function cachedMigratedPgliteTemplate(): Promise<string> {
  const key = await templateKey();
  const file = join(CACHE_DIR, `${CACHE_FILE_PREFIX}${key}.tar`);
  if (existsSync(file)) return file;
  await mkdir(CACHE_DIR, { recursive: true });
  const db = await openPgliteDatabase(undefined);
  try {
    await migrate(db);
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await (await db.dumpDataDir()).arrayBuffer()));
    await rename(partial, file);
  } finally {
    await db.close();
  }
  // Those of other migrations (and what a run killed while writing one of them left).
  for (const name of await readdir(CACHE_DIR)) {
    if (name.startsWith(CACHE_FILE_PREFIX) && !name.includes(key))
      await rm(join(CACHE_DIR, name), { force: true });
  }
  return file;
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
