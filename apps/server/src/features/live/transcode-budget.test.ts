import { execFileSync, spawn } from 'node:child_process';
import { Socket as UdpSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveStreamView, Show } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { waitFor } from '../../test-support/live-publisher.ts';
import { createTestStore, signInStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';
import { openTestApp } from '../../test-support/test-app.ts';
import { publishOverWhip, type WhipTestPublisher } from '../../test-support/whip-test-publisher.ts';

/**
 * Issue 29 item 9: the transcode budget is checked against the video as decoded, not against
 * what the publisher declares. Real ffmpeg publishers send FLV1 (which the node would transcode)
 * over RTMP WITHOUT onMetaData (`-flvflags no_metadata`); a real libwebrtc publisher sends VP8
 * over WHIP. And a WHIP offer with a wrong key sets up nothing (no socket).
 */
type TestApp = Awaited<ReturnType<typeof openTestApp>>;

interface Node {
  app: TestApp;
  host: TestStaffMember;
  pageUid: string;
}

let defaultBudget: Node;
/** A node whose budget is 240×180 at 15 fps: small test streams are beyond it. */
let smallBudget: Node;
let smallOrigin: string;
const dirs: string[] = [];
const children: ReturnType<typeof spawn>[] = [];
const whipPublishers: WhipTestPublisher[] = [];

async function openNode(env: Record<string, string>): Promise<Node> {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-budget-'));
  dirs.push(dir);
  const app = await openTestApp({ env: { RTMP_PORT: '0', VITRINE_LIVE_DIR: dir, ...env } });
  const pageUid = await createTestStore(app);
  return { app, pageUid, host: await signInStaff(app, pageUid, 'host') };
}

async function newShow(
  node: Node,
  name: string,
): Promise<{ showUid: string; view: () => Promise<LiveStreamView> }> {
  const created = await node.app.server.inject({
    method: 'POST',
    url: `/staff/stores/${node.pageUid}/shows`,
    headers: node.host.headers,
    payload: { name, startsAt: '2026-10-01T19:00', timeZone: 'Europe/Copenhagen', visibility: 'public' },
  });
  const showUid = (created.json() as Show).uid;
  const view = async () =>
    (
      await node.app.server.inject({
        method: 'GET',
        url: `/staff/stores/${node.pageUid}/shows/${showUid}/stream`,
        headers: node.host.headers,
      })
    ).json() as LiveStreamView;
  return { showUid, view };
}

/** ffmpeg publishing `input` as FLV over RTMP, never with onMetaData; resolves its exit code. */
function publishWithoutMetadata(node: Node, key: string, input: string[]) {
  const port = node.app.services.live.ingestPorts().rtmpPort;
  const child = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
      ...input,
      ...['-f', 'flv', '-flvflags', 'no_metadata', `rtmp://127.0.0.1:${port}/live/${key}`],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
  return new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
}

/** The refusal the studio shows once the publish was refused, with the stream idle again. */
async function refusedView(view: () => Promise<LiveStreamView>) {
  return waitFor(
    'the refusal in the studio',
    async () => {
      const current = await view();
      return current.refusal && current.state === 'idle' ? current : null;
    },
    30_000,
  );
}

beforeAll(async () => {
  defaultBudget = await openNode({ WHIP: 'off' });
  smallBudget = await openNode({ LIVE_TRANSCODE_MAX: '240x180@15' });
  smallOrigin = await smallBudget.app.server.listen({ host: '127.0.0.1', port: 0 });
  // On two busy cores, starting the servers may take well over the default minute.
}, 180_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const publisher of whipPublishers) publisher.stop();
  await defaultBudget?.app.close();
  await smallBudget?.app.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('RTMP video that would be transcoded, sent without onMetaData', () => {
  it('is refused at 4K 60 fps like one that declares it, by its decoded size and rate', async () => {
    const file = join(dirs[0] as string, 'uhd-no-metadata.flv');
    // ffmpeg's synthetic 3840×2160 at 60 fps in FLV1, one second, without onMetaData.
    execFileSync('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=3840x2160:rate=60:duration=1'],
      ...['-c:v', 'flv1', '-g', '60', '-b:v', '2M', '-f', 'flv', '-flvflags', 'no_metadata', file],
    ]);
    expect(execFileSync('ffprobe', ['-v', 'error', '-show_format', file], { encoding: 'utf8' })).not.toMatch(
      /TAG:width|TAG:framerate/,
    );
    const { showUid, view } = await newShow(defaultBudget, '4K60 without metadata');
    const warn = vi.spyOn(defaultBudget.app.server.log, 'warn');
    try {
      const exited = publishWithoutMetadata(defaultBudget, (await view()).streamKey, [
        ...['-stream_loop', '-1', '-i', file, '-c', 'copy'],
      ]);
      // It publishes a loop: it stops only because the node disconnected it.
      await exited;
      const refused = await refusedView(view);
      expect(refused.refusal?.message).toBe(
        'This 3840×2160 at 60 fps stream is not H.264, so this node would have to transcode it, and it transcodes at most 1920×1080 at 30 fps. Send H.264 (passed through at any size), or lower the resolution or frame rate.',
      );
      expect(refused.health).toBeNull();
      expect(warn).toHaveBeenCalledWith(
        expect.objectContaining({ eventId: showUid, reason: 'beyond-transcode-budget' }),
        expect.stringMatching(/^live publish refused: This 3840×2160 at 60 fps stream/),
      );
    } finally {
      warn.mockRestore();
    }
  });

  it('is refused by its frame rate alone when its frames fit the budget', async () => {
    const { view } = await newShow(smallBudget, '30 fps on a 15 fps budget');
    await publishWithoutMetadata(smallBudget, (await view()).streamKey, [
      ...['-f', 'lavfi', '-i', 'testsrc=size=240x180:rate=30', '-c:v', 'flv1', '-g', '30'],
    ]);
    const refused = await refusedView(view);
    expect(refused.refusal?.message).toMatch(/^This 240×180 at 30 fps stream is not H\.264/);
  });

  it('within the budget is measured, then transcoded as before', async () => {
    const { view } = await newShow(defaultBudget, 'Small FLV1 without metadata');
    const key = (await view()).streamKey;
    void publishWithoutMetadata(defaultBudget, key, [
      ...['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25', '-c:v', 'flv1', '-g', '25'],
    ]);
    const health = await waitFor('the transcoded stream', async () => (await view()).health, 30_000);
    expect(health.videoPassthrough).toBe(false);
    await waitFor(
      'its preview',
      async () => {
        const current = await view();
        const playlist = await defaultBudget.app.server.inject({ method: 'GET', url: current.previewUrl });
        return playlist.statusCode === 200 && playlist.body.includes('.m4s');
      },
      30_000,
    );
    expect((await view()).refusal).toBeNull();
  });
});

