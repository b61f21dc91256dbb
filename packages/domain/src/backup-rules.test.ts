import { describe, expect, it } from 'vitest';
import {
  mediaReferencesIn,
  pgDumpMismatch,
  pgRestoreMismatch,
  pgServerMajorVersion,
  pgToolMajorVersion,
} from './backup-rules.ts';

describe('PostgreSQL client tool versions', () => {
  it('reads the major version of pg_dump and pg_restore, and nothing else', () => {
    expect(pgToolMajorVersion('pg_dump (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)\n')).toBe(15);
    expect(pgToolMajorVersion('pg_restore (PostgreSQL) 17.2')).toBe(17);
    expect(pgToolMajorVersion('pg_dump (PostgreSQL) 9.6.24')).toBe(9);
    expect(pgToolMajorVersion('psql (PostgreSQL) 15.20')).toBeNull();
    expect(pgToolMajorVersion('')).toBeNull();
    expect(pgServerMajorVersion(150020)).toBe(15);
    expect(pgServerMajorVersion(170002)).toBe(17);
  });

  it('lets pg_dump back up its own version and older servers, and says which tools a newer one needs', () => {
    expect(pgDumpMismatch(15, 15)).toBeNull();
    expect(pgDumpMismatch(17, 15)).toBeNull();
    expect(pgDumpMismatch(15, 16)).toMatch(/pg_dump is version 15 and the server 16.*postgresql-client-16/);
  });

  it('lets pg_restore read what its own version or an older pg_dump wrote', () => {
    expect(pgRestoreMismatch(15, 15)).toBeNull();
    expect(pgRestoreMismatch(16, 15)).toBeNull();
    expect(pgRestoreMismatch(15, 17)).toMatch(/pg_restore must be 17 or newer/);
  });
});

describe('mediaReferencesIn', () => {
  it('finds image keys and recorded shows in row text, once each, sorted', () => {
    const rows = [
      '(mug,"{""url"": ""/media/shop/abc_D-640.webp"", ""variants"": [{""url"": ""/media/shop/abc_D-320.webp""}]}")',
      '(ev-1,"https://shop.example/live/ev-1/replay.m3u8",https://shop.example/media/shop/abc_D-640.webp)',
      '(ev-0,/live/ev-0/live.m3u8)',
    ];
    expect(mediaReferencesIn(rows)).toEqual({
      media: ['shop/abc_D-320.webp', 'shop/abc_D-640.webp'],
      recordings: ['ev-0', 'ev-1'],
    });
  });

  it('ignores addresses that are no keys of ours (other files, path tricks, other sites’ folders)', () => {
    expect(
      mediaReferencesIn([
        '/media/../../etc/passwd.webp /media/a/b.svg /media/only-one-part.webp /live/../x.m3u8 /live/ev/segment.m4s',
      ]),
    ).toEqual({ media: [], recordings: [] });
  });
});
