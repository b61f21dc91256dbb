import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishTestStream, waitFor } from '../../test-support/live-publisher.ts';
import type { PublishRequest, PublishSession } from './publish-session.ts';
import { encodeAmf0 } from './rtmp/amf0.ts';
import { encodeChunkHeader, encodeMessageChunks, RTMP_MESSAGE } from './rtmp/rtmp-chunk-stream.ts';
import { publishCommands, RawRtmpClient } from './rtmp/rtmp-test-client.ts';
import { type RtmpIngest, startRtmpIngest } from './rtmp-ingest.ts';

/**
 * The RTMP ingest on its own (no app, no database): real encoders publish to it (ffmpeg, and
 * GStreamer's rtmp2sink as a second, independent RTMP client), and raw clients send what no
 * encoder does. What a publish hands over is read by a real ffmpeg (`-f flv -i pipe:0`, as the
 * packager reads it), which lists each frame it demuxed.
 */

interface Publish {
  request: PublishRequest;
  ended: boolean;
  /** ffmpeg's frame list of the FLV it was fed (`-f framecrc`), once it exited. */
  frames: Promise<{ video: number; audio: number; codecs: string[] }>;
}

const logLines: { level: string; message: string; context: unknown }[] = [];
const logAt =
  (level: string) =>
  (context: unknown, message?: string): void => {
    logLines.push({ level, message: typeof context === 'string' ? context : (message ?? ''), context });
  };
const log = {
  debug: logAt('debug'),
  info: logAt('info'),
  warn: logAt('warn'),
  error: logAt('error'),
} as unknown as FastifyBaseLogger;

let ingest: RtmpIngest;
const publishes: Publish[] = [];
const children: ChildProcess[] = [];

/** Reads what a publish feeds ffmpeg, as the packager would, and counts the frames of each kind. */
function readFeed(request: PublishRequest): Publish['frames'] {
  const run = request.input.open();
  const reader = spawn(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', ...run.args, '-map', '0', '-c', 'copy', '-f', 'framecrc', '-'],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  children.push(reader);
  run.stdin?.pipe(reader.stdin!);
  reader.stdin!.on('error', () => {});
  let text = '';
  reader.stdout!.on('data', (bytes: Buffer) => {
    text += bytes.toString();
  });
  return new Promise((resolve) =>
    reader.once('exit', () => {
      const lines = text.split('\n');
      const kinds = new Map<string, string>();
      for (const line of lines) {
        const match = /^#media_type (\d+): (\w+)/.exec(line);
        if (match) kinds.set(match[1]!, match[2]!);
      }
      const count = (kind: string) =>
        lines.filter((line) => !line.startsWith('#') && kinds.get(line.split(',')[0]!.trim()) === kind)
          .length;
      const codecs = lines.filter((line) => line.startsWith('#codec_id')).map((line) => line.split(': ')[1]!);
      resolve({ video: count('video'), audio: count('audio'), codecs });
    }),
  );
}

beforeAll(async () => {
  ingest = await startRtmpIngest({
    port: 0,
    host: '127.0.0.1',
    log,
    checkKey: async (key) =>
      key.startsWith('good') ? { ok: true } : { ok: false, message: 'No show has this key.' },
    beginPublish: async (request) => {
      // Raw clients send made-up frames: only an encoder's feed goes to ffmpeg.
      const frames = request.streamKey.startsWith('good-encoder')
        ? readFeed(request)
        : Promise.resolve({ video: 0, audio: 0, codecs: [] });
      const publish: Publish = { request, ended: false, frames };
      publishes.push(publish);
      const session: PublishSession = {
        eventId: request.streamKey,
        end: () => {
          publish.ended = true;
        },
        fellBehind: () => {},
        onEnded: () => {},
      };
      return { ok: true, session };
    },
  });
});

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await ingest?.close();
});

const publishOf = (streamKey: string) => publishes.find((publish) => publish.request.streamKey === streamKey);

/**
 * A raw client that publishes with `streamKey` as an encoder would: the commands, then a stream
 * header and a keyframe. Answers the status codes it got.
 */
