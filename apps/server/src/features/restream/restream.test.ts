import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LiveStreamView, RestreamDestination, RestreamList, Show } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test-support/free-port.ts';
import { publishTestStream, waitFor } from '../../test-support/live-publisher.ts';
import { startTestServer, type TestServer } from '../../test-support/realtime-test-client.ts';
import {
  createTestStore,
  signInStaff,
  signInStoreStaff,
  type TestStaffMember,
} from '../../test-support/studio-staff.ts';

/**
 * Issue 29 item 8: a live show sent on to an RTMP destination. The destination is a real RTMP
 * receiver the test starts (ffmpeg listening, writing what it receives to a file, which ffprobe
 * then reads); the show is published to Vitrine over RTMP by ffmpeg, as OBS would.
 */
const STREAM_KEY = 'receiver-key-0123456789abcdef';

let node: TestServer;
let pageUid: string;
let host: TestStaffMember;
let owner: TestStaffMember;
let moderator: TestStaffMember;
let dir: string;
const children: ChildProcess[] = [];
/** Every answer body of a restream call, searched for the key at the end. */
const answers: string[] = [];

async function call(
  member: TestStaffMember | null,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: Record<string, unknown>,
) {
  const response = await node.server.inject({
    method,
    url: `/staff/stores/${pageUid}${url}`,
    headers: member?.headers ?? {},
    ...(payload ? { payload } : {}),
  });
  answers.push(response.body);
  return response;
}

async function newShow(name: string): Promise<string> {
  const created = await call(host, 'POST', '/shows', {
    name,
    startsAt: '2026-10-01T19:00',
    timeZone: 'Europe/Copenhagen',
    visibility: 'public',
  });
  return (created.json() as Show).uid;
}

const destinations = async (showUid: string) =>
  ((await call(host, 'GET', `/shows/${showUid}/restreams`)).json() as RestreamList).destinations;

