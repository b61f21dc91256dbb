import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openPgliteDatabase, type PgliteDatabase } from '../db/pglite-database.ts';
import { PGLITE_TEMPLATE_ENV, ReusableTarball } from './pglite-template.ts';

const sha256 = (bytes: ArrayBuffer) => createHash('sha256').update(new Uint8Array(bytes)).digest('hex');

describe('ReusableTarball', () => {
  const opened: PgliteDatabase[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((db) => db.close()));
  });

  it('holds the bytes it was made of, as a Blob and as the buffer it hands out', async () => {
    const bytes = new Uint8Array([1, 2, 3, 4, 5]);
    const tarball = new ReusableTarball(bytes.subarray(1, 4));
    expect(tarball.size).toBe(3);
    expect([...new Uint8Array(await tarball.arrayBuffer())]).toEqual([2, 3, 4]);
    expect([...(await tarball.bytes())]).toEqual([2, 3, 4]);
    // The same buffer each time: that is the point (no copy per database).
    expect(await tarball.arrayBuffer()).toBe(await tarball.arrayBuffer());
  });

  it('starts every database from the same untouched template, whatever the others write', async () => {
    const file = process.env[PGLITE_TEMPLATE_ENV];
    expect(file, 'the server project’s global setup names the migrated template').toBeTruthy();
    const template = new ReusableTarball(readFileSync(file as string));
    const before = sha256(await template.arrayBuffer());

    const first = await openPgliteDatabase(undefined, { startFrom: template, sharedBuffers: '16MB' });
    opened.push(first);
    await first.exec(`CREATE TABLE written_by_the_first (note text);
      INSERT INTO written_by_the_first VALUES ('${'x'.repeat(10_000)}');
      INSERT INTO pages (uid, name, address, storefront, language, currency)
        VALUES ('first-only', 'First', '{}', '{}', 'en', 'DKK');
      CHECKPOINT;`);

    const second = await openPgliteDatabase(undefined, { startFrom: template, sharedBuffers: '16MB' });
    opened.push(second);
    expect(await second.query(`SELECT to_regclass('written_by_the_first') AS found`)).toEqual([
      { found: null },
    ]);
    expect(await second.query(`SELECT uid FROM pages WHERE uid = 'first-only'`)).toEqual([]);
    expect(sha256(await template.arrayBuffer())).toBe(before);
  });
});
