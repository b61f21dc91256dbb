import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveStreamView } from '@vitrine/protocol';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RtpPacket } from 'werift';
import { waitFor } from '../../test-support/live-publisher.ts';
import { createTestShow, createTestStore, signInStaff } from '../../test-support/studio-staff.ts';
import { openTestApp } from '../../test-support/test-app.ts';
import { publishOverWhip, type WhipTestPublisher } from '../../test-support/whip-test-publisher.ts';
import { prepareRtpInput, type RtpInput } from './whip-session.ts';

// How a WHIP packager run's ffmpeg gets the publisher's RTP: it connects to the publish's own
// loopback RTSP server and asks to PLAY when it is ready (no port of its watched, no fixed wait),
// and an ffmpeg whose input brings nothing gives up instead of hanging. Here the RTP is an
// H.264 encoder's (as from Chrome or OBS, which the packager passes through), taken as the WHIP
// session takes werift's: onto the ingest clock (admit), then forwarded.

const dir = mkdtempSync(join(tmpdir(), 'vitrine-whip-readiness-'));
const children: ChildProcess[] = [];
const sockets: Socket[] = [];
const inputs: RtpInput[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const socket of sockets.splice(0)) socket.close();
  for (const input of inputs.splice(0)) input.dispose();
});
const apps: { close(): Promise<void> }[] = [];
const publishers: WhipTestPublisher[] = [];
afterAll(async () => {
  for (const publisher of publishers) publisher.stop();
  for (const app of apps) await app.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An ffmpeg that takes `seconds` to start (a loaded machine, a cold disk). */
function slowFfmpeg(seconds: number): string {
  const path = join(dir, `ffmpeg-after-${seconds}s`);
  writeFileSync(path, `#!/bin/sh\nsleep ${seconds}\nexec ffmpeg "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}

function run(command: string, args: string[]) {
  const child = spawn(command, ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const exited = new Promise<{ code: number | null; at: number; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, at: Date.now(), stderr })),
  );
  return { child, exited };
}

/**
 * A publisher's H.264 (a keyframe a second, 30 fps) as RTP, forwarded into `input` the way the
 * WHIP session forwards werift's packets.
 */
async function publishRtp(input: RtpInput) {
  const socket = createSocket('udp4');
  sockets.push(socket);
  let received = 0;
  let forwarded = 0;
  socket.on('message', (message) => {
    received += 1;
    const rtp = RtpPacket.deSerialize(message);
    if (!input.admit('video', rtp, Date.now())) return;
    forwarded += 1;
    input.forward('video', rtp.serialize());
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  const encoder = run('ffmpeg', [
    ...['-re', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=30'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30', '-pix_fmt', 'yuv420p'],
    ...['-f', 'rtp', '-payload_type', '96', `rtp://127.0.0.1:${socket.address().port}`],
  ]);
  return { encoder, received: () => received, forwarded: () => forwarded };
}

/** The first packets ffmpeg wrote: their flags (K: a keyframe) and presentation times. */
function firstPackets(path: string, count: number) {
  const csv = execFileSync('ffprobe', [
    ...['-v', 'error', '-select_streams', 'v:0', '-read_intervals', `%+#${count}`],
    ...['-show_entries', 'packet=flags,pts_time', '-of', 'csv=p=0', path],
  ]).toString();
  return csv
    .trim()
    .split('\n')
    .map((line) => {
      const [pts, flags] = line.split(',');
      return { pts: Number(pts), keyframe: flags?.startsWith('K') ?? false };
    });
}

describe('a WHIP packager run', () => {
  it('gets its first RTP when its ffmpeg is ready, even 2 s late: from a keyframe, with none lost', async () => {
    const input = await prepareRtpInput('H264', false);
    inputs.push(input);
    const asked: number[] = [];
    input.requestKeyframe = () => asked.push(Date.now());
    const publisher = await publishRtp(input);
    // The publisher sends before the run starts: its keyframes while ffmpeg sleeps go nowhere.
    await waitFor('the publisher sending', () => publisher.received() > 60, 15_000);
    expect(publisher.forwarded()).toBe(0);

    const output = join(dir, 'slow.mp4');
    const started = Date.now();
    // -copyinkf: what ffmpeg received is written as it came, frames before a keyframe too.
    const packager = run(slowFfmpeg(2), [
      ...input.openRun().args,
      ...['-c', 'copy', '-copyinkf', '-f', 'mp4', '-movflags', '+frag_keyframe+empty_moov'],
      ...['-frag_duration', '200000', '-flush_packets', '1', output],
    ]);
    await waitFor(
      'the first fragment',
      () => {
        try {
          return readFileSync(output).includes('moof');
        } catch {
          return false;
        }
      },
      15_000,
    );
    const firstFragmentAfter = Date.now() - started;
    console.info(
      `whip readiness: first fragment ${firstFragmentAfter} ms after a 2 s late ffmpeg was started`,
    );
    // Nothing was sent while ffmpeg slept: the keyframe request came once it asked to PLAY.
    expect(asked.length).toBeGreaterThan(0);
    expect((asked[0] ?? 0) - started).toBeGreaterThanOrEqual(2000);
    // Its sleep, a keyframe interval (1 s) and its start, with room for a loaded machine.
    expect(firstFragmentAfter).toBeLessThan(10_000);

    // A few seconds of stream, then the publish ends: ffmpeg reads the end of its input and exits.
    // Counted in packets forwarded, not seconds: a loaded machine starts ffmpeg late (52 frames in
    // 5 s of wall time at load 9), and the check below needs 60 frames.
    await waitFor('a few seconds forwarded', () => publisher.forwarded() > 150);
    input.end();
    const exited = await packager.exited;
    expect(exited.code, exited.stderr).toBe(0);
    const packets = firstPackets(output, 60);
    expect(packets.length).toBeGreaterThanOrEqual(60);
    // The very first packet ffmpeg got is a keyframe, at the start of its timeline (-copyts).
    expect(packets[0]).toEqual({ pts: 0, keyframe: true });
    // And the frames after it follow without a gap (30 fps): nothing was lost on the way.
    for (const [index, packet] of packets.entries()) expect(packet.pts).toBeCloseTo(index / 30, 2);
  });

  it('whose ffmpeg gets no RTP at all ends on its own, leaving no process', async () => {
    const input = await prepareRtpInput('H264', true, { inputTimeoutMs: 2000 });
    inputs.push(input);
    const started = Date.now();
    const packager = run('ffmpeg', [...input.openRun().args, '-f', 'null', '-']);
    const exited = await packager.exited;
    const after = exited.at - started;
    console.info(`whip readiness: an ffmpeg without input ended after ${after} ms`);
    expect(after).toBeGreaterThanOrEqual(2000);
    expect(after).toBeLessThan(10_000);
    expect(() => process.kill(packager.child.pid ?? 0, 0)).toThrow();
  });

  it('whose input stops without an end (the feed stalls) ends on its own too', async () => {
    const input = await prepareRtpInput('H264', false, { inputTimeoutMs: 2000 });
    inputs.push(input);
    const publisher = await publishRtp(input);
    const packager = run('ffmpeg', [...input.openRun().args, '-f', 'null', '-']);
    await waitFor('media forwarded', () => publisher.forwarded() > 30, 15_000);
    publisher.encoder.child.kill('SIGKILL');
    const silent = Date.now();
    const exited = await packager.exited;
    console.info(`whip readiness: a stalled ffmpeg ended ${exited.at - silent} ms after its media stopped`);
    expect(exited.at - silent).toBeLessThan(8000);
    expect(() => process.kill(packager.child.pid ?? 0, 0)).toThrow();
  });
});

describe('a WHIP publish on a node whose ffmpeg starts 2 s late', () => {
  it('is previewed all the same: the measure and the packager each get the stream once ready', async () => {
    const liveDir = mkdtempSync(join(dir, 'live-'));
    const app = await openTestApp({
      env: { RTMP_PORT: 'off', VITRINE_LIVE_DIR: liveDir, FFMPEG_PATH: slowFfmpeg(2) },
    });
    apps.push(app);
    const pageUid = await createTestStore(app);
    const host = await signInStaff(app, pageUid, 'host');
    const origin = await app.server.listen({ host: '127.0.0.1', port: 0 });
    const showUid = await createTestShow(app, pageUid, host, 'Slow ffmpeg');
    const streamPath = `/staff/stores/${pageUid}/shows/${showUid}/stream`;
    const view = (
      await app.server.inject({ method: 'GET', url: streamPath, headers: host.headers })
    ).json<LiveStreamView>();

    const publisher = await publishOverWhip({ url: `${origin}/whip`, key: view.streamKey });
    publishers.push(publisher);
    expect(publisher.status, publisher.body).toBe(201);
    await publisher.connected();
    const connected = Date.now();
    // libwebrtc sends VP8: its size is measured by an ffmpeg run first, then the packager runs;
    // each starts 2 s late, and each gets the stream from a keyframe once it asked to PLAY.
    const playlist = await waitFor(
      'the first segment',
      async () => {
        const answer = await app.server.inject({ method: 'GET', url: view.previewUrl });
        return answer.statusCode === 200 && answer.body.includes('.m4s') ? answer.body : null;
      },
      30_000,
    );
    const elapsed = Date.now() - connected;
    console.info(
      `whip readiness: first segment listed ${elapsed} ms after the peer connected (ffmpeg 2 s late)`,
    );
    expect(playlist).toContain('#EXT-X-PROGRAM-DATE-TIME:');
    // Two late starts (4 s) on top of the 5 s goal of a prompt ffmpeg, with room for a loaded machine.
    expect(elapsed).toBeLessThan(15_000);
  });
});
