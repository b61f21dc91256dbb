import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import {
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { S3StoreSettings } from '../../config.ts';

/**
 * Where the finished files of live shows are kept — segments, init segments, replay playlists —
 * by key (`<eventId>/<file name>`): a folder on this machine, or an S3-compatible bucket that
 * every node (and a media worker on another machine) reads and writes. Only whole files are put;
 * the live edge a packager is writing stays in the memory of the process that packages it.
 */
export interface SegmentStore {
  /** `disk` or `s3`: the studio's disk figures only mean something for a disk. */
  readonly kind: 'disk' | 's3';
  /** Stores a whole file under `key`, replacing what was there; a reader never sees half of it. */
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file under `key`, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Every key that starts with `prefix` (e.g. `<eventId>/`), in no particular order. */
  list(prefix: string): Promise<string[]>;
  /**
   * Where a viewer fetches the file straight from the store (a public bucket or a CDN in front of
   * it), or null: the node serves it.
   */
  url(key: string): string | null;
  /** Lets go of connections (the server is closing). */
  close(): void;
}

/** Keys are `/`-separated names of letters, digits, `_`, `-` and `.`, never `.` or `..` alone. */
const KEY_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/;

function checkKey(key: string): string {
  if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`not a segment store key: ${JSON.stringify(key)}`);
  }
  return key;
}

/**
 * The store in a folder: `<root>/<eventId>/<file>`, the layout recordings always had. A file is
 * written aside and renamed, so a full disk leaves no half file behind (the write fails whole).
 */
export function createDiskSegmentStore(root: string): SegmentStore {
  const pathOf = (key: string) => join(root, ...checkKey(key).split('/'));
  return {
    kind: 'disk',
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeFile(temporary, bytes);
        await rename(temporary, path);
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw error;
      }
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
        throw error;
      }
    },
    async list(prefix) {
      // The folder the prefix names (or lies in); its files, filtered by the prefix's rest.
      const folder = prefix.endsWith('/') || prefix === '' ? prefix.slice(0, -1) : dirname(prefix);
      const base = folder === '' || folder === '.' ? root : pathOf(folder);
      const entries = await readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
      return entries
        .filter((entry) => entry.isFile() && !entry.name.endsWith('.tmp'))
        .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
        .filter((key) => key.startsWith(prefix));
    },
    url: () => null,
    close: () => {},
  };
}

/** How long one request to the bucket may take before it is given up (and retried by the SDK). */
const S3_REQUEST_TIMEOUT_MS = 15_000;
const S3_CONNECTION_TIMEOUT_MS = 3_000;

/** The store in an S3-compatible bucket, through the AWS SDK v3. */
export function createS3SegmentStore(settings: S3StoreSettings): SegmentStore {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
    requestHandler: {
      requestTimeout: S3_REQUEST_TIMEOUT_MS,
      connectionTimeout: S3_CONNECTION_TIMEOUT_MS,
    },
  });
  const objectKey = (key: string) => `${settings.prefix}${checkKey(key)}`;
  const publicBase = settings.publicUrl?.replace(/\/+$/, '') ?? null;
  return {
    kind: 's3',
    async put(key, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket: settings.bucket,
          Key: objectKey(key),
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.length,
        }),
      );
    },
    async get(key) {
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }),
        );
        if (!answer.Body) return null;
        return Buffer.from(await answer.Body.transformToByteArray());
      } catch (error) {
        if (error instanceof NoSuchKey) return null;
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
        throw error;
      }
    },
    async list(prefix) {
      const keys: string[] = [];
      let continuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: settings.bucket,
            Prefix: `${settings.prefix}${prefix}`,
            ...(continuationToken ? { ContinuationToken: continuationToken } : {}),
          }),
        );
        for (const object of page.Contents ?? []) {
          if (object.Key) keys.push(object.Key.slice(settings.prefix.length));
        }
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
      return keys;
    },
    url: (key) => (publicBase ? `${publicBase}/${objectKey(key)}` : null),
    close: () => client.destroy(),
  };
}
