/**
 * The environment of a server a benchmark starts and measures on its own: listening on
 * 127.0.0.1:`port` with `dataDir` as its data folder, logging warnings only, with no demo
 * retailer and an RTMP ingest on whatever port is free (none of them is asked for). `extra`
 * adds to it or overrides it (the admin key, whether the demo show is live, the database).
 */
export function benchServerEnv(port: number, dataDir: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    VITRINE_DATA_DIR: dataDir,
    VITRINE_DEMO_RETAILER_PORT: '-1',
    RTMP_PORT: '0',
    ...extra,
  };
}

/**
 * `env` for a server on PostgreSQL at `databaseUrl`, or on its own embedded PGlite when it is
 * null; on no Redis either way (a single node: the shell's REDIS_URL is not the benchmark's).
 */
export function onDatabase(env: NodeJS.ProcessEnv, databaseUrl: string | null): NodeJS.ProcessEnv {
  const { REDIS_URL: _redis, DATABASE_URL: _database, ...rest } = env;
  return databaseUrl ? { ...rest, DATABASE_URL: databaseUrl } : rest;
}
