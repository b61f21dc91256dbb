/**
 * A lean WebSocket client (RFC 6455) for the load generators: one `net` socket per viewer, the
 * upgrade request written as one pre-built buffer, a small frame parser, and outgoing frames
 * encoded once per process and written as the same bytes by every viewer.
 *
 * Why not `ws`: in a join storm the load generator shares the two cores with the server, and a
 * CPU profile of 10,000 `ws` viewers joining showed the generator spending ~0.43 ms of CPU per
 * viewer against the server's ~0.23 ms — Node's HTTP client (ClientRequest, header parsing), a
 * random key and a SHA-1 per socket, a random mask per frame, stream plumbing and the garbage of
 * all that. The generator, not the server, bounded how fast viewers joined.
 *
 * What it still checks, so a viewer that "joined" really did: the answer is `101` with the
 * `Sec-WebSocket-Accept` that proves the server read our key; every frame is parsed to its end
 * (fragmented messages are reassembled, pings answered, a close frame closes); a text message goes
 * to the caller whole. Not supported (not negotiated here): extensions such as permessage-deflate,
 * and TLS.
 *
 * The masking key is one random key per process rather than per frame. Per-frame keys protect
 * intermediaries that a browser's script could poison; between a benchmark and a server on loopback
 * there are none, and a fixed key lets a frame be encoded once for 10,000 sockets. The server still
 * sees masked frames, as the protocol requires.
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** One handshake key per process: the check that matters is that the server answers to it. */
const KEY = randomBytes(16).toString('base64');
const ACCEPT = createHash('sha1')
  .update(KEY + GUID)
  .digest('base64');
