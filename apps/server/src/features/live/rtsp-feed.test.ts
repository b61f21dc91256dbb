import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../test-support/live-publisher.ts';
import { openRtspFeed, type RtspFeed } from './rtsp-feed.ts';

// The loopback RTSP server a WHIP publish's ffmpeg reads its RTP from, spoken to as ffmpeg does
// (OPTIONS, DESCRIBE, SETUP per stream with TCP interleaving, PLAY), and as anyone else would.

const feeds: RtspFeed[] = [];
const clients: Socket[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  for (const feed of feeds.splice(0)) await feed.close();
});

async function open(idleMs = 60_000) {
  const feed = await openRtspFeed({
    describe: (controls) => `v=0\r\nm=video 0 RTP/AVP 96\r\na=control:${controls[0]}\r\n`,
    streams: 1,
    idleMs,
  });
  feeds.push(feed);
  return feed;
}

/** An RTSP client on one connection: its requests, and what it received. */
async function client(url: string) {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  clients.push(socket);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  let received = Buffer.alloc(0);
  let closed = false;
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
  });
  socket.on('close', () => {
    closed = true;
  });
  let cseq = 0;
  const request = async (method: string, target: string, headers: string[] = []) => {
    cseq += 1;
    const before = received.length;
    socket.write(
      `${method} ${target} RTSP/1.0\r\nCSeq: ${cseq}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`,
    );
    return waitFor(`the answer to ${method}`, () => {
      const text = received.subarray(before).toString('latin1');
      return text.includes('\r\n\r\n') ? text : null;
    });
  };
  return { request, received: () => received, closed: () => closed };
}

describe('the RTSP feed of a WHIP publish', () => {
  it('sends RTP, interleaved, only once the run asked to PLAY', async () => {
    const feed = await open();
    let played = 0;
    feed.feed('run1', () => {
      played += 1;
    });
    const url = feed.runUrl('run1');
    const ffmpeg = await client(url);
    expect(await ffmpeg.request('OPTIONS', url)).toMatch(/^RTSP\/1\.0 200 OK/);
    const described = await ffmpeg.request('DESCRIBE', url, ['Accept: application/sdp']);
    expect(described).toContain('a=control:stream=0');
    expect(feed.send(0, Buffer.from('before setup'))).toBe(false);
    const setup = await ffmpeg.request('SETUP', `${url}/stream=0`, [
      'Transport: RTP/AVP/TCP;unicast;interleaved=0-1',
    ]);
    expect(setup).toContain('interleaved=0-1');
    expect(feed.send(0, Buffer.from('before play'))).toBe(false);
    expect(played).toBe(0);
    expect(await ffmpeg.request('PLAY', url, ['Range: npt=0.000-'])).toMatch(/^RTSP\/1\.0 200 OK/);
    expect(played).toBe(1);
    const before = ffmpeg.received().length;
    expect(feed.send(0, Buffer.from('rtp!'))).toBe(true);
    const frame = await waitFor('the interleaved frame', () => {
      const bytes = ffmpeg.received().subarray(before);
      return bytes.length >= 8 ? bytes : null;
    });
    expect([...frame.subarray(0, 4)]).toEqual([0x24, 0, 0, 4]);
    expect(frame.subarray(4).toString()).toBe('rtp!');
    // The publish ends: the connection does (ffmpeg reads EOF).
    feed.end();
    await waitFor('the end of the connection', () => ffmpeg.closed());
  });

  it('serves nobody without the secret, and no run but the latest', async () => {
    const feed = await open();
    feed.feed('run1', () => {});
    const url = feed.runUrl('run1');
    const { port } = new URL(url);
    const stranger = await client(url);
    expect(await stranger.request('DESCRIBE', `rtsp://127.0.0.1:${port}/guess/run1`)).toMatch(
      /^RTSP\/1\.0 404/,
    );
    await waitFor('the stranger hung up on', () => stranger.closed());
    feed.feed('run2', () => {});
    const late = await client(url);
    expect(await late.request('DESCRIBE', url)).toMatch(/^RTSP\/1\.0 404/);
    const prefix = await client(`${feed.runUrl('run2')}0`);
    expect(await prefix.request('DESCRIBE', `${feed.runUrl('run2')}0`)).toMatch(/^RTSP\/1\.0 404/);
  });

  it('ends a playing run that was sent nothing for its bound', async () => {
    const feed = await open(500);
    feed.feed('run1', () => {});
    const url = feed.runUrl('run1');
    const ffmpeg = await client(url);
    await ffmpeg.request('SETUP', `${url}/stream=0`, ['Transport: RTP/AVP/TCP;unicast;interleaved=0-1']);
    await ffmpeg.request('PLAY', url);
    let lastSent = 0;
    for (let i = 0; i < 5; i += 1) {
      expect(feed.send(0, Buffer.from('rtp'))).toBe(true);
      lastSent = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Fed every 200 ms: still open after twice its bound.
    expect(ffmpeg.closed()).toBe(false);
    await waitFor('the idle run ended', () => ffmpeg.closed(), 5000);
    expect(Date.now() - lastSent).toBeGreaterThanOrEqual(490);
  });
});
