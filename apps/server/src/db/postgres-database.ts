import pg from 'pg';
import type { Database, Queryable } from './database.ts';

// BIGINT columns hold millisecond timestamps and minor units, which fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Distinct statement texts kept prepared per connection; texts beyond it run unnamed, as before. */
const MAX_PREPARED = 500;

/**
 * A PostgreSQL server through a connection pool. Each statement text is prepared once per
 * connection (a name per text) and then only bound and executed: the hot paths (add-to-cart runs
 * ~25 small statements) otherwise spend much of the server's CPU parsing and planning them again.
 * The statements are the code's own texts with parameters, so there are few of them; the cap
 * keeps a text built from data from growing every connection's cache without end. `schema`, when given, is created and put
 * first on every connection's search path, so test runs can share one database.
 */
export async function openPostgresDatabase(url: string, schema?: string): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema},public` } : {}),
  });
  if (schema) {
    // Serialised like migrations: concurrent CREATE SCHEMA IF NOT EXISTS can still collide.
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(727275)');
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  }
  const names = new Map<string, string>();
  const statement = (text: string, params: readonly unknown[]) => {
    let name = names.get(text);
    if (name === undefined && names.size < MAX_PREPARED && params.length > 0) {
      name = `v${names.size}`;
      names.set(text, name);
    }
    return name === undefined ? { text, values: [...params] } : { name, text, values: [...params] };
  };
  return {
    kind: 'postgres',
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await pool.query(statement(sql, params));
      return result.rows as Row[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async transaction<T>(work: (tx: Queryable) => Promise<T>) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({
          async query<Row>(sql: string, params: readonly unknown[] = []) {
            return (await client.query(statement(sql, params))).rows as Row[];
          },
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}