async function rawPublish(streamKey: string): Promise<string[]> {
  const client = new RawRtmpClient(ingest.port);
  try {
    await client.handshake();
    client.send(publishCommands(streamKey));
    await client.until(() => client.output.statusCodes().length > 0, 'a publish status');
    const media = (typeId: 8 | 9, hex: string) =>
      encodeMessageChunks(
        { chunkStreamId: 6, typeId, streamId: 1, timestamp: 0, payload: Buffer.from(hex, 'hex') },
        128,
      );
    client.send(Buffer.concat([media(9, '1700000000'), media(9, '1701000000')]));
    if (client.output.statusCodes()[0] === 'NetStream.Publish.Start') {
      await waitFor('the publish to begin', () => publishOf(streamKey), 20_000);
    }
    return client.output.statusCodes();
  } finally {
    client.destroy();
  }
}

/** Whether `command` runs here (GStreamer and its plugins are optional on a developer's machine). */
function missingGstreamer(): string | null {
  if (spawnSync('gst-launch-1.0', ['--version']).status !== 0) return 'gst-launch-1.0 is not installed';
  for (const element of ['rtmp2sink', 'x264enc', 'flvmux', 'h264parse', 'voaacenc']) {
    if (spawnSync('gst-inspect-1.0', [element]).status !== 0)
      return `GStreamer's ${element} is not installed`;
  }
  return null;
}
const gstreamerMissing = missingGstreamer();

