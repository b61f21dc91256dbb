import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * Bytes an unprivileged process may still write on the file system that holds (or will hold)
 * `dir`: a folder not made yet is measured at its nearest existing parent. Null when unknown.
 */
export async function freeDiskBytes(dir: string): Promise<number | null> {
  for (let path = resolve(dir); ; path = dirname(path)) {
    try {
      const stats = await statfs(path);
      return stats.bavail * stats.bsize;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(path) === path) return null;
    }
  }
}

/**
 * Whether `bytes` are a whole fMP4 media segment: top-level boxes that add up to exactly its
 * length, a `moof` and an `mdat` among them. A segment ffmpeg could not finish writing (a full
 * disk cuts it short, or leaves it empty) fails, and is never recorded.
 */
export function isWholeFragment(bytes: Buffer): boolean {
  let offset = 0;
  let moof = false;
  let mdat = false;
  while (offset < bytes.length) {
    if (bytes.length - offset < 8) return false;
    let size = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    if (size === 1) {
      if (bytes.length - offset < 16) return false;
      size = Number(bytes.readBigUInt64BE(offset + 8));
    }
    // Size 0 ("to the end of the file") is never written by ffmpeg's fMP4: zeros a failed write left.
    if (size < 8 || offset + size > bytes.length) return false;
    if (type === 'moof') moof = true;
    if (type === 'mdat') mdat = true;
    offset += size;
  }
  return moof && mdat;
}
