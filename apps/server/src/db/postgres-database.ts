import pg from 'pg';
import type { Database, Queryable } from './database.ts';

// BIGINT columns hold millisecond timestamps and minor units, which fit a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * A PostgreSQL server through a connection pool. `schema`, when given, is created and put
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
  return {
    kind: 'postgres',
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await pool.query(sql, [...params]);
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
            return (await client.query(sql, [...params])).rows as Row[];
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
