import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultLiveProfile } from '@vitrine/domain';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_H264_ENCODING, waitFor } from '../../test-support/live-publisher.ts';
import { discoverFfmpeg } from './ffmpeg-binary.ts';
import { LiveSession, type LiveSessionEvents } from './live-session.ts';
import { createProcessRegistry } from './packager-processes.ts';
import type { PublishInput } from './publish-session.ts';
import { type SegmentReceiver, startSegmentReceiver } from './segment-receiver.ts';
import { createDiskSegmentStore } from './segment-store.ts';
import { openShowRecording } from './show-recording.ts';

/**
 * One show's session on its own, with a real ffmpeg: the events it tells the service, in the
 * order the service's transitions rely on.
 */
const ffmpeg = discoverFfmpeg(null);
const profile = defaultLiveProfile(2);
let dir: string;
let receiver: SegmentReceiver;
const sources: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vitrine-session-'));
  receiver = await startSegmentReceiver();
});

afterAll(async () => {
  for (const source of sources) source.kill('SIGKILL');
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An encoder's FLV (H.264 with a keyframe a second, AAC) on stdout, as an RTMP ingest hands it on. */
function flvSource(seconds: number | null): ChildProcess {
  const source = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
      ...['-f', 'lavfi', '-i', `testsrc=size=320x240:rate=25${seconds ? `:duration=${seconds}` : ''}`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000', '-shortest'],
      ...TEST_H264_ENCODING,
      ...['-c:a', 'aac'],
      ...['-f', 'flv', 'pipe:1'],
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  sources.push(source);
  return source;
}

async function openSession(name: string) {
  if (!ffmpeg.available) throw new Error(ffmpeg.missing);
  const recording = await openShowRecording(join(dir, name), {
    store: createDiskSegmentStore(join(dir, 'store')),
    prefix: `${name}/`,
    profile,
  });
  const session = new LiveSession({
    eventId: name,
    recordings: [recording],
    profile,
    log: pino({ level: 'silent' }) as FastifyBaseLogger,
    now: Date.now,
    config: { dir, transcodeBudget: 'none' },
    ffmpeg,
    store: createDiskSegmentStore(join(dir, 'store')),
    processes: createProcessRegistry({ dir: join(dir, '.packagers', name) }),
    receiver: () => receiver,
    closed: () => false,
  });
  /** Every event the session told, in order (consecutive segments as one). */
  const told: (keyof LiveSessionEvents)[] = [];
  const names: (keyof LiveSessionEvents)[] = [
    'ready',
    'segment',
    'publisher-gone',
    'played-out',
    'packager-failed',
    'disk-full',
    'ended',
  ];
  for (const event of names) {
    session.on(event, () => {
      if (!(event === 'segment' && told.at(-1) === 'segment')) told.push(event);
    });
  }
  // As the live service does: a publisher that is gone is let go of (its packaging stops).
  session.on('publisher-gone', ({ publisher }) => void session.serialized(() => session.release(publisher)));
  return { session, told };
}

const request = (input: PublishInput) => ({ streamKey: 'key', protocol: 'rtmp' as const, input });

describe('a live session', () => {
  it('is ready, records segments, tells when its publisher went, and ends into the replay', async () => {
    const { session, told } = await openSession('gone');
    const source = flvSource(null);
    const publish = await session.attach(
      request({
        videoCodec: 'h264',
        open: () => ({ args: ['-f', 'flv', '-i', 'pipe:0'], stdin: source.stdout ?? undefined }),
      }),
    );
    const endedWith: string[] = [];
    publish.onEnded((reason) => endedWith.push(reason));
    await waitFor('two recorded segments', () => session.recording.segments().length >= 2);
    expect(session.health()?.bitrateKbps).toBeGreaterThan(0);

    publish.end();
    await waitFor('the publisher let go of', () => session.publisher === null);
    expect(endedWith).toEqual(['publisher-gone']);
    const { firstFrame } = await session.end(null);

    expect(told).toEqual([
      'ready',
      'segment',
      'publisher-gone',
      ...(told.length === 5 ? ['segment'] : []),
      'ended',
    ]);
    expect(firstFrame).toBe(session.recording.segments()[0]?.programDateTime);
    expect(session.holdsRecording()).toBe(true);
  });

  it('restarts a failing packager, then tells it failed and ends the publish with that reason', async () => {
    const { session, told } = await openSession('failing');
    const publish = await session.attach(
      // An input ffmpeg cannot open: every run exits at once.
      request({ videoCodec: 'h264', open: () => ({ args: ['-f', 'lavfi', '-i', 'no_such_source'] }) }),
    );
    const endedWith: string[] = [];
    publish.onEnded((reason) => endedWith.push(reason));
    await waitFor('the publish ended', () => endedWith.length > 0);
    // The first run and three restarts in the minute, then no more.
    expect(told).toEqual(['ready', 'ready', 'ready', 'ready', 'packager-failed', 'publisher-gone']);
    expect(endedWith).toEqual(['packager-failed']);
    await waitFor('the publisher let go of', () => session.publisher === null);
    expect(session.recording.segments()).toHaveLength(0);
  });

  it('tells when a finite input played out, instead of restarting its packager', async () => {
    const { session, told } = await openSession('finite');
    const source = flvSource(2);
    let exited = false;
    source.once('exit', () => {
      exited = true;
    });
    await session.attach(
      request({
        videoCodec: 'h264',
        open: () => ({ args: ['-f', 'flv', '-i', 'pipe:0'], stdin: source.stdout ?? undefined }),
        playedOut: () => exited,
      }),
    );
    await waitFor('played out', () => told.includes('played-out'));
    expect(told).toEqual(['ready', 'segment', 'played-out']);
    await session.end(null);
    expect(told.at(-1)).toBe('ended');
  });
});
