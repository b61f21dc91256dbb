import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { type MediaReferences, mediaReferencesIn } from '@vitrine/domain';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/database.ts';
import type { SegmentStore } from '../features/live/segment-store.ts';

/** Files being written (`.part` of the media store, `.tmp` of the segment store): never copied. */
const unfinished = (name: string) => name.endsWith('.part') || name.endsWith('.tmp');

/**
 * Copies the files and folders under `from` to the same places under `to` (a missing `from` copies nothing),
 * leaving other files of `to` alone; `keep` chooses the top-level entries. Answers what it copied.
 */
export async function copyFolder(
  from: string,
  to: string,
  keep: (topLevelName: string) => boolean = () => true,
): Promise<{ files: number; bytes: number }> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true }).catch((error) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  let files = 0;
  let bytes = 0;
  for (const entry of entries) {
    const path = relative(from, join(entry.parentPath, entry.name));
    if (!keep(path.split('/')[0] as string)) continue;
    // Folders too, empty ones included: a database cluster needs its empty folders (pg_tblspc, …).
    if (entry.isDirectory()) await mkdir(join(to, path), { recursive: true });
    if (!entry.isFile() || unfinished(entry.name)) continue;
    await mkdir(join(to, relative(from, entry.parentPath)), { recursive: true });
    await copyFile(join(from, path), join(to, path));
    files += 1;
    bytes += (await stat(join(to, path))).size;
  }
  return { files, bytes };
}

/**
 * What the database refers to outside itself: every row of every table of its schema that names
 * `/media/…` or `/live/…`, read as text. Generic on purpose: a feature that later stores an image
 * address in a new column is covered without this code knowing its table.
 */
export async function referencedMedia(db: Queryable): Promise<MediaReferences> {
  const tables = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const texts: string[] = [];
  for (const { name } of tables) {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    const rows = await db.query<{ row: string }>(
      `SELECT t::text AS row FROM ${quoted} t WHERE t::text LIKE '%/media/%' OR t::text LIKE '%/live/%'`,
    );
    for (const { row } of rows) texts.push(row);
  }
  return mediaReferencesIn(texts);
}

/** The recordings store of the configuration: the live folder, or the bucket. */
export async function openSegmentStore(config: Config): Promise<SegmentStore> {
  const { createDiskSegmentStore, createS3SegmentStore } = await import('../features/live/segment-store.ts');
  const store = config.live.segmentStore;
  return store.kind === 's3' ? createS3SegmentStore(store) : createDiskSegmentStore(config.live.dir);
}

/** How many files the store holds for each recording. */
export async function recordingFiles(
  store: SegmentStore,
  eventIds: readonly string[],
): Promise<{ eventId: string; files: number }[]> {
  const counted: { eventId: string; files: number }[] = [];
  for (const eventId of eventIds) counted.push({ eventId, files: (await store.list(`${eventId}/`)).length });
  return counted;
}

/** Whether a file exists. */
export const fileExists = (path: string) =>
  stat(path).then(
    (stats) => stats.isFile(),
    () => false,
  );
