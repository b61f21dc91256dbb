import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

/** The file in a backup folder that says what the folder holds. */
export const MANIFEST_FILE = 'manifest.json';

const FileCount = z.object({ files: z.number().int().nonnegative(), bytes: z.number().int().nonnegative() });

/**
 * What a backup folder holds (`npm run backup`, read back by `npm run restore`): the database (the
 * embedded one's files, or a pg_dump archive), the copies of the local media folders, and what the
 * database refers to outside itself, so a restore can say whether every reference resolves.
 */
export const BackupManifest = z.object({
  format: z.literal('vitrine-backup'),
  version: z.literal(1),
  createdAt: z.string(),
  database: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('pglite'),
      /** The cluster's files, copied from the stopped embedded database. */
      folder: z.string(),
      migrations: z.array(z.string()),
    }),
    z.object({
      kind: z.literal('postgres'),
      /** pg_dump's custom-format archive. */
      file: z.string(),
      migrations: z.array(z.string()),
      serverMajorVersion: z.number().int(),
      pgDumpMajorVersion: z.number().int(),
    }),
  ]),
  /** The uploaded images' folder, copied whole into `media/`. */
  media: FileCount,
  /** The recordings: copied into `live/` from a disk store; left in place (listed only) in a bucket. */
  recordings: z.discriminatedUnion('store', [
    z.object({ store: z.literal('disk') }).extend(FileCount.shape),
    z.object({ store: z.literal('s3'), bucket: z.string(), prefix: z.string() }),
  ]),
  references: z.object({
    /** Media keys (`<store>/<file>`) the database names. */
    media: z.array(z.string()),
    /** Shows whose recording the database names, with the files the store held for each. */
    recordings: z.array(z.object({ eventId: z.string(), files: z.number().int().nonnegative() })),
  }),
});
export type BackupManifest = z.infer<typeof BackupManifest>;

export async function writeManifest(folder: string, manifest: BackupManifest): Promise<void> {
  await writeFile(join(folder, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The manifest of a backup folder; throws with what is wrong when it is none. */
export async function readManifest(folder: string): Promise<BackupManifest> {
  let text: string;
  try {
    text = await readFile(join(folder, MANIFEST_FILE), 'utf8');
  } catch {
    throw new Error(`${folder} is not a Vitrine backup: it has no ${MANIFEST_FILE}.`);
  }
  const parsed = BackupManifest.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${join(folder, MANIFEST_FILE)} is not a Vitrine backup manifest.`);
  return parsed.data;
}
