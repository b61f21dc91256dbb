import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open-database.ts';
import { seedDemoStoreIfEmpty } from './features/demo/seed-demo.ts';

const startedAt = performance.now();
const config = loadConfig();
if (config.database.kind === 'pglite' && !existsSync(join(config.database.dataDir, 'PG_VERSION'))) {
  // Creating the embedded database takes several seconds once; say so rather than look stuck.
  process.stdout.write(`Creating the embedded database in ${config.database.dataDir} (first start only)…\n`);
}
const db = await openDatabase(config.database);
const appliedMigrations = await migrate(db);
const app = await buildApp({ config, db });
const log = app.server.log;
if (appliedMigrations.length) log.info({ migrations: appliedMigrations }, 'database migrated');

if (config.seedDemo) {
  const seeded = await seedDemoStoreIfEmpty(app, config.adminKey);
  if (seeded) log.info({ pageUid: seeded }, 'seeded the demo store');
}

const address = await app.server.listen({ port: config.port, host: config.host });
log.info(
  { database: db.kind, startupMs: Math.round(performance.now() - startedAt) },
  `Vitrine is serving on ${address}/`,
);
if (config.adminKeyGenerated)
  log.info(`admin API key for this run (set VITRINE_ADMIN_KEY to fix it): ${config.adminKey}`);
// A plain line for people and scripts, whatever the log format.
process.stdout.write(`\n  Vitrine storefront: ${address}/\n\n`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  app.markDraining();
  const forceExit = setTimeout(() => {
    log.error('shutdown took too long; exiting');
    process.exit(1);
  }, 10_000);
  forceExit.unref();
  try {
    await app.server.close();
    await db.close();
    process.exit(0);
  } catch (error) {
    log.error({ err: error }, 'error during shutdown');
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
