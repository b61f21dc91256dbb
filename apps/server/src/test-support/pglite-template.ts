import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
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

/** A hash of PGlite's version: all an empty cluster (initdb's work) is made of. */
async function pgliteVersionHash() {
  return createHash('sha256').update(
    await readFile(new URL('node_modules/@electric-sql/pglite/package.json', ROOT)),
  );
}

/** Names what a migrated template is made of: PGlite's version, the migration runner and every migration. */
async function templateKey(): Promise<string> {
  const hash = await pgliteVersionHash();
  hash.update(await readFile(new URL('../db/migrate.ts', import.meta.url)));
  for (const name of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash.update(name);
    hash.update(await readFile(new URL(name, MIGRATIONS_DIR)));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * A database's data directory as a file (PGlite's dumpDataDir), kept between runs in
 * node_modules/.cache/vitrine-tests as `PREFIX-KEY.tar`, KEY naming what it is made of, so that a
 * changed migration or PGlite makes a new one and the old ones (other keys) go. Two runs making it at
 * once each write their own file and rename it into place, so a reader never sees half of one.
 */
async function cachedDataDir(prefix: string, key: string, make: () => Promise<PgliteDatabase>) {
  const file = join(CACHE_DIR, `${prefix}${key}.tar`);
  if (existsSync(file)) return file;
  await mkdir(CACHE_DIR, { recursive: true });
  const db = await make();
  try {
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await (await db.dumpDataDir()).arrayBuffer()));
    await rename(partial, file);
  } finally {
    await db.close();
  }
  // Those of other keys (and what a run killed while writing one of them left).
  for (const name of await readdir(CACHE_DIR)) {
    if (name.startsWith(prefix) && !name.includes(key)) await rm(join(CACHE_DIR, name), { force: true });
  }
  return file;
}

/**
 * An empty cluster, as initdb leaves it (no migration applied), kept between runs: initdb costs
 * about 4 s of CPU, and the migration and upgrade tests start their unmigrated databases there.
 */
async function cachedEmptyPgliteCluster(): Promise<string> {
  return cachedDataDir('pglite-empty-', (await pgliteVersionHash()).digest('hex').slice(0, 16), () =>
    openPgliteDatabase(undefined),
  );
}

/**
 * The data directory of a new database with this checkout's migrations (templateKey), kept between
 * runs. Making it took 15–37 s a run on a busy two-core machine, and a CI run made it three times
 * (the integration suite and the two parts of the browser tests).
 */
export async function cachedMigratedPgliteTemplate(): Promise<string> {
  return cachedDataDir('pglite-migrated-', await templateKey(), async () => {
    const db = await openPgliteDatabase(undefined, {
      startFrom: templateBytes(await cachedEmptyPgliteCluster()),
    });
    await migrate(db);
    return db;
  });
}

/**
 * A new in-memory database with no migration applied (the migration and upgrade tests): a copy of
 * the empty cluster kept between runs.
 */
export async function openEmptyPgliteDatabase(): Promise<PgliteDatabase> {
  return openPgliteDatabase(undefined, {
    startFrom: templateBytes(await cachedEmptyPgliteCluster()),
    sharedBuffers: TEST_SHARED_BUFFERS,
  });
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
  const db = await openPgliteDatabase(dataDir, {
    startFrom: templateBytes(template),
    sharedBuffers: TEST_SHARED_BUFFERS,
  });
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
  const db = await openPgliteDatabase(undefined, {
    sharedBuffers: TEST_SHARED_BUFFERS,
    ...(template ? { startFrom: templateBytes(template) } : {}),
  });
  await migrate(db);
  return db;
}

/**
 * A test database's page cache. Starting PGlite sets up its whole cache, and with PostgreSQL's
 * default of 128 MB that was most of a test database's opening: 1.2–1.5 s of CPU on a quiet
 * two-core machine, against 0.7–0.9 s with 32 MB and about 0.6 s with 8 MB, and a server test
 * run opens some hundreds. Nine files that open apps took 70 s of CPU with 128 MB and 61 s with
 * 16 MB (39 s and 33 s of wall time). A test database holds a few megabytes: 16 MB still holds it.
 */
export const TEST_SHARED_BUFFERS = '16MB';

/** A template's bytes, read from its file once per process rather than once per database. */
const templatesInMemory = new Map<string, ReusableTarball>();
function templateBytes(file: string): ReusableTarball {
  const kept = templatesInMemory.get(file);
  if (kept) return kept;
  const bytes = new ReusableTarball(readFileSync(file));
  templatesInMemory.set(file, bytes);
  return bytes;
}

/**
 * A tarball in memory that gives PGlite the same buffer on every load. PGlite reads a data
 * directory to start from with `arrayBuffer()`, and a Blob of Node's answers that by reading itself
 * again in pieces and joining them, the 43 MB template copied twice for each test database (a
 * server run opens about 120). `npm run bench:test-database` measured 745 ms of CPU per database
 * that way and 563 ms this way (medians of 8, two-core machine at load 1.4). PGlite only reads the
 * buffer (its file system keeps a copy of each file it writes), so one serves every load;
 * pglite-template.test.ts checks that a database written to leaves it as it was.
 */
export class ReusableTarball extends Blob {
  readonly #buffer: ArrayBuffer;

  constructor(bytes: Uint8Array) {
    const own = new Uint8Array(bytes); // a buffer of exactly these bytes, whatever `bytes` is a view of
    super([own]);
    this.#buffer = own.buffer;
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#buffer);
  }
}
