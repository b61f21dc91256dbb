import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable } from './database.ts';

/** Embedded PostgreSQL in this process; `dataDir` undefined keeps the database in memory (tests). */
export async function openPgliteDatabase(dataDir: string | undefined): Promise<Database> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  // BIGINT columns hold millisecond timestamps, which fit a JS number.
  const pglite = await PGlite.create(dataDir, { parsers: { 20: (value: string) => Number(value) } });
  // PGlite runs one statement at a time; transactions hold it, so concurrent callers queue.
  return {
    kind: 'pglite',
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await pglite.query<Row>(sql, [...params]);
      return result.rows;
    },
    async exec(sql: string) {
      await pglite.exec(sql);
    },
    transaction<T>(work: (tx: Queryable) => Promise<T>) {
      return pglite.transaction((tx) =>
        work({
          async query<Row>(sql: string, params: readonly unknown[] = []) {
            return (await tx.query<Row>(sql, [...params])).rows;
          },
        }),
      );
    },
    async close() {
      await pglite.close();
    },
  };
}