/** An RTMP server standing for YouTube & co.: ffmpeg in listen mode writing what it gets to `file`. */
function startReceiver(port: number, file: string) {
  const receiver = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
      ...['-listen', '1', '-i', `rtmp://127.0.0.1:${port}/app/${STREAM_KEY}`],
      ...['-c', 'copy', '-f', 'flv', file],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(receiver);
  const exited = new Promise<number | null>((resolve) => receiver.once('exit', (code) => resolve(code)));
  return Object.assign(receiver, { exited });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vitrine-restream-'));
  node = await startTestServer({ env: { RTMP_PORT: '0', VITRINE_LIVE_DIR: join(dir, 'live') } });
  pageUid = await createTestStore(node);
  ({ owner, host, moderator } = await signInStoreStaff(node, pageUid));
  // On two busy cores, starting the servers may take well over the default minute.
}, 180_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await node?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('restreaming a live show', () => {
  it('sends the show to an RTMP receiver, which gets playable video, and stops it', async () => {
    const showUid = await newShow('Restreamed show');
    const stream = (await call(host, 'GET', `/shows/${showUid}/stream`)).json() as LiveStreamView;
    const rtmpPort = node.services.live.ingestPorts().rtmpPort;
    const publisher = publishTestStream(`rtmp://127.0.0.1:${rtmpPort}/live/${stream.streamKey}`);
    children.push(publisher);
    await waitFor('the stream to arrive', async () => {
      const view = (await call(host, 'GET', `/shows/${showUid}/stream`)).json() as LiveStreamView;
      return view.state === 'receiving';
    });
    expect((await call(host, 'POST', `/shows/${showUid}/stream/go-live`)).statusCode).toBe(200);

    const receiverPort = await freePort();
    const received = join(dir, 'received.flv');
    const receiver = startReceiver(receiverPort, received);
    const added = await call(owner, 'POST', `/shows/${showUid}/restreams`, {
      label: 'Test platform',
      serverUrl: `rtmp://127.0.0.1:${receiverPort}/app`,
      streamKey: STREAM_KEY,
    });
    expect(added.statusCode, added.body).toBe(201);
    const destination = added.json() as RestreamDestination;
    expect(destination).toMatchObject({
      label: 'Test platform',
      streamKeyMasked: '••••cdef',
      started: false,
      state: 'stopped',
    });

    const started = await call(host, 'POST', `/shows/${showUid}/restreams/${destination.id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    // The receiver may take a moment to listen: a refused connection is retried after a back-off.
    const sending = await waitFor('the destination to be live', async () => {
      const [current] = await destinations(showUid);
      return current?.state === 'live' && current.bytesSent > 50_000 ? current : null;
    });
    expect(sending.started).toBe(true);
    expect(sending.since).toBeGreaterThan(0);
    expect(sending.bitrateKbps).toBeGreaterThan(0);
    expect(node.services.restream.localRuns()).toEqual([destination.id]);

    const stopped = await call(host, 'POST', `/shows/${showUid}/restreams/${destination.id}/stop`);
    expect(stopped.json()).toMatchObject({ started: false, state: 'stopped' });
    // The sender closed: the receiver finishes its file and exits.
    expect(await receiver.exited).toBe(0);
    const probe = JSON.parse(
      execFileSync(
        'ffprobe',
        [
          '-v',
          'error',
          '-show_entries',
          'stream=codec_type,codec_name:format=duration',
          '-of',
          'json',
          received,
        ],
        { encoding: 'utf8' },
      ),
    ) as { streams: { codec_type: string; codec_name: string }[]; format: { duration: string } };
    expect(probe.streams).toContainEqual({ codec_type: 'video', codec_name: 'h264' });
    expect(probe.streams).toContainEqual({ codec_type: 'audio', codec_name: 'aac' });
    expect(Number(probe.format.duration)).toBeGreaterThan(0.5);
    expect(node.services.restream.localRuns()).toEqual([]);

    // Started again, then the show ends: the destination stops with it.
    await call(host, 'POST', `/shows/${showUid}/restreams/${destination.id}/start`);
    await call(host, 'POST', `/shows/${showUid}/stream/end`);
    const ended = await waitFor('the destination to stop with the show', async () => {
      const [current] = await destinations(showUid);
      return current?.started === false ? current : null;
    });
    expect(ended).toMatchObject({ state: 'stopped', reason: 'The show ended.' });
    expect(node.services.restream.localRuns()).toEqual([]);
    publisher.kill('SIGKILL');

    // The key is nowhere but sealed: not in any answer, the table or the audit log.
    for (const body of answers) expect(body).not.toContain(STREAM_KEY);
    const rows = await node.db.query<Record<string, unknown>>('SELECT * FROM restream_destinations');
    expect(JSON.stringify(rows)).not.toContain(STREAM_KEY);
    const audit = await node.db.query<{ action: string; details: unknown }>(
      "SELECT action, details FROM staff_audit_log WHERE action = 'addRestream'",
    );
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(STREAM_KEY);
  });

  it('is only for hosts and owners: a moderator or a stranger can neither list, add nor start', async () => {
    const showUid = await newShow('Guarded show');
    const added = (
      await call(host, 'POST', `/shows/${showUid}/restreams`, {
        label: 'YouTube',
        serverUrl: 'rtmp://a.rtmp.youtube.com/live2',
        streamKey: 'abcd-efgh-ijkl-mnop',
      })
    ).json() as RestreamDestination;
    const path = `/shows/${showUid}/restreams`;
    for (const [member, status] of [
      [moderator, 403],
      [null, 401],
    ] as const) {
      expect((await call(member, 'GET', path)).statusCode).toBe(status);
      expect((await call(member, 'POST', `${path}/${added.id}/start`)).statusCode).toBe(status);
      expect(
        (await call(member, 'POST', path, { label: 'x', serverUrl: 'rtmp://h/app', streamKey: 'k' }))
          .statusCode,
      ).toBe(status);
      expect((await call(member, 'DELETE', `${path}/${added.id}`)).statusCode).toBe(status);
    }
    const [unchanged] = await destinations(showUid);
    expect(unchanged).toMatchObject({ id: added.id, started: false, state: 'stopped' });
    // Another store's host does not reach it either.
    const otherStore = await createTestStore(node);
    const stranger = await signInStaff(node, otherStore, 'host');
    const response = await node.server.inject({
      method: 'POST',
      url: `/staff/stores/${otherStore}/shows/${showUid}/restreams/${added.id}/start`,
      headers: stranger.headers,
    });
    expect(response.statusCode).toBe(404);
  });

  it('refuses destinations ffmpeg would open as something else than RTMP, and more than five', async () => {
    const showUid = await newShow('Validated show');
    const path = `/shows/${showUid}/restreams`;
    for (const serverUrl of ['file:///tmp/out.flv', 'http://example.com/live', 'rtmp://example.com/app|x']) {
      const response = await call(host, 'POST', path, { label: 'Bad', serverUrl, streamKey: 'key-1234' });
      expect(response.statusCode, serverUrl).toBe(400);
      expect(response.json()).toMatchObject({ message: expect.stringContaining('serverUrl') });
    }
    const badKey = await call(host, 'POST', path, {
      label: 'Bad key',
      serverUrl: 'rtmp://example.com/app',
      streamKey: 'two words',
    });
    expect(badKey.statusCode).toBe(400);
    for (let index = 0; index < 5; index += 1) {
      const response = await call(host, 'POST', path, {
        label: `Platform ${index}`,
        serverUrl: 'rtmp://example.com/app',
        streamKey: `key-${index}-0123456789`,
      });
      expect(response.statusCode).toBe(201);
    }
    const sixth = await call(host, 'POST', path, {
      label: 'One too many',
      serverUrl: 'rtmp://example.com/app',
      streamKey: 'key-6-0123456789',
    });
    expect(sixth.statusCode).toBe(409);
    const [first] = await destinations(showUid);
    expect((await call(host, 'DELETE', `${path}/${first?.id}`)).statusCode).toBe(204);
    expect(await destinations(showUid)).toHaveLength(4);
  });
});
