import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable } from './database.ts';

/** Embedded PostgreSQL in this process; `dataDir` undefined keeps the database in memory (tests). */
export async function openPgliteDatabase(dataDir: string | undefined): Promise<Database> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  // BIGINT columns hold millisecond timestamps, which fit a JS number.
  const pglite = await PGlite.create(dataDir, { parsers: { 20: (value: string) => Number(value) } });
  // PGlite runs one statement at a time; transactions hold it, so concurrent callers queue.
  // Transactions also queue here, so each one's afterCommit runs before the next one begins.
  let transactions: Promise<unknown> = Promise.resolve();
  return {
    kind: 'pglite',
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await pglite.query<Row>(sql, [...params]);
      return result.rows;
    },
    async exec(sql: string) {
      await pglite.exec(sql);
    },
    transaction<T>(work: (tx: Queryable) => Promise<T>, afterCommit?: () => void) {
      const run = transactions.then(async () => {
        const result = await pglite.transaction((tx) =>
          work({
            async query<Row>(sql: string, params: readonly unknown[] = []) {
              return (await tx.query<Row>(sql, [...params])).rows;
            },
          }),
        );
        afterCommit?.();
        return result;
      });
      transactions = run.catch(() => undefined);
      return run;
    },
    async close() {
      await pglite.close();
    },
  };
}
