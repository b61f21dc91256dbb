/**
 * The major version of a PostgreSQL client tool from its `--version` line ("pg_dump (PostgreSQL)
 * 15.20 (Debian 15.20-0+deb12u1)", "pg_restore (PostgreSQL) 17.2"), or null when it is not one.
 */
export function pgToolMajorVersion(versionLine: string): number | null {
  const match = /^(pg_dump|pg_restore) \(PostgreSQL\) (\d+)(\.\d+)?/.exec(versionLine.trim());
  return match ? Number(match[2]) : null;
}

/** The major version of a server from `SHOW server_version_num` (150020 → 15). */
export const pgServerMajorVersion = (serverVersionNum: number) => Math.floor(serverVersionNum / 10_000);

/**
 * Why a pg_dump cannot back up a server, or null when it can. pg_dump reads servers of its own
 * major version and older, never newer ("server version mismatch"); the fix is the client tools
 * of the server's version, which Debian keeps side by side in /usr/lib/postgresql/N/bin.
 */
export function pgDumpMismatch(toolMajor: number, serverMajor: number): string | null {
  if (toolMajor >= serverMajor) return null;
  return `pg_dump is version ${toolMajor} and the server ${serverMajor}: pg_dump must be ${serverMajor} or newer (apt-get install postgresql-client-${serverMajor}, then put /usr/lib/postgresql/${serverMajor}/bin first on PATH).`;
}

/**
 * Why a pg_restore cannot read a backup made by pg_dump `dumpMajor`, or null when it can: the
 * custom format is read by the pg_restore of the same major version or newer.
 */
export function pgRestoreMismatch(toolMajor: number, dumpMajor: number): string | null {
  if (toolMajor >= dumpMajor) return null;
  return `pg_restore is version ${toolMajor} and the backup was written by pg_dump ${dumpMajor}: pg_restore must be ${dumpMajor} or newer (apt-get install postgresql-client-${dumpMajor}, then put /usr/lib/postgresql/${dumpMajor}/bin first on PATH).`;
}

/** What stored data names outside the database: uploaded images (media keys) and shows' recordings. */
export interface MediaReferences {
  /** `<store>/<file>` keys of `/media/<key>` addresses, sorted, each once. */
  media: string[];
  /** Event ids of `/live/<eventId>/…` addresses (a recording's playlists), sorted, each once. */
  recordings: string[];
}

const MEDIA_ADDRESS = /\/media\/([A-Za-z0-9_-]{1,128}\/[A-Za-z0-9_-]{1,128}\.(?:webp|jpg))/g;
const LIVE_ADDRESS = /\/live\/([A-Za-z0-9_-]{1,128})\/[A-Za-z0-9_.-]+\.m3u8/g;

/**
 * The media a database's text refers to, read from rows written out as text (`row::text`): the
 * addresses the media feature and the live feature hand out (`/media/<store>/<hash>-<width>.webp`,
 * `/live/<eventId>/replay.m3u8`), whether absolute or not. A backup checks these are restorable.
 */
export function mediaReferencesIn(texts: Iterable<string>): MediaReferences {
  const media = new Set<string>();
  const recordings = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(MEDIA_ADDRESS)) media.add(match[1] as string);
    for (const match of text.matchAll(LIVE_ADDRESS)) recordings.add(match[1] as string);
  }
  return { media: [...media].sort(), recordings: [...recordings].sort() };
}
