import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { adminKeyWeakness } from '@vitrine/domain';
import { buildApp, DEMO_MEDIA_DIR } from './app.ts';
import { type Config, loadConfig } from './config.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open-database.ts';
import { feedDemoLiveShow } from './features/demo/demo-live-show.ts';
import { type DemoRetailer, startDemoRetailer } from './features/demo/retailer-server.ts';
import {
  DEMO_LIVE_EVENT_ID,
  DEMO_OWNER,
  DEMO_PAGE_UID,
  seedDemoStoreIfEmpty,
} from './features/demo/seed-demo.ts';
import { askFfmpegVersionAhead } from './features/live/ffmpeg-binary.ts';
import { ensureOwnerLink } from './features/staff/first-owner.ts';
import { issueSetupToken, setupLinkUrl } from './features/staff/first-run-setup.ts';
import { studioLinkUrl } from './features/staff/routes.ts';
import { generatedAdminKeyNotice } from './http/admin-auth.ts';
import { startupReport, startupReportText } from './startup-report.ts';

const startedAt = performance.now();
/**
 * One plain line per start-up step, whatever the log level: a first start (creating the embedded
 * database, migrating, seeding) takes a while, and a person or a test waiting on it sees where it is.
 */
function startupStep(step: string) {
  process.stdout.write(`Start-up (${((performance.now() - startedAt) / 1000).toFixed(1)} s): ${step}\n`);
}

