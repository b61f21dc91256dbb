import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMediaPlaylist } from '@vitrine/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREMIERE_REPLAY_FILE_PATTERN, packagePremiereReplay } from './premiere-replay.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vitrine-premiere-replay-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What ffprobe reads first of `entries` (an HLS playlist lists its streams per program too). */
const probe = (path: string, entries: string) =>
  execFileSync('ffprobe', ['-v', 'error', ...entries.split(' '), '-of', 'csv=p=0', path], {
    encoding: 'utf8',
  })
    .split('\n')
    .find((line) => line.trim())
    ?.trim();

describe('packagePremiereReplay', () => {
  it('encodes a video that is not H.264 once, whole, on the premiere clock', async () => {
    const file = join(dir, 'mpeg4.mp4');
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=25:duration=9'],
      ...['-f', 'lavfi', '-i', 'sine=duration=9'],
      ...['-c:v', 'mpeg4', '-c:a', 'libmp3lame', '-shortest', file],
    ]);
    const outDir = join(dir, 'replay');
    const startsAt = Date.UTC(2026, 4, 1, 19, 0, 0);
    const { seconds } = await packagePremiereReplay({
      ffmpeg: 'ffmpeg',
      file,
      outDir,
      startsAt,
      durationMs: 9000,
      videoCodec: 'mpeg4',
      audioCodec: 'mp3',
    });
    expect(seconds).toBeCloseTo(9, 0);
    const playlist = join(outDir, 'replay.m3u8');
    const entries = parseMediaPlaylist(readFileSync(playlist, 'utf8'));
    expect(entries.length).toBeGreaterThan(1);
    expect(entries[0]?.programDateTime).toBe(startsAt);
    expect(readFileSync(playlist, 'utf8')).toContain('#EXT-X-ENDLIST');
    // Only files a viewer may fetch, no work folder left behind.
    for (const name of readdirSync(outDir)) expect(name).toMatch(PREMIERE_REPLAY_FILE_PATTERN);
    expect(readdirSync(dir).sort()).toEqual(['mpeg4.mp4', 'replay']);
    expect(probe(playlist, '-select_streams v:0 -show_entries stream=codec_name')).toBe('h264');
    expect(probe(playlist, '-select_streams a:0 -show_entries stream=codec_name')).toBe('aac');
    expect(Number(probe(playlist, '-show_entries format=duration'))).toBeCloseTo(9, 0);
  });

  it('fails without leaving a replay when the file is unreadable', async () => {
    const outDir = join(dir, 'broken');
    await expect(
      packagePremiereReplay({
        ffmpeg: 'ffmpeg',
        file: join(dir, 'missing.mp4'),
        outDir,
        startsAt: 0,
        durationMs: 1000,
        videoCodec: 'h264',
        audioCodec: 'aac',
      }),
    ).rejects.toThrow();
    expect(readdirSync(dir).filter((name) => name.startsWith('broken'))).toEqual([]);
  });
});
