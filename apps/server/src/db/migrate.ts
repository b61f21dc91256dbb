import { readdir, readFile } from 'node:fs/promises';
import type { Database } from './database.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
/** Advisory lock id that serialises migrations across servers sharing a database. */
const MIGRATION_LOCK_KEY = 727274;

/** The migration files of this release, in the order `migrate` applies them. */
export async function migrationFiles(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql')).sort();
}

/**
 * Applies the numbered SQL files of db/migrations that have not run yet, each in its own
 * transaction, recording them in schema_migrations. A lock keeps two starting servers from
 * applying the same file twice. `onPending` hears how many files have not run yet, before the
 * first is applied (a start-up that reports its progress).
 */
export async function migrate(
  db: Database,
  options: { onPending?: (pending: string[]) => void } = {},
): Promise<string[]> {
  const files = await migrationFiles();
  // Created under the same lock as the migrations: two servers starting together on an empty
  // PostgreSQL database would otherwise both try to create it.
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
  });
  if (options.onPending) {
    const done = new Set(
      (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name),
    );
    const pending = files.filter((name) => !done.has(name));
    if (pending.length) options.onPending(pending);
  }
  const applied: string[] = [];
  for (const name of files) {
    const sql = await readFile(new URL(name, MIGRATIONS_DIR), 'utf8');
    const ran = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const done = await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [name]);
      if (done.length > 0) return false;
      // Migration files hold several statements; each runs in this transaction.
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
      return true;
    });
    if (ran) applied.push(name);
  }
  return applied;
}

/**
 * Splits a migration on semicolons at line ends; migrations keep one statement per such end. A
 * semicolon inside a dollar-quoted body (`$$ … $$`, a PL/pgSQL function) does not end the statement.
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let inBody = false;
  for (const line of sql.split('\n')) {
    if (!inBody && /^\s*--/.test(line)) continue;
    current.push(line);
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) inBody = !inBody;
    if (!inBody && /;\s*$/.test(line)) {
      statements.push(current.join('\n').replace(/;\s*$/, ''));
      current = [];
    }
  }
  statements.push(current.join('\n'));
  return statements.map((statement) => statement.trim()).filter((statement) => statement.length > 0);
}