/** The configuration, or the process ends with what is wrong (no stack: it is the operator's to fix). */
function configOrExit(): Config {
  let loaded: Config;
  try {
    loaded = loadConfig();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  // A given admin key must be worth having: it opens every store's data.
  const weakness = loaded.adminKeyGenerated ? null : adminKeyWeakness(loaded.adminKey);
  if (weakness) {
    process.stderr.write(`Refusing to start: ${weakness}\n`);
    process.exit(1);
  }
  return loaded;
}
const config = configOrExit();
// While the database opens: the app's ffmpeg check then finds its answer waiting.
const ffmpegAsked = askFfmpegVersionAhead(config.live.ffmpegPath);
startupStep(
  config.database.kind === 'pglite' && !existsSync(join(config.database.dataDir, 'PG_VERSION'))
    ? `creating the embedded database in ${config.database.dataDir} (first start only)…`
    : `opening the ${config.database.kind === 'pglite' ? 'embedded ' : ''}database…`,
);
const db = await openDatabase(config.database);
const appliedMigrations = await migrate(db, {
  onPending: (pending) => startupStep(`applying ${pending.length} database migrations…`),
});
startupStep('building the app…');
/** The real clock, chosen once here: every service gets it through the composition (tests pass their own). */
const now = Date.now;
await ffmpegAsked;
const app = await buildApp({ config, db, now });
const log = app.server.log;
if (appliedMigrations.length) log.info({ migrations: appliedMigrations }, 'database migrated');

if (config.seedDemo && (await app.services.stores.pageCount()) === 0) {
  startupStep('seeding the demo store…');
  const seeded = await seedDemoStoreIfEmpty(app, config.adminKey, now());
  if (seeded) log.info({ pageUid: seeded }, 'seeded the demo store');
}

const address = await app.server.listen({ port: config.port, host: config.host });
startupStep(`listening on ${address}/`);
const adminKeyNotice = config.adminKeyGenerated
  ? generatedAdminKeyNotice(config.adminKey, process.stdout.isTTY === true)
  : null;
if (adminKeyNotice && 'log' in adminKeyNotice) log.warn(adminKeyNotice.log);

/**
 * The demo retailer on a second origin, embedding the demo store's player (apps/demo-retailer);
 * the demo store allows its origins. Not served without the demo store or when its port is taken.
 */
async function serveDemoRetailer(port: number): Promise<DemoRetailer | null> {
  const demoStore = await app.services.stores.pageSummary(DEMO_PAGE_UID).catch(() => null);
  if (!demoStore) {
    log.info('demo retailer not served: there is no demo store');
    return null;
  }
  let retailer: DemoRetailer | null = null;
  startupStep('starting the demo retailer…');
  try {
    retailer = await startDemoRetailer({ port, host: config.host, playerOrigin: address });
    await app.services.stores.allowOrigins(DEMO_PAGE_UID, retailer.origins);
    return retailer;
  } catch (error) {
    await retailer?.close();
    log.warn(
      { err: error },
      `demo retailer not served on port ${port}; set VITRINE_DEMO_RETAILER_PORT (0: any free port, -1: none)`,
    );
    return null;
  }
}
const retailer =
  config.seedDemo && config.demoRetailerPort !== null
    ? await serveDemoRetailer(config.demoRetailerPort)
    : null;

/**
 * The demo's live show as a real stream (an encoder looping the demo video into our RTMP
 * ingest) when ffmpeg is present; otherwise, or with VITRINE_DEMO_LIVE=0, it keeps its MP4.
 */
const demoLive =
  config.seedDemo && config.live.demoStream && (await app.services.stores.pageExists(DEMO_PAGE_UID))
    ? await feedDemoLiveShow({
        live: app.services.live,
        events: app.services.events,
        log,
        pageUid: DEMO_PAGE_UID,
        video: join(DEMO_MEDIA_DIR, 'demo-show.mp4'),
        now,
        // Its encoder runs while the show has viewers (and a while after the start), no longer.
        viewers: () => app.services.presence.viewerCount(DEMO_LIVE_EVENT_ID),
      }).catch((error) => {
        log.warn({ err: error }, 'the demo live show keeps its MP4');
        return null;
      })
    : null;

// What this server runs with, and what the operator should act on: a block on a terminal, one
// structured line otherwise (at warn when something needs doing, so LOG_LEVEL=warn keeps it).
const report = startupReport(config, app.services.live.ffmpeg, address);
if (config.logPretty) process.stdout.write(startupReportText(report));
else log[report.warnings.length ? 'warn' : 'info']({ startupReport: report }, 'Vitrine started');
log.info(
  { database: db.kind, startupMs: Math.round(performance.now() - startedAt) },
  `Vitrine is serving on ${address}/`,
);

/**
 * A one-time link that signs the demo store's owner in to the studio: a newcomer is in the back
 * office in one click. Only on a terminal, as the admin key: it is a credential.
 */
async function demoStudioLink(): Promise<string | null> {
  if (!config.seedDemo || !(await app.services.stores.pageExists(DEMO_PAGE_UID))) return null;
  const token = await ensureOwnerLink(
    { db, users: app.services.users, staff: app.services.staff },
    { pageUid: DEMO_PAGE_UID, ...DEMO_OWNER },
  );
  return studioLinkUrl(config.publicUrl ?? address, token);
}
const printsStudioLink = process.stdout.isTTY === true || process.env.VITRINE_PRINT_STUDIO_LINK === '1';

/**
 * The last block of the start: where the shop is, and the way into it. While there is no store,
 * a one-time setup link (a credential that works only until the first store exists, so it is
 * printed in any mode); else the demo owner's studio link on a terminal, or how to get one.
 * Printed again, with fresh links, on SIGUSR2.
 */
async function banner(): Promise<string> {
  const origin = config.publicUrl ?? address;
  const lines = [`  Vitrine storefront: ${address}/`];
  if (retailer) lines.push(`  Demo retailer:      ${retailer.url}/`);
  if ((await app.services.stores.pageCount()) === 0) {
    const token = await issueSetupToken(db, now());
    lines.push(
      '  Set up your store (one-time link; open it in a browser):',
      `    ${setupLinkUrl(origin, token)}`,
    );
  } else {
    const studioLink = printsStudioLink ? await demoStudioLink() : null;
    if (studioLink) lines.push('  Studio (one-time sign-in link for the demo owner):', `    ${studioLink}`);
    else
      lines.push(
        `  Studio: ${origin}/studio (forgotten password: "E-mail me a sign-in link" there, or npm run studio:link -- --email you@shop.example)`,
      );
  }
  return `\n${lines.join('\n')}\n${adminKeyNotice && 'terminal' in adminKeyNotice ? adminKeyNotice.terminal : ''}\n`;
}
// Listening for SIGUSR2 before the banner is out: whoever reads the banner may ask for it again at
// once (writes to a pipe are synchronous, so the reader can have it before the next line runs).
const bannerText = banner();
process.on('SIGUSR2', () => {
  banner().then(
    (text) => process.stdout.write(text),
    (error: unknown) => log.error({ err: error }, 'printing the banner failed'),
  );
});
// Plain lines for people and scripts, whatever the log format.
process.stdout.write(await bannerText);

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
    await retailer?.close();
    await demoLive?.stop();
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
