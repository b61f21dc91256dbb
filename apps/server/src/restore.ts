import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { restoreBackup } from './backups/restore.ts';
import { loadConfig } from './config.ts';

/**
 * `npm run restore -- <backup folder> [--force]`: restores a backup of `npm run backup` into the
 * configured database (DATABASE_URL, or the embedded one of VITRINE_DATA_DIR), which must be empty
 * unless --force, and its images and recordings into the configured folders; then says whether
 * everything the database refers to is there. Opens no listener; run it with the server stopped.
 */
const USAGE = 'Usage: npm run restore -- <backup folder> [--force]';

const parsed = (() => {
  try {
    return parseArgs({ options: { force: { type: 'boolean', default: false } }, allowPositionals: true });
  } catch {
    return null;
  }
})();
const from = parsed?.positionals.length === 1 ? parsed.positionals[0] : undefined;
if (!parsed || !from) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}

try {
  const startedAt = performance.now();
  const outcome = await restoreBackup(loadConfig(), resolve(from), { force: parsed.values.force }, (line) =>
    process.stderr.write(`${line}\n`),
  );
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  const { manifest } = outcome;
  const lines = [
    `Restored the backup of ${manifest.createdAt} in ${seconds} s.`,
    outcome.missingMedia.length === 0
      ? `All ${manifest.references.media.length} images the database refers to are in place.`
      : `warning: ${outcome.missingMedia.length} images the database refers to are missing: ${outcome.missingMedia.join(', ')}`,
    outcome.missingRecordings.length === 0
      ? `All ${manifest.references.recordings.length} recordings the database refers to are in place.`
      : `warning: the recordings of ${outcome.missingRecordings.join(', ')} are missing from the ${manifest.recordings.store === 's3' ? 'bucket' : 'live folder'}: their replays will not play.`,
    outcome.pendingMigrations.length === 0
      ? 'The database is at this release’s schema.'
      : `The backup is of an older release: the server applies ${outcome.pendingMigrations.length} newer migrations at its next start (${outcome.pendingMigrations.join(', ')}).`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} catch (error) {
  process.stderr.write(`Restore failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
