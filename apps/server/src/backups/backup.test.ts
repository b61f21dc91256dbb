import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { CheckoutView, StudioOrderDetail } from '@vitrine/protocol';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { openPgliteDatabase } from '../db/pglite-database.ts';
import { openPostgresDatabase } from '../db/postgres-database.ts';
import { createS3SegmentStore } from '../features/live/segment-store.ts';
import {
  addSingle,
  CAMPAIGN,
  call,
  EVENT,
  HOME_DELIVERY,
  SHOP,
  seedCommerceStore,
  signIn,
} from '../test-support/commerce-fixture.ts';
import { databaseUrl } from '../test-support/postgres-template.ts';
import { setRecordedReplay } from '../test-support/recorded-show.ts';
import { releaseEntry } from '../test-support/release-build.ts';
import { startTestS3Server, type TestS3Server } from '../test-support/s3-test-server.ts';
import { adminHeaders, openTestApp } from '../test-support/test-app.ts';
import type { BackupManifest } from './backup-manifest.ts';

const run = promisify(execFile);
const SERVER_URL = process.env.DATABASE_URL;
/** Preloaded into each tool: it fails the run (exit status 99) if the tool opens a listening socket. */
const noListener = new URL('../test-support/no-listener.mjs', import.meta.url).pathname;

/**
 * One installation's storage: the embedded database in a data folder (its media and live folders
 * inside, as by default), or a database of its own on the PostgreSQL server of DATABASE_URL.
 */
interface Installation {
  dataDir: string;
  env: Record<string, string>;
  open(): Promise<Database>;
  dispose(): Promise<void>;
}

