import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable } from './database.ts';

/** A PGlite database that can also write out its whole data directory (a tarball). */
export type PgliteDatabase = Database & { dumpDataDir(): Promise<Blob> };

/**
 * Embedded PostgreSQL in this process; `dataDir` undefined keeps the database in memory (tests).
 * `startFrom` is a data directory from `dumpDataDir` to start with instead of an empty cluster:
 * tests load one already-migrated copy rather than creating and migrating each database.
 * `sharedBuffers` replaces PostgreSQL's default page cache of 128 MB (a setting such as '16MB'):
 * starting PGlite sets up the whole cache in its memory, so a smaller one starts faster.
 */
export async function openPgliteDatabase(
  dataDir: string | undefined,
  options: { startFrom?: Blob; sharedBuffers?: string } = {},
): Promise<PgliteDatabase> {
  if (dataDir) await mkdir(dataDir, { recursive: true });
  const pglite = await PGlite.create(dataDir, {
    // BIGINT columns hold millisecond timestamps, which fit a JS number.
    parsers: { 20: (value: string) => Number(value) },
    ...(options.startFrom ? { loadDataDir: options.startFrom } : {}),
    ...(options.sharedBuffers
      ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`] }
      : {}),
  });
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
    // Uncompressed: loading skips the gunzip, and the copy is read from the page cache anyway.
    dumpDataDir: () => pglite.dumpDataDir('none'),
  };
}
