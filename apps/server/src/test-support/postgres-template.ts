import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openPostgresDatabase } from '../db/postgres-database.ts';

/**
 * Every server test file on PostgreSQL needs its own migrated database. Applying every migration
 * to a new schema took 3.5–4 s a file on a busy 2-core machine (and the migration lock made the
 * two workers take turns); copying a database already migrated (`CREATE DATABASE … TEMPLATE`) takes
 * 0.1–0.2 s. So the server project's global setup migrates one template database per run on the
 * server of DATABASE_URL and names it here; each test file gets a copy of its own.
 */
export const POSTGRES_TEMPLATE_ENV = 'VITRINE_TEST_POSTGRES_TEMPLATE';

/** The test databases' names begin so, so that a run killed before its clean-up leaves recognisable ones. */
const TEST_DATABASE_PREFIX = 'vitrine_test_';

/** `serverUrl` with its database replaced by `database`. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs `work` on a connection to the database `serverUrl` names, for creating and dropping others. */
async function onServer<T>(serverUrl: string, work: (db: Database) => Promise<T>): Promise<T> {
  const server = await openPostgresDatabase(serverUrl);
  try {
    return await work(server);
  } finally {
    await server.close();
  }
}

/**
 * A new database on the server of `serverUrl`, migrated with this checkout's migrations. `drop`
 * removes it and whatever copies of it are left (see `openPostgresTestDatabase`), once the run's
 * test files are done.
 */
export async function createMigratedPostgresTemplate(
  serverUrl: string,
): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `${TEST_DATABASE_PREFIX}${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (server) => server.exec(`CREATE DATABASE ${name}`));
  const drop = () =>
    onServer(serverUrl, async (server) => {
      const copies = await server.query<{ name: string }>(
        'SELECT datname AS name FROM pg_database WHERE starts_with(datname, $1)',
        [`${name}_`],
      );
      for (const copy of [...copies.map((row) => row.name), name])
        await server.exec(`DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`);
    });
  try {
    // Closed before any copy is made: PostgreSQL copies only a template nobody is connected to.
    const template = await openPostgresDatabase(databaseUrl(serverUrl, name));
    await migrate(template).finally(() => template.close());
  } catch (error) {
    await drop();
    throw error;
  }
  return { name, drop };
}

/**
 * A migrated database of its own on the server of `serverUrl`, dropped again by `dispose`: a copy
 * of the run's template when the global setup made one, otherwise a new schema in the database
 * of `serverUrl`, migrated (benchmarks and scripts run without the global setup).
 */
export async function openPostgresTestDatabase(
  serverUrl: string,
): Promise<Database & { dispose(): Promise<void> }> {
  const template = process.env[POSTGRES_TEMPLATE_ENV];
  if (!template) {
    const schema = `${TEST_DATABASE_PREFIX}${randomBytes(6).toString('hex')}`;
    const db = await openPostgresDatabase(serverUrl, schema);
    await migrate(db);
    return Object.assign(db, {
      async dispose() {
        await db.exec(`DROP SCHEMA ${schema} CASCADE`);
        await db.close();
      },
    });
  }
  // Named after the template, so that the run's clean-up finds any copy a file could not drop.
  const name = `${template}_${randomBytes(6).toString('hex')}`;
  // No migrate() here: the copy has this run's migrations, as the template was made from them.
  await onServer(serverUrl, (server) => server.exec(`CREATE DATABASE ${name} TEMPLATE ${template}`));
  const db = await openPostgresDatabase(databaseUrl(serverUrl, name));
  return Object.assign(db, {
    async dispose() {
      await db.close();
      // Not WITH (FORCE): a second handle a test left open on it (a second node's pool) would have
      // its connections cut under it, and that pool's error would surface in whichever file runs
      // next in the process. Such a copy stays until the run's clean-up drops it with the template.
      await onServer(serverUrl, (server) => server.exec(`DROP DATABASE ${name}`)).catch(() => {});
    },
  });
}
