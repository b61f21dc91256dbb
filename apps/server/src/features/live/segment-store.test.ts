import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3Server, type TestS3Server } from '../../test-support/s3-test-server.ts';
import { createDiskSegmentStore, createS3SegmentStore, type SegmentStore } from './segment-store.ts';

let s3: TestS3Server;
let folder: string;
const stores: SegmentStore[] = [];

beforeAll(async () => {
  s3 = await startTestS3Server();
  folder = mkdtempSync(join(tmpdir(), 'vitrine-segment-store-'));
});

afterAll(async () => {
  for (const store of stores) store.close();
  await s3?.close();
  rmSync(folder, { recursive: true, force: true });
});

const implementations: [string, () => SegmentStore][] = [
  ['on disk', () => createDiskSegmentStore(folder)],
  ['in an S3 bucket (s3rver on loopback)', () => createS3SegmentStore(s3.settings)],
  [
    'in an S3 bucket under a prefix',
    () => createS3SegmentStore({ ...s3.settings, prefix: 'shared/vitrine/' }),
  ],
];

describe.each(implementations)('the segment store %s', (_name, make) => {
  let store: SegmentStore;
  beforeAll(() => {
    store = make();
    stores.push(store);
  });

  it('gives back what was put, whole, and null for what was not', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, index) => index % 251));
    await store.put('show-a/r1-00000.m4s', bytes, 'video/iso.segment');
    expect((await store.get('show-a/r1-00000.m4s'))?.equals(bytes)).toBe(true);
    expect(await store.get('show-a/r1-00001.m4s')).toBeNull();
    expect(await store.get('no-show/replay.m3u8')).toBeNull();
  });

  it('replaces a file put again', async () => {
    await store.put('show-a/replay.m3u8', Buffer.from('#EXTM3U\n'), 'application/vnd.apple.mpegurl');
    await store.put(
      'show-a/replay.m3u8',
      Buffer.from('#EXTM3U\n#EXT-X-ENDLIST\n'),
      'application/vnd.apple.mpegurl',
    );
    expect((await store.get('show-a/replay.m3u8'))?.toString()).toBe('#EXTM3U\n#EXT-X-ENDLIST\n');
  });

  it('lists the keys under a prefix, and only those', async () => {
    await store.put('show-b/r1-init.mp4', Buffer.from('init'), 'video/mp4');
    await store.put('show-b/r2-00003.m4s', Buffer.from('media'), 'video/iso.segment');
    await store.put('show-bb/r1-init.mp4', Buffer.from('other show'), 'video/mp4');
    expect((await store.list('show-b/')).sort()).toEqual(['show-b/r1-init.mp4', 'show-b/r2-00003.m4s']);
    expect(await store.list('show-none/')).toEqual([]);
  });

  it('lists more keys than one S3 page holds', async () => {
    const key = (index: number) => `show-long/r1-${String(index).padStart(5, '0')}.m4s`;
    // A few at a time: s3rver's folders race when many puts make the same one at once.
    for (let start = 0; start < 1005; start += 25) {
      const batch = Array.from({ length: Math.min(25, 1005 - start) }, (_, offset) => start + offset);
      await Promise.all(
        batch.map((index) => store.put(key(index), Buffer.from([index % 256]), 'video/iso.segment')),
      );
    }
    expect(new Set(await store.list('show-long/')).size).toBe(1005);
  }, 60_000);

  it('refuses keys that would leave its place', async () => {
    for (const key of ['../escape', 'show/../../etc/passwd', '/absolute', 'show//double', 'show/./x', '']) {
      await expect(store.put(key, Buffer.from('x'), 'video/mp4')).rejects.toThrow(/not a segment store key/);
      await expect(store.get(key)).rejects.toThrow(/not a segment store key/);
    }
  });
});

describe('the disk segment store', () => {
  it('keeps the recordings layout, <folder>/<show>/<file>, and leaves no temporary file', async () => {
    const store = createDiskSegmentStore(folder);
    await store.put('show-c/r1-00000.m4s', Buffer.from('media'), 'video/iso.segment');
    expect(readdirSync(join(folder, 'show-c'))).toEqual(['r1-00000.m4s']);
    expect(store.url('show-c/r1-00000.m4s')).toBeNull();
  });
});

describe('the S3 segment store', () => {
  it('names the public URL of a file when the bucket has one, else none', () => {
    const quiet = createS3SegmentStore(s3.settings);
    const published = createS3SegmentStore({
      ...s3.settings,
      prefix: 'vitrine/',
      publicUrl: 'https://media.example.com/',
    });
    stores.push(quiet, published);
    expect(quiet.url('show-a/r1-00000.m4s')).toBeNull();
    expect(published.url('show-a/r1-00000.m4s')).toBe(
      'https://media.example.com/vitrine/show-a/r1-00000.m4s',
    );
  });

  it('fails a put the bucket refuses, instead of losing it quietly', async () => {
    const missing = createS3SegmentStore({ ...s3.settings, bucket: 'no-such-bucket' });
    stores.push(missing);
    await expect(missing.put('show-a/r1-00000.m4s', Buffer.from('x'), 'video/iso.segment')).rejects.toThrow();
  });
});
