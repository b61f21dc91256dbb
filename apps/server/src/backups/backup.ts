import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pgDumpMismatch, pgServerMajorVersion } from '@vitrine/domain';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { type BackupManifest, writeManifest } from './backup-manifest.ts';
import { embeddedDatabaseInUse, holdsEmbeddedDatabase, isClusterEntry } from './embedded-files.ts';
import { copyFolder, openSegmentStore, recordingFiles, referencedMedia } from './media-files.ts';
import { pgDump, pgToolVersion } from './pg-tools.ts';

/** The database file or folder in a backup. */
export const EMBEDDED_FOLDER = 'database';
export const PG_DUMP_FILE = 'database.pgdump';

/** What the database records and refers to, read before its copy is made. */
async function describeDatabase(db: Database) {
  const migrations = (
    await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')
  ).map((row) => row.name);
  return { migrations, references: await referencedMedia(db) };
}

/**
 * Backs up the configured store into `folder` (new or empty): the database — the embedded one's
 * files (the server stopped) or PostgreSQL's pg_dump archive (the server may run) —, the uploaded
 * images and the recordings on disk, and a manifest of what the database refers to. Recordings in
 * a bucket stay there (the bucket has its own versioning and replication); the manifest lists
 * them so a restore can check they are still there. The manifest is written last: a folder
 * without one is an unfinished backup.
 */
export async function createBackup(
  config: Config,
  folder: string,
  log: (line: string) => void,
): Promise<BackupManifest> {
  await mkdir(folder, { recursive: true });
  if ((await readdir(folder)).length > 0)
    throw new Error(`${folder} is not empty: back up into a new folder.`);
  const step = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    const startedAt = performance.now();
    const result = await work();
    log(`${what} (${((performance.now() - startedAt) / 1000).toFixed(1)} s)`);
    return result;
  };

  let database: BackupManifest['database'];
  let references: Awaited<ReturnType<typeof describeDatabase>>['references'];
  if (config.database.kind === 'pglite') {
    const { dataDir } = config.database;
    if (!holdsEmbeddedDatabase(dataDir)) throw new Error(`There is no embedded database in ${dataDir}.`);
    const inUse = embeddedDatabaseInUse(dataDir);
    if (inUse) throw new Error(inUse);
    const { openPgliteDatabase } = await import('../db/pglite-database.ts');
    const db = await openPgliteDatabase(dataDir);
    const described = await step('read the embedded database', () =>
      describeDatabase(db).finally(() => db.close()),
    );
    await step('copied the embedded database', () =>
      copyFolder(dataDir, join(folder, EMBEDDED_FOLDER), isClusterEntry),
    );
    database = { kind: 'pglite', folder: EMBEDDED_FOLDER, migrations: described.migrations };
    references = described.references;
  } else {
    const { url } = config.database;
    const toolMajor = await pgToolVersion('pg_dump');
    const { openPostgresDatabase } = await import('../db/postgres-database.ts');
    const db = await openPostgresDatabase(url);
    const { described, serverMajor } = await (async () => {
      const [version] = await db.query<{ num: number }>(
        "SELECT current_setting('server_version_num')::int AS num",
      );
      const major = pgServerMajorVersion(version?.num ?? 0);
      const mismatch = pgDumpMismatch(toolMajor, major);
      if (mismatch) throw new Error(mismatch);
      return { described: await step('read the database', () => describeDatabase(db)), serverMajor: major };
    })().finally(() => db.close());
    await step(`pg_dump wrote ${PG_DUMP_FILE}`, () => pgDump(url, join(folder, PG_DUMP_FILE)));
    database = {
      kind: 'postgres',
      file: PG_DUMP_FILE,
      migrations: described.migrations,
      serverMajorVersion: serverMajor,
      pgDumpMajorVersion: toolMajor,
    };
    references = described.references;
  }

  // After the database: an image is stored before any row names it, so every image the copied
  // database names is on disk by now.
  const media = await step('copied the uploaded images', () =>
    copyFolder(config.mediaDir, join(folder, 'media')),
  );
  const store = config.live.segmentStore;
  const recordings: BackupManifest['recordings'] =
    store.kind === 's3'
      ? { store: 's3', bucket: store.bucket, prefix: store.prefix }
      : {
          store: 'disk',
          ...(await step('copied the recordings', () => copyFolder(config.live.dir, join(folder, 'live')))),
        };
  const segments = await openSegmentStore(config);
  const recorded = await recordingFiles(segments, references.recordings).finally(() => segments.close());
  const manifest: BackupManifest = {
    format: 'vitrine-backup',
    version: 1,
    createdAt: new Date().toISOString(),
    database,
    media,
    recordings,
    references: { media: references.media, recordings: recorded },
  };
  await writeManifest(folder, manifest);
  return manifest;
}