describe('the RTMP ingest', () => {
  it('takes ffmpeg’s publish: every frame reaches the packager’s input as FLV', async () => {
    const publisher = publishTestStream(`rtmp://127.0.0.1:${ingest.port}/live/good-encoder-ffmpeg`, {
      seconds: 3,
    });
    children.push(publisher);
    expect(await publisher.stopped).toBe(0);
    const publish = await waitFor('the publish', () => publishOf('good-encoder-ffmpeg'));
    await waitFor('the publish to end', () => publish.ended);
    expect(publish.request.input.videoCodec).toBe('h264');
    expect(publish.request.input.videoFormat).toEqual({ width: 320, height: 240, framesPerSecond: 25 });
    const frames = await publish.frames;
    expect(frames.codecs.sort()).toEqual(['aac', 'h264']);
    // 3 s at 25 fps, all of them: the feed starts at the first keyframe, the stream's first frame.
    expect(frames.video).toBe(75);
    expect(frames.audio).toBeGreaterThan(100);
  });

  it.skipIf(gstreamerMissing !== null)(
    `takes GStreamer rtmp2sink’s publish, an RTMP client of its own${gstreamerMissing ? ` (skipped: ${gstreamerMissing})` : ''}`,
    async () => {
      const url = `rtmp://127.0.0.1:${ingest.port}/live/good-encoder-gstreamer`;
      const publisher = spawn(
        'gst-launch-1.0',
        [
          '-q',
          ...[
            'videotestsrc',
            'num-buffers=90',
            'is-live=true',
            '!',
            'video/x-raw,width=320,height=240,framerate=30/1',
          ],
          ...['!', 'x264enc', 'tune=zerolatency', 'key-int-max=30', '!', 'h264parse', '!', 'mux.'],
          ...[
            'audiotestsrc',
            'num-buffers=130',
            'is-live=true',
            '!',
            'voaacenc',
            '!',
            'aacparse',
            '!',
            'mux.',
          ],
          ...['flvmux', 'name=mux', 'streamable=true', '!', 'rtmp2sink', `location=${url}`],
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      children.push(publisher);
      let errors = '';
      publisher.stderr!.on('data', (bytes: Buffer) => {
        errors += bytes.toString();
      });
      const code = await new Promise((resolve) => publisher.once('exit', resolve));
      expect(errors).toBe('');
      expect(code).toBe(0);
      const publish = await waitFor('the publish', () => publishOf('good-encoder-gstreamer'));
      await waitFor('the publish to end', () => publish.ended);
      expect(publish.request.input.videoCodec).toBe('h264');
      expect(publish.request.input.videoFormat).toMatchObject({ width: 320, height: 240 });
      const frames = await publish.frames;
      expect(frames.codecs.sort()).toEqual(['aac', 'h264']);
      expect(frames.video).toBe(90);
      expect(frames.audio).toBeGreaterThan(50);
    },
  );

  it('refuses an unknown key with NetStream.Publish.BadName, and logs why', async () => {
    expect(await rawPublish('unknown-key')).toEqual(['NetStream.Publish.BadName']);
    expect(publishOf('unknown-key')).toBeUndefined();
    expect(logLines.some((line) => line.message === 'rtmp publish refused: No show has this key.')).toBe(
      true,
    );
  });

  describe('closes a connection that breaks the protocol, logs it, and serves the next publisher', () => {
    const handshaken = async (client: RawRtmpClient) => {
      await client.handshake();
      return client;
    };
    const setChunkSize = (size: number) => {
      const payload = Buffer.alloc(4);
      payload.writeUInt32BE(size);
      return encodeMessageChunks({ chunkStreamId: 2, typeId: 1, streamId: 0, timestamp: 0, payload }, 128);
    };
    const cases: { name: string; why: RegExp; send: (client: RawRtmpClient) => Promise<void> }[] = [
      {
        name: 'a garbage handshake',
        why: /version is 71/,
        send: async (client) => client.send(Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n')),
      },
      {
        name: 'a handshake of another RTMP version',
        why: /version is 6/,
        send: async (client) => client.send(Buffer.concat([Buffer.of(6), Buffer.alloc(1536)])),
      },
      {
        name: 'a chunk size of 0',
        why: /a chunk size of 0/,
        send: async (client) => (await handshaken(client)).send(setChunkSize(0)),
      },
      {
        name: 'a chunk size over 16 MiB',
        why: /a chunk size of 2147483647/,
        send: async (client) => (await handshaken(client)).send(setChunkSize(0x7fffffff)),
      },
      {
        name: 'a message over the length bound',
        why: /a message of 16777215 bytes/,
        send: async (client) =>
          (await handshaken(client)).send(
            Buffer.concat([
              encodeChunkHeader(0, 6, { length: 0xffffff, typeId: 9, streamId: 1 }),
              Buffer.alloc(128),
            ]),
          ),
      },
      {
        name: 'a format-3 first chunk on an unknown chunk stream',
        why: /chunk stream 7 starts with a format-3 chunk/,
        send: async (client) =>
          (await handshaken(client)).send(Buffer.concat([encodeChunkHeader(3, 7, {}), Buffer.alloc(64)])),
      },
      {
        name: 'an AMF0 value that runs past its message',
        why: /runs past the end of its message/,
        send: async (client) => {
          // `connect`, then an object whose `app` string says 255 bytes and has 2.
          const payload = Buffer.concat([
            encodeAmf0('connect', 1),
            Buffer.from('0300036170700200ff6c69', 'hex'),
          ]);
          (await handshaken(client)).send(
            encodeMessageChunks(
              { chunkStreamId: 3, typeId: RTMP_MESSAGE.amf0Command, streamId: 0, timestamp: 0, payload },
              128,
            ),
          );
        },
      },
    ];
    for (const [index, { name, why, send }] of cases.entries()) {
      it(name, async () => {
        const client = new RawRtmpClient(ingest.port);
        const linesBefore = logLines.length;
        await send(client);
        expect(await client.closedWithin(10_000)).toBe(true);
        const logged = logLines
          .slice(linesBefore)
          .find((line) => line.message === 'rtmp connection closed: not rtmp');
        expect(logged?.level).toBe('warn');
        expect(String((logged?.context as { why?: unknown } | undefined)?.why)).toMatch(why);
        // The server still serves.
        expect(await rawPublish(`good-raw-${index}`)).toEqual(['NetStream.Publish.Start']);
      });
    }

    it('and a real encoder publishes after all of them', async () => {
      const publisher = publishTestStream(`rtmp://127.0.0.1:${ingest.port}/live/good-encoder-after`, {
        seconds: 2,
      });
      children.push(publisher);
      expect(await publisher.stopped).toBe(0);
      const publish = await waitFor('the publish', () => publishOf('good-encoder-after'));
      await waitFor('the publish to end', () => publish.ended);
      expect((await publish.frames).video).toBe(50);
    });
  });
});