const ACCEPT_HEADER = '\r\nsec-websocket-accept:';
const MASK = randomBytes(4);
const HEADER_END = Buffer.from('\r\n\r\n', 'latin1');
/** Larger handshake answers are refused (ours are a few hundred bytes). */
const MAX_HEADER_BYTES = 8192;
/** Larger messages are refused: nothing in the benchmark comes near. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

const OP_CONTINUATION = 0x0;
const OP_TEXT = 0x1;
const OP_BINARY = 0x2;
const OP_CLOSE = 0x8;
const OP_PING = 0x9;
const OP_PONG = 0xa;

/** The upgrade request for `path` on `host:port`, built once per target and reused by every viewer. */
export function upgradeRequest(host: string, port: number, path: string): Buffer {
  return Buffer.from(
    `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    'latin1',
  );
}

/** A client → server frame (FIN set, masked with the process's key), to be written as is. */
export function clientFrame(payload: Buffer | string, opcode = OP_TEXT): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
  const length = data.length;
  const headerLength = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + 4 + length);
  frame[0] = 0x80 | opcode;
  if (length < 126) frame[1] = 0x80 | length;
  else if (length < 65536) {
    frame[1] = 0x80 | 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 0x80 | 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  MASK.copy(frame, headerLength);
  for (let i = 0; i < length; i++) frame[headerLength + 4 + i] = data[i]! ^ MASK[i & 3]!;
  return frame;
}

const CLOSE_FRAME = clientFrame(Buffer.from([0x03, 0xe8]), OP_CLOSE); // 1000: normal closure

export interface LeanHandlers {
  /** The server accepted the upgrade. */
  open(socket: LeanWebSocket): void;
  /** One whole text (or binary) message. */
  message(socket: LeanWebSocket, data: Buffer): void;
  /** The connection ended (after open or not); `reason` says why when it was not a clean close. */
  close(socket: LeanWebSocket, reason: string | null): void;
}

export class LeanWebSocket {
  private readonly socket: Socket;
  private opened = false;
  private closed = false;
  /** Bytes received and not yet consumed (handshake answer or a partial frame). */
  private pending: Buffer | null = null;
  /** Fragments of a message still arriving. */
  private fragments: Buffer[] | null = null;

  constructor(
    port: number,
    host: string,
    request: Buffer,
    private readonly handlers: LeanHandlers,
    localAddress?: string,
  ) {
    const socket = connect({ port, host, ...(localAddress ? { localAddress } : {}) });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.once('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.finish(error.message));
    socket.on('close', () => this.finish(this.opened ? null : 'closed before the upgrade'));
  }

  /** The connection is over and its close was reported: no handler is called again. */
  get ended(): boolean {
    return this.closed;
  }

  /** Writes a frame built by `clientFrame` (the same buffer may go to every socket). */
  send(frame: Buffer) {
    if (!this.closed) this.socket.write(frame);
  }

  /** Closes with a close frame, then ends the connection. */
  close() {
    if (this.closed) return;
    if (this.opened) this.socket.end(CLOSE_FRAME);
    else this.socket.destroy();
  }

  /** Drops the connection without a close frame. */
  terminate() {
    this.socket.destroy();
  }

  private finish(reason: string | null) {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
    this.handlers.close(this, reason);
  }

  private fail(reason: string) {
    this.finish(reason);
  }

  private onData(chunk: Buffer) {
    let data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    if (!this.opened) {
      const end = data.indexOf(HEADER_END);
      if (end < 0) {
        if (data.length > MAX_HEADER_BYTES) return this.fail('handshake answer too long');
        this.pending = data;
        return;
      }
      // Status line `HTTP/1.1 101 …` and the accept header (its name is case-insensitive, its value not).
      const head = data.toString('latin1', 0, end + 2);
      if (!head.startsWith('HTTP/1.1 101 ')) return this.fail(`upgrade refused: ${head.split('\r\n')[0]}`);
      const at = head.toLowerCase().indexOf(ACCEPT_HEADER);
      const value =
        at < 0 ? null : head.slice(at + ACCEPT_HEADER.length, head.indexOf('\r\n', at + 2)).trim();
      if (value !== ACCEPT) return this.fail('upgrade answer without the right Sec-WebSocket-Accept');
      this.opened = true;
      data = data.subarray(end + 4);
      this.handlers.open(this);
      if (this.closed) return;
    }
    let offset = 0;
    while (offset < data.length) {
      const available = data.length - offset;
      if (available < 2) break;
      const first = data[offset]!;
      const second = data[offset + 1]!;
      if (second & 0x80) return this.fail('masked frame from the server');
      if (first & 0x70) return this.fail('reserved bits set (no extension was negotiated)');
      let length = second & 0x7f;
      let header = 2;
      if (length === 126) {
        if (available < 4) break;
        length = data.readUInt16BE(offset + 2);
        header = 4;
      } else if (length === 127) {
        if (available < 10) break;
        const big = data.readBigUInt64BE(offset + 2);
        if (big > BigInt(MAX_MESSAGE_BYTES)) return this.fail('frame too large');
        length = Number(big);
        header = 10;
      }
      if (length > MAX_MESSAGE_BYTES) return this.fail('frame too large');
      if (available < header + length) break;
      const payload = data.subarray(offset + header, offset + header + length);
      offset += header + length;
      if (!this.onFrame(first & 0x80, first & 0x0f, payload)) return;
    }
    // Keep the partial frame; copy it so the big chunk it came in can be collected.
    if (offset < data.length) this.pending = Buffer.from(data.subarray(offset));
  }

  /** Handles one frame; false when the connection is done. */
  private onFrame(fin: number, opcode: number, payload: Buffer): boolean {
    switch (opcode) {
      case OP_TEXT:
      case OP_BINARY:
        if (this.fragments) {
          this.fail('new message inside a fragmented one');
          return false;
        }
        if (fin) this.handlers.message(this, payload);
        else this.fragments = [Buffer.from(payload)];
        return !this.closed;
      case OP_CONTINUATION: {
        if (!this.fragments) {
          this.fail('continuation without a message');
          return false;
        }
        this.fragments.push(Buffer.from(payload));
        if (!fin) return true;
        const whole = Buffer.concat(this.fragments);
        this.fragments = null;
        this.handlers.message(this, whole);
        return !this.closed;
      }
      case OP_PING:
        this.socket.write(clientFrame(payload, OP_PONG));
        return true;
      case OP_PONG:
        return true;
      case OP_CLOSE:
        // Answer the close, echoing its status code as RFC 6455 asks, and let the server end the
        // TCP connection.
        this.closed = true;
        this.socket.end(
          payload.length >= 2 ? clientFrame(payload.subarray(0, 2), OP_CLOSE) : clientFrame('', OP_CLOSE),
        );
        this.handlers.close(this, null);
        return false;
      default:
        this.fail(`unknown opcode ${opcode}`);
        return false;
    }
  }
}
