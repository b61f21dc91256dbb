import type { Config } from '../config.ts';
import type { Database } from './database.ts';

/** Opens the configured database: PGlite in the data dir by default, PostgreSQL with DATABASE_URL. */
export async function openDatabase(config: Config['database']): Promise<Database> {
  if (config.kind === 'postgres') {
    const { openPostgresDatabase } = await import('./postgres-database.ts');
    return openPostgresDatabase(config.url);
  }
  const { openPgliteDatabase } = await import('./pglite-database.ts');
  return openPgliteDatabase(config.dataDir);
}
