import { describe, expect, it } from 'vitest';
import {
  adminKeyWeakness,
  ffmpegVersionSupported,
  parseFfmpegVersion,
  storeIdFromName,
} from './operator-rules.ts';

describe('adminKeyWeakness', () => {
  it('refuses a key under 32 characters, saying how long it is', () => {
    expect(adminKeyWeakness('e2e-admin-key-0123456789')).toMatch(/too short: 24 characters, at least 32/);
  });

  it('refuses a long key of few different characters', () => {
    expect(adminKeyWeakness('a'.repeat(40))).toMatch(/only 1 different characters, at least 10/);
    expect(adminKeyWeakness('abcabcabcabcabcabcabcabcabcabcabcabc')).toMatch(/only 3 different/);
  });

  it('accepts a random key of 24 bytes in base64url', () => {
    expect(adminKeyWeakness('q3V9x-Tr0wLk2bYpZ8mN4sGh7JcE1fUa')).toBeNull();
  });

  it('counts characters, not UTF-16 units', () => {
    expect(adminKeyWeakness('🔑'.repeat(16) + 'abcdefghij'.slice(0, 9))).toMatch(/too short: 25/);
  });
});

describe('parseFfmpegVersion', () => {
  it('reads the major number of release builds', () => {
    expect(parseFfmpegVersion('ffmpeg version 6.1.1-3ubuntu5 Copyright (c) 2000-2023')).toEqual({
      text: '6.1.1-3ubuntu5',
      major: 6,
    });
    expect(parseFfmpegVersion('ffmpeg version n7.0 Copyright')).toEqual({ text: 'n7.0', major: 7 });
    expect(parseFfmpegVersion('ffmpeg version 4.1 Copyright')?.major).toBe(4);
  });

  it('takes a git build as new enough and rejects what is not ffmpeg', () => {
    const git = parseFfmpegVersion('ffmpeg version N-112345-gabcdef Copyright');
    expect(git).toEqual({ text: 'N-112345-gabcdef', major: null });
    expect(git && ffmpegVersionSupported(git)).toBe(true);
    expect(parseFfmpegVersion('bash: ffmpeg: not found')).toBeNull();
  });

  it('supports 5 and later only', () => {
    expect(ffmpegVersionSupported({ major: 4 })).toBe(false);
    expect(ffmpegVersionSupported({ major: 5 })).toBe(true);
  });
});

describe('storeIdFromName', () => {
  it('makes a URL id of the name, accents folded', () => {
    expect(storeIdFromName('Nordlys Living')).toBe('nordlys-living');
    expect(storeIdFromName('  Café Ørsted & Co.  ')).toBe('cafe-rsted-co');
  });

  it('falls back to "store" for a name of no Latin letters or digits', () => {
    expect(storeIdFromName('서울 상점')).toBe('store');
  });
});