async function newInstallation(): Promise<Installation> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-backup-install-'));
  const folders = { VITRINE_DATA_DIR: dataDir, VITRINE_MEDIA_DIR: join(dataDir, 'media') };
  if (!SERVER_URL) {
    return {
      dataDir,
      env: folders,
      open: () => openPgliteDatabase(dataDir),
      dispose: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `vitrine_backup_${randomBytes(5).toString('hex')}`;
  const server = await openPostgresDatabase(SERVER_URL);
  await server.exec(`CREATE DATABASE ${name}`);
  const url = databaseUrl(SERVER_URL, name);
  return {
    dataDir,
    env: { ...folders, DATABASE_URL: url },
    open: () => openPostgresDatabase(url),
    async dispose() {
      await server.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `npm run backup` / `npm run restore` as the operator does, on an installation's settings. */
async function runTool(
  name: 'backup' | 'restore',
  installation: Installation & { extraEnv?: Record<string, string> },
  ...args: string[]
) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'silent',
    ...installation.env,
    ...installation.extraEnv,
  };
  if (!SERVER_URL) delete env.DATABASE_URL;
  return run(process.execPath, ['--import', noListener, releaseEntry(name), ...args], {
    env,
  }).catch((error: { code: number; stdout: string; stderr: string }) => error);
}

const installations: Installation[] = [];
let source: Installation;
let backupDir = '';
let imageUrl = '';
let order = { checkoutUid: '', orderNumber: 0 };

async function installation(): Promise<Installation> {
  const made = await newInstallation();
  installations.push(made);
  return made;
}

beforeAll(async () => {
  backupDir = join(await mkdtemp(join(tmpdir(), 'vitrine-backups-')), 'backup');
  source = await installation();
  const db = await source.open();
  await migrate(db);
  const app = await openTestApp({ db, env: source.env });
  try {
    await seedCommerceStore(app, { now: Date.now() });
    // An uploaded product image (a file in the media folder the database names) …
    const photo = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#c84' } })
      .jpeg()
      .toBuffer();
    const uploaded = await app.server.inject({
      method: 'POST',
      url: `/staff/stores/${SHOP}/product-images`,
      headers: { ...adminHeaders, 'content-type': 'image/jpeg' },
      payload: photo,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    imageUrl = (uploaded.json() as { url: string }).url;
    const product = await app.server.inject({
      method: 'PUT',
      url: `/staff/stores/${SHOP}/products/mug`,
      headers: adminHeaders,
      payload: { name: 'Mug', sku: 'MUG', prices: { DKK: 17_900 }, stock: 10, images: [imageUrl] },
    });
    expect(product.statusCode, product.body).toBeLessThan(300);
    // … a placed order …
    const shopper = await signIn(app);
    const checkoutUid = (await addSingle(app, shopper, 'mug')).body.checkoutUid as string;
    const ref = { pageUid: SHOP, campaignUid: CAMPAIGN, checkoutUid };
    await call(app, shopper, '/functions/customerpage/updateCheckoutDetails', {
      ...ref,
      details: HOME_DELIVERY,
    });
    const placed = await call<CheckoutView>(app, shopper, '/functions/customerpage/placeOrder', ref);
    expect(placed.status).toBe(200);
    order = { checkoutUid, orderNumber: placed.body.orderNumber as number };
    // … and a show's recording: its files in the live folder, its replay address in the database,
    // as the live service leaves them when a show ends.
    await mkdir(join(source.dataDir, 'live', EVENT), { recursive: true });
    await writeFile(join(source.dataDir, 'live', EVENT, 'replay.m3u8'), '#EXTM3U\n#EXT-X-ENDLIST\n');
    await writeFile(join(source.dataDir, 'live', EVENT, 'segment-00001.m4s'), randomBytes(4096));
    await setRecordedReplay(app, EVENT, Date.now());
  } finally {
    await app.server.close();
    await db.close();
  }
}, 120_000);

afterAll(async () => {
  for (const made of installations) await made.dispose();
  if (backupDir) await rm(join(backupDir, '..'), { recursive: true, force: true });
});

describe(`npm run backup and npm run restore (${SERVER_URL ? 'PostgreSQL' : 'embedded database'})`, () => {
  it.skipIf(Boolean(SERVER_URL))('refuses to copy the embedded database while it is open', async () => {
    const db = await source.open();
    try {
      const refused = await runTool('backup', source, '--out', `${backupDir}-open`);
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('stop the server first') });
    } finally {
      await db.close();
    }
  });

  it('backs up the database, the images and the recordings, with what the database refers to', async () => {
    const backedUp = await runTool('backup', source, '--out', backupDir);
    expect(backedUp.stdout, backedUp.stderr).toContain(`into ${backupDir}`);
    const manifest = JSON.parse(await readFile(join(backupDir, 'manifest.json'), 'utf8')) as BackupManifest;
    expect(manifest.database.kind).toBe(SERVER_URL ? 'postgres' : 'pglite');
    expect(manifest.references).toEqual({
      media: [imageUrl.replace('/media/', '')],
      recordings: [{ eventId: EVENT, files: 2 }],
    });
    expect(manifest.recordings).toMatchObject({ store: 'disk', files: 2 });
    expect(manifest.media.files).toBeGreaterThanOrEqual(1);
    // The embedded database's copy holds its cluster, not the media folders inside the data folder.
    if (!SERVER_URL) {
      const { readdir } = await import('node:fs/promises');
      const copied = await readdir(join(backupDir, 'database'));
      expect(copied).toContain('PG_VERSION');
      expect(copied).not.toContain('media');
      expect(copied).not.toContain('live');
      expect(copied).not.toContain('postmaster.pid');
    }
  }, 120_000);

  it('restores into a fresh database, and the shop answers with the product, its image and the order', async () => {
    const target = await installation();
    const restored = await runTool('restore', target, backupDir);
    expect(restored.stdout, restored.stderr).toContain('All 1 images the database refers to are in place.');
    expect(restored.stdout).toContain('All 1 recordings the database refers to are in place.');
    expect(restored.stdout).toContain('The database is at this release’s schema.');

    const db = await target.open();
    const app = await openTestApp({ db, env: target.env });
    try {
      const product = await app.server.inject({
        url: `/staff/stores/${SHOP}/products/mug`,
        headers: adminHeaders,
      });
      expect(product.statusCode, product.body).toBe(200);
      expect(product.json()).toMatchObject({ uid: 'mug', sku: 'MUG', images: [imageUrl], stock: 9 });
      const image = await app.server.inject({ url: imageUrl });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');

      const detail = await app.server.inject({
        url: `/staff/stores/${SHOP}/orders/${order.checkoutUid}`,
        headers: adminHeaders,
      });
      expect(detail.statusCode, detail.body).toBe(200);
      expect((detail.json() as StudioOrderDetail).order.orderNumber).toBe(order.orderNumber);
      // A shopper can still buy: the restored store takes a new order's line.
      const shopper = await signIn(app);
      expect((await addSingle(app, shopper, 'mug')).status).toBe(200);
    } finally {
      await app.server.close();
      await db.close();
    }
    expect(await readFile(join(target.dataDir, 'live', EVENT, 'replay.m3u8'), 'utf8')).toContain('#EXTM3U');

    // The database now holds a store: a second restore is refused, unless forced.
    const refused = await runTool('restore', target, backupDir);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('already holds a database') });
    const forced = await runTool('restore', target, backupDir, '--force');
    expect(forced.stdout, forced.stderr).toContain('Restored the backup');
  }, 180_000);

  it('says which images and recordings the database refers to are missing', async () => {
    const damaged = `${backupDir}-damaged`;
    await cp(backupDir, damaged, { recursive: true });
    await rm(join(damaged, imageUrl), { force: true });
    await rm(join(damaged, 'live', EVENT), { recursive: true, force: true });
    const target = await installation();
    const restored = await runTool('restore', target, damaged);
    expect(restored.stdout, restored.stderr).toContain(
      `warning: 1 images the database refers to are missing: ${imageUrl.replace('/media/', '')}`,
    );
    expect(restored.stdout).toContain(`warning: the recordings of ${EVENT} are missing from the live folder`);
  }, 120_000);

  it.runIf(Boolean(SERVER_URL))('says so when pg_dump is not installed', async () => {
    const withoutTools = { ...source, extraEnv: { PATH: dirname(process.execPath) } };
    const refused = await runTool('backup', withoutTools, '--out', `${backupDir}-no-tools`);
    expect(refused).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('pg_dump is not installed (or not on PATH)'),
    });
  });

  it('refuses a folder that is no backup, and a call without one, with its usage', async () => {
    const target = await installation();
    const none = await runTool('restore', target, target.dataDir);
    expect(none).toMatchObject({ code: 1, stderr: expect.stringContaining('is not a Vitrine backup') });
    const usage = await runTool('restore', target);
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: npm run restore') });
  });
});