describe('WHIP', () => {
  it('VP8 beyond the budget is refused by its decoded size', async () => {
    const { view } = await newShow(smallBudget, 'VP8 over WHIP');
    // libwebrtc (as in @roamhq/wrtc) offers VP8, which the node transcodes: 320×240 > 240×180.
    const publisher = await publishOverWhip({ url: `${smallOrigin}/whip`, key: (await view()).streamKey });
    whipPublishers.push(publisher);
    expect(publisher.status, publisher.body).toBe(201);
    const refused = await refusedView(view);
    expect(refused.refusal?.message).toMatch(/^This 320×240 at \d+ fps stream is not H\.264/);
  });

  it('checks the stream key before it sets up any socket', async () => {
    // The app runs in this process: a listening socket (the RTSP server ffmpeg reads the RTP
    // from) or a UDP port (werift's ICE) is opened through one of these two.
    const listen = vi.spyOn(Server.prototype, 'listen');
    const bind = vi.spyOn(UdpSocket.prototype, 'bind');
    try {
      const wrong = await publishOverWhip({ url: `${smallOrigin}/whip`, key: 'live_not-a-key' });
      whipPublishers.push(wrong);
      expect(wrong.status).toBe(401);
      expect(JSON.parse(wrong.body)).toMatchObject({ error: 'unknown_key' });
      expect(listen).not.toHaveBeenCalled();
      expect(bind).not.toHaveBeenCalled();
      // The same offer with a show's key does set up its input and ICE: the spies see them.
      const { view } = await newShow(smallBudget, 'WHIP key check');
      const right = await publishOverWhip({ url: `${smallOrigin}/whip`, key: (await view()).streamKey });
      whipPublishers.push(right);
      expect(right.status, right.body).toBe(201);
      expect(listen).toHaveBeenCalled();
      expect(bind).toHaveBeenCalled();
    } finally {
      listen.mockRestore();
      bind.mockRestore();
    }
  });
});
