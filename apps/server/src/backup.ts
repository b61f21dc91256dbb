import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createBackup } from './backups/backup.ts';
import { loadConfig } from './config.ts';

/**
 * `npm run backup -- [--out <folder>]`: backs up the configured store (the server's settings:
 * DATABASE_URL or VITRINE_DATA_DIR, the media and live folders) into a new folder, by default
 * `vitrine-backup-<UTC time>` here. Opens no listener; the steps go to standard error and the
 * summary to standard output. docs/operations.md § Backups and upgrades.
 */
const USAGE = 'Usage: npm run backup -- [--out <new folder>]';

const parsed = (() => {
  try {
    return parseArgs({ options: { out: { type: 'string' } } });
  } catch {
    process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
})();
const stamp = new Date()
  .toISOString()
  .replace(/[:.]/g, '-')
  .replace(/-\d{3}Z$/, 'Z');
const folder = resolve(parsed.values.out ?? `vitrine-backup-${stamp}`);

try {
  const startedAt = performance.now();
  const manifest = await createBackup(loadConfig(), folder, (line) => process.stderr.write(`${line}\n`));
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  const recordings =
    manifest.recordings.store === 'disk'
      ? `${manifest.recordings.files} recording files copied`
      : `recordings left in the bucket ${manifest.recordings.bucket} (listed in the manifest)`;
  process.stdout.write(
    `Backed up the ${manifest.database.kind === 'pglite' ? 'embedded' : 'PostgreSQL'} database (${manifest.database.migrations.length} migrations), ` +
      `${manifest.media.files} image files and ${recordings} into ${folder} in ${seconds} s.\n` +
      `The database refers to ${manifest.references.media.length} images and ${manifest.references.recordings.length} recordings.\n`,
  );
} catch (error) {
  process.stderr.write(`Backup failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
