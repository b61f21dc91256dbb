import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The entries of a PostgreSQL cluster folder. The embedded database's folder is the data folder,
 * which also holds the media and live folders by default: a backup copies these entries only, and
 * the media apart.
 */
const CLUSTER_ENTRY = /^(PG_VERSION|base|global|pg_[a-z_]+|pg_[a-z]+\.conf|postgresql(\.auto)?\.conf)$/;
export const isClusterEntry = (name: string) => CLUSTER_ENTRY.test(name);

/** Whether `dataDir` holds an embedded database. */
export const holdsEmbeddedDatabase = (dataDir: string) => existsSync(join(dataDir, 'PG_VERSION'));

/**
 * Why the embedded database in `dataDir` cannot be copied now, or null. It is one process's
 * database (the server's): while that runs, its `postmaster.pid` exists, and a copy would be torn.
 */
export function embeddedDatabaseInUse(dataDir: string): string | null {
  if (!existsSync(join(dataDir, 'postmaster.pid'))) return null;
  return `The embedded database in ${dataDir} is open: stop the server first (systemctl stop vitrine). If it is stopped, it did not stop cleanly: start it and stop it once.`;
}

/** Deletes the embedded database's files from `dataDir` (and nothing else there: media stay). */
export async function deleteEmbeddedDatabase(dataDir: string): Promise<void> {
  for (const name of await readdir(dataDir)) {
    if (isClusterEntry(name)) await rm(join(dataDir, name), { recursive: true, force: true });
  }
}
