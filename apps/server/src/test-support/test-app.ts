import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type App, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { ChangeBus } from '../realtime/change-bus.ts';
import { createMemoryChangeBus } from '../realtime/memory-change-bus.ts';
import { createOutbox, type OutboxDatabase, withOutbox } from '../realtime/outbox.ts';
import type { ScheduleTimer } from '../schedule-timer.ts';
import { openMigratedPgliteDatabase } from './pglite-template.ts';
import { openPostgresTestDatabase } from './postgres-template.ts';

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789';

/** The settings every test app runs with (openTestApp, startTestServer) unless its test says otherwise. */
export const TEST_APP_ENV: Record<string, string> = {
  LOG_LEVEL: 'silent',
  VITRINE_ADMIN_KEY: TEST_ADMIN_KEY,
  VITRINE_WEB_DIST: '/nonexistent',
  VITRINE_SEED_DEMO: '0',
  // Tests post many comments from one user quickly; the comment tests switch the limit on.
  VITRINE_COMMENT_RATE_LIMIT: 'off',
  // Test files create many users from one address; the abuse tests switch the limits on.
  VITRINE_ABUSE_LIMITS: 'off',
  // Live tests ask for an RTMP ingest on a free port; the rest take none.
  RTMP_PORT: 'off',
  // Video in the test's own process (the media worker's tests ask for a child or a worker).
  LIVE_MEDIA: 'inline',
};

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a database of its
 * own on the PostgreSQL server named by DATABASE_URL (dropped again by `dispose`).
 */
export async function openTestDatabase(): Promise<Database & { dispose(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (url) return openPostgresTestDatabase(url);
  const db = await openMigratedPgliteDatabase();
  return Object.assign(db, { dispose: () => db.close() });
}

/** `db` with an outbox on `bus`, for a service tested without the app around it. */
export function withTestOutbox(db: Database, bus: ChangeBus = createMemoryChangeBus()): OutboxDatabase {
  const failed = (fields: Record<string, unknown>, message: string) => {
    throw new Error(`${message}: ${String(fields.err)}`);
  };
  return withOutbox(db, createOutbox({ bus, log: { warn: failed, error: failed } }));
}

/** A real app on a test database, without the web app; requests go through `server.inject`. */
export async function openTestApp(
  options: {
    now?: () => number;
    env?: Record<string, string>;
    scheduleTimer?: ScheduleTimer;
    analyticsTimer?: ScheduleTimer;
    /** A database to keep across apps (a server restart); the caller disposes of it. */
    db?: Database;
  } = {},
): Promise<App & { db: Database; close(): Promise<void> }> {
  const owned = options.db ? null : await openTestDatabase();
  const db: Database = options.db ?? (owned as Database);
  // Uploaded images go to a folder of this app's own, removed with it.
  const mediaDir = mkdtempSync(join(tmpdir(), 'vitrine-test-media-'));
  const config = loadConfig({
    VITRINE_MEDIA_DIR: mediaDir,
    ...TEST_APP_ENV,
    // Imports keep their images' URLs (tests have no internet); the image-copy test switches it on.
    VITRINE_IMPORT_IMAGES: 'link',
    // One rendition whatever the machine's cores (the default adds 360p from 4): the renditions test asks for two.
    LIVE_PROFILE: 'renditions=720p30',
    ...options.env,
  });
  const app = await buildApp({
    config,
    db,
    ...(options.now ? { now: options.now } : {}),
    scheduleTimer: options.scheduleTimer,
    analyticsTimer: options.analyticsTimer,
  });
  return {
    ...app,
    db,
    async close() {
      await app.server.close();
      await owned?.dispose();
      rmSync(mediaDir, { recursive: true, force: true });
    },
  };
}

export const adminHeaders = { authorization: `Bearer ${TEST_ADMIN_KEY}` };
