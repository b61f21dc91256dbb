import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { type Amf0Value, decodeAmf0, encodeAmf0 } from './amf0.ts';
import {
  encodeMessageChunks,
  RTMP_DEFAULT_CHUNK_SIZE,
  RTMP_MESSAGE,
  RtmpChunkReader,
  type RtmpMessage,
} from './rtmp-chunk-stream.ts';
import { RTMP_HANDSHAKE_SIZE, RTMP_VERSION } from './rtmp-connection.ts';

/**
 * A publisher's side of RTMP written for the tests from the specification (not an encoder): the
 * bytes a client sends, and a reader of what the server answers.
 */

/** C0 and C1: version 3, a time, four zero bytes, random bytes. */
export function clientC0C1(): Buffer {
  const c1 = randomBytes(RTMP_HANDSHAKE_SIZE);
  c1.writeUInt32BE(0, 0);
  c1.writeUInt32BE(0, 4);
  return Buffer.concat([Buffer.of(RTMP_VERSION), c1]);
}

/** C2: S1 echoed. */
export function clientC2(serverHandshake: Buffer): Buffer {
  return Buffer.from(serverHandshake.subarray(1, 1 + RTMP_HANDSHAKE_SIZE));
}

/** An AMF0 command message, as chunks of `chunkSize`. */
export function commandChunks(
  streamId: number,
  values: Amf0Value[],
  chunkSize = RTMP_DEFAULT_CHUNK_SIZE,
  chunkStreamId = 3,
): Buffer {
  return encodeMessageChunks(
    {
      chunkStreamId,
      typeId: RTMP_MESSAGE.amf0Command,
      streamId,
      timestamp: 0,
      payload: encodeAmf0(...values),
    },
    chunkSize,
  );
}

/** The commands a publisher sends up to `publish`, as ffmpeg and OBS send them. */
export function publishCommands(streamKey: string, app = 'live'): Buffer {
  return Buffer.concat([
    commandChunks(0, ['connect', 1, { app, type: 'nonprivate', tcUrl: `rtmp://127.0.0.1/${app}` }]),
    commandChunks(0, ['releaseStream', 2, null, streamKey]),
    commandChunks(0, ['FCPublish', 3, null, streamKey]),
    commandChunks(0, ['createStream', 4, null]),
    commandChunks(1, ['publish', 5, null, streamKey, 'live'], RTMP_DEFAULT_CHUNK_SIZE, 4),
  ]);
}

/** What the server sent: the handshake, then messages (commands decoded). */
export class ServerOutput {
  handshake = Buffer.alloc(0);
  messages: RtmpMessage[] = [];
  private reader = new RtmpChunkReader((message) => this.messages.push(message));

  push(bytes: Buffer) {
    const handshakeSize = 1 + 2 * RTMP_HANDSHAKE_SIZE;
    let rest = bytes;
    if (this.handshake.length < handshakeSize) {
      const take = Math.min(handshakeSize - this.handshake.length, bytes.length);
      this.handshake = Buffer.concat([this.handshake, bytes.subarray(0, take)]);
      rest = bytes.subarray(take);
    }
    if (rest.length > 0) this.reader.push(rest);
  }

  /** The AMF0 commands received, decoded. */
  commands(): Amf0Value[][] {
    return this.messages
      .filter((message) => message.typeId === RTMP_MESSAGE.amf0Command)
      .map((message) => decodeAmf0(message.payload));
  }

  /** The `code` of each onStatus received. */
  statusCodes(): string[] {
    return this.commands()
      .filter((values) => values[0] === 'onStatus')
      .map((values) => String((values[3] as { code?: unknown } | undefined)?.code));
  }
}

/** A raw TCP client of an RTMP server, for inputs no encoder sends. */
export class RawRtmpClient {
  readonly output = new ServerOutput();
  readonly closed: Promise<void>;
  private socket: Socket;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (bytes: Buffer) => {
      try {
        this.output.push(bytes);
      } catch {
        // What the server sends is checked by the tests that read it.
      }
    });
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  send(bytes: Buffer) {
    if (!this.socket.destroyed) this.socket.write(bytes);
  }

  /** C0 C1, then C2 once S0 S1 S2 came. */
  async handshake(): Promise<void> {
    this.send(clientC0C1());
    await this.until(() => this.output.handshake.length === 1 + 2 * RTMP_HANDSHAKE_SIZE, 'S0 S1 S2');
    this.send(clientC2(this.output.handshake));
  }

  async until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Whether the server closed the connection within `timeoutMs`. */
  async closedWithin(timeoutMs: number): Promise<boolean> {
    return Promise.race([
      this.closed.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs)),
    ]);
  }

  destroy() {
    this.socket.destroy();
  }
}