describe('recordings in an S3 bucket', () => {
  let s3: TestS3Server | undefined;
  afterAll(async () => {
    await s3?.close();
  });

  it('lists them in the manifest without copying them, and a restore checks the bucket still has them', async () => {
    s3 = await startTestS3Server('vitrine-backup-test');
    const withBucket = await installation();
    withBucket.env = { ...withBucket.env, ...s3.env };
    const db = await withBucket.open();
    await migrate(db);
    const app = await openTestApp({ db, env: withBucket.env });
    try {
      await seedCommerceStore(app, { now: Date.now() });
      const bucket = createS3SegmentStore(s3.settings);
      await bucket.put(
        `${EVENT}/replay.m3u8`,
        Buffer.from('#EXTM3U\n#EXT-X-ENDLIST\n'),
        'application/vnd.apple.mpegurl',
      );
      bucket.close();
      await setRecordedReplay(app, EVENT, Date.now());
    } finally {
      await app.server.close();
      await db.close();
    }

    const folder = `${backupDir}-s3`;
    const backedUp = await runTool('backup', withBucket, '--out', folder);
    expect(backedUp.stdout, backedUp.stderr).toContain('recordings left in the bucket vitrine-backup-test');
    const manifest = JSON.parse(await readFile(join(folder, 'manifest.json'), 'utf8')) as BackupManifest;
    expect(manifest.recordings).toEqual({ store: 's3', bucket: 'vitrine-backup-test', prefix: '' });
    expect(manifest.references.recordings).toEqual([{ eventId: EVENT, files: 1 }]);
    expect(existsSync(join(folder, 'live'))).toBe(false);

    const target = await installation();
    target.env = { ...target.env, ...s3.env };
    const restored = await runTool('restore', target, folder);
    expect(restored.stdout, restored.stderr).toContain(
      'All 1 recordings the database refers to are in place.',
    );
    // A server pointed at another place in the bucket (a new prefix) does not find them: said so.
    const elsewhere = await installation();
    elsewhere.env = { ...elsewhere.env, ...s3.env, VITRINE_S3_PREFIX: 'elsewhere/' };
    const moved = await runTool('restore', elsewhere, folder);
    expect(moved.stdout, moved.stderr).toContain(
      `warning: the recordings of ${EVENT} are missing from the bucket`,
    );
  }, 180_000);
});
