import { join } from 'node:path';
import { pgRestoreMismatch } from '@vitrine/domain';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import { migrationFiles } from '../db/migrate.ts';
import { type BackupManifest, readManifest } from './backup-manifest.ts';
import { deleteEmbeddedDatabase, embeddedDatabaseInUse, holdsEmbeddedDatabase } from './embedded-files.ts';
import { copyFolder, fileExists, openSegmentStore, recordingFiles } from './media-files.ts';
import { pgRestore, pgToolVersion } from './pg-tools.ts';

/** What a restore found: references that did not resolve, and migrations the next start applies. */
export interface RestoreOutcome {
  manifest: BackupManifest;
  /** Media keys the database names that are not in the media folder. */
  missingMedia: string[];
  /** Shows whose recording had files at backup time and has none now. */
  missingRecordings: string[];
  /** This release's migrations the backup had not run: the server applies them at its next start. */
  pendingMigrations: string[];
}

/** Whether a PostgreSQL database already holds tables in its public schema. */
async function tablesIn(db: Database): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM information_schema.tables WHERE table_schema = 'public'",
  );
  return row?.count ?? 0;
}

const refusal = (where: string) =>
  `${where} already holds a database. Restore into a fresh one, or add --force to replace it (everything in it is deleted).`;

/**
 * Restores a backup folder into the configured database, which must be empty unless `force`
 * (then its store is deleted first), and copies its images and recordings back to the configured
 * folders. Then checks that everything the database refers to is there.
 */
export async function restoreBackup(
  config: Config,
  folder: string,
  options: { force: boolean },
  log: (line: string) => void,
): Promise<RestoreOutcome> {
  const manifest = await readManifest(folder);
  const backup = manifest.database;
  if (backup.kind !== config.database.kind) {
    throw new Error(
      backup.kind === 'pglite'
        ? 'This backup is of the embedded database: restore it without DATABASE_URL (into VITRINE_DATA_DIR).'
        : 'This backup is of a PostgreSQL database: restore it with DATABASE_URL naming the database to restore into.',
    );
  }

  let db: Database;
  if (backup.kind === 'pglite' && config.database.kind === 'pglite') {
    const { dataDir } = config.database;
    const inUse = embeddedDatabaseInUse(dataDir);
    if (inUse) throw new Error(inUse);
    if (holdsEmbeddedDatabase(dataDir)) {
      if (!options.force) throw new Error(refusal(dataDir));
      await deleteEmbeddedDatabase(dataDir);
      log(`deleted the embedded database in ${dataDir}`);
    }
    await copyFolder(join(folder, backup.folder), dataDir);
    log(`restored the embedded database into ${dataDir}`);
    const { openPgliteDatabase } = await import('../db/pglite-database.ts');
    db = await openPgliteDatabase(dataDir);
  } else if (backup.kind === 'postgres' && config.database.kind === 'postgres') {
    const { url } = config.database;
    const mismatch = pgRestoreMismatch(await pgToolVersion('pg_restore'), backup.pgDumpMajorVersion);
    if (mismatch) throw new Error(mismatch);
    const { openPostgresDatabase } = await import('../db/postgres-database.ts');
    db = await openPostgresDatabase(url);
    try {
      if ((await tablesIn(db)) > 0) {
        if (!options.force) throw new Error(refusal('The database of DATABASE_URL'));
        await db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
        log('deleted the schema public of the database');
      }
      await pgRestore(url, join(folder, backup.file));
      log('pg_restore restored the database');
    } catch (error) {
      await db.close();
      throw error;
    }
  } else {
    throw new Error('unreachable: the kinds were compared above');
  }

  try {
    const restored = await copyFolder(join(folder, 'media'), config.mediaDir);
    log(`restored ${restored.files} image files into ${config.mediaDir}`);
    if (manifest.recordings.store === 'disk') {
      const recordings = await copyFolder(join(folder, 'live'), config.live.dir);
      log(`restored ${recordings.files} recording files into ${config.live.dir}`);
    }
    const recorded = (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map(
      (row) => row.name,
    );
    const missingMedia: string[] = [];
    for (const key of manifest.references.media) {
      if (!(await fileExists(join(config.mediaDir, key)))) missingMedia.push(key);
    }
    const segments = await openSegmentStore(config);
    const now = await recordingFiles(
      segments,
      manifest.references.recordings.map((recording) => recording.eventId),
    ).finally(() => segments.close());
    const missingRecordings = manifest.references.recordings
      .filter((then, index) => then.files > 0 && (now[index]?.files ?? 0) === 0)
      .map((recording) => recording.eventId);
    const pendingMigrations = (await migrationFiles()).filter((name) => !recorded.includes(name));
    return { manifest, missingMedia, missingRecordings, pendingMigrations };
  } finally {
    await db.close();
  }
}
