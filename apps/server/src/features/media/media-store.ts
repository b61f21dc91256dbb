import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Where uploaded media's bytes live, by key (`<store>/<hash>-<width>.webp`). One interface so an
 * object storage (S3 and the like) can replace the data directory without touching the features.
 */
export interface MediaStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The bytes, or null when nothing is stored under the key. */
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
}

/** A key: a store's folder and a file name of letters, digits, "-", "_" and one extension. */
const MEDIA_KEY = /^[A-Za-z0-9_-]{1,128}\/[A-Za-z0-9_-]{1,128}\.(webp|jpg)$/;

/** Whether `key` is one this feature makes; anything else (`..`, absolute paths) is never read. */
export function isMediaKey(key: string): boolean {
  return MEDIA_KEY.test(key);
}

/** The default store: files under a directory (`<VITRINE_DATA_DIR>/media` unless configured). */
export function createFileMediaStore(root: string): MediaStore {
  const pathOf = (key: string) => {
    if (!isMediaKey(key)) throw new Error(`not a media key: ${key}`);
    return join(root, key);
  };
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Written aside and renamed, so a reader never sees half a file.
      const partial = `${path}.${randomBytes(6).toString('hex')}.part`;
      await writeFile(partial, bytes);
      await rename(partial, path);
    },
    async get(key) {
      if (!isMediaKey(key)) return null;
      try {
        return await readFile(pathOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
