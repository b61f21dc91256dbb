import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_H264_ENCODING } from '../../test-support/live-publisher.ts';
import { freeDiskBytes, isWholeFragment } from './recording-disk.ts';

let dir: string;
let segment: Buffer;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vitrine-fragment-'));
  // Two seconds of real packager output: its first media segment.
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=25:duration=2'],
    ...[...TEST_H264_ENCODING, '-f', 'flv', join(dir, 'in.flv')],
  ]);
  execFileSync('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'flv', '-i', join(dir, 'in.flv')],
    // ffmpeg's own fMP4 HLS: whole media segments, as a full disk would cut them short.
    ...['-c:v', 'copy', '-f', 'hls', '-hls_time', '1', '-hls_segment_type', 'fmp4'],
    ...['-hls_fmp4_init_filename', 'r1-init.mp4', '-hls_segment_filename', join(dir, 'r1-%05d.m4s')],
    join(dir, 'r1.m3u8'),
  ]);
  segment = readFileSync(join(dir, 'r1-00000.m4s'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('isWholeFragment', () => {
  it('takes a segment ffmpeg finished', () => {
    expect(isWholeFragment(segment)).toBe(true);
  });

  it('refuses one a full disk cut short, an empty one, and an init segment', () => {
    expect(isWholeFragment(segment.subarray(0, segment.length - 1))).toBe(false);
    expect(isWholeFragment(segment.subarray(0, 4096))).toBe(false);
    expect(isWholeFragment(Buffer.alloc(0))).toBe(false);
    // A page of zeros, as a file system may leave after a failed write.
    expect(isWholeFragment(Buffer.concat([segment, Buffer.alloc(4096)]))).toBe(false);
    expect(isWholeFragment(readFileSync(join(dir, 'r1-init.mp4')))).toBe(false);
  });
});

describe('freeDiskBytes', () => {
  it('answers the free space of a folder, or of its nearest parent while it is not made yet', async () => {
    const free = await freeDiskBytes(dir);
    expect(free).toBeGreaterThan(0);
    const notYet = await freeDiskBytes(join(dir, 'not', 'made', 'yet'));
    // The same file system: the same free space, give or take what others wrote meanwhile.
    expect(Math.abs((notYet ?? 0) - (free ?? 0))).toBeLessThan(1024 ** 3);
  });

  it('answers null for a path under a file', async () => {
    expect(await freeDiskBytes(join(dir, 'in.flv', 'below'))).toBeNull();
  });
});
