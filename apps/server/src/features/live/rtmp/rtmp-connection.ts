/**
 * The server side of one RTMP connection, for a publisher (Adobe's RTMP specification 1.0): the
 * simple handshake (C0 C1 → S0 S1 S2, then C2), the chunk stream, the protocol control messages,
 * and the NetConnection and NetStream commands an encoder sends to publish (connect,
 * releaseStream, FCPublish, createStream, publish; FCUnpublish, deleteStream, closeStream).
 * Its media messages come out as FLV packets. No socket here: bytes in (`receive`), bytes out
 * (`send`), so it runs the same under a test.
 */
import { randomBytes } from 'node:crypto';
import { type Amf0Value, amf0Fields, decodeAmf0, encodeAmf0 } from './amf0.ts';
import { classifyMedia, type FlvPacket, metadataPacket } from './flv.ts';
import {
  encodeMessageChunks,
  RTMP_MESSAGE,
  RtmpChunkReader,
  type RtmpMessage,
  RtmpProtocolError,
} from './rtmp-chunk-stream.ts';

/** The version byte of C0 and S0. */
export const RTMP_VERSION = 3;
/** C1, S1, C2 and S2 are this long. */
export const RTMP_HANDSHAKE_SIZE = 1536;
/** The chunk size this side sends with (after its Set Chunk Size). */
const OUTGOING_CHUNK_SIZE = 4096;
/** The acknowledgement window and peer bandwidth this side announces. */
const WINDOW_SIZE = 5_000_000;
/** The message stream a createStream answers (one publish per connection). */
const PUBLISH_STREAM_ID = 1;
/** Chunk streams this side sends on: protocol control, and commands. */
const CONTROL_CHUNK_STREAM = 2;
const COMMAND_CHUNK_STREAM = 3;
/** User control events (section 7.1.7). */
const USER_CONTROL_STREAM_BEGIN = 0;
const USER_CONTROL_PING_REQUEST = 6;
const USER_CONTROL_PING_RESPONSE = 7;

export interface RtmpPublisherHandlers {
  /** Bytes for the peer. */
  send(bytes: Buffer): void;
  /**
   * The peer asks to publish `streamName` (its query cut off) in `app`: answer with
   * `acceptPublish()` or `refusePublish()`, now or later.
   */
  publish(request: { app: string; streamName: string }): void;
  /** The peer asks to play: nothing is offered; `refusePlay()` answers it. */
  play(): void;
  /** An audio, video or metadata message, once publishing was asked for. */
  media(packet: FlvPacket): void;
  /** The peer ends its publish (FCUnpublish, deleteStream or closeStream). */
  unpublish(): void;
}

type Phase = 'c0c1' | 'c2' | 'chunks' | 'failed';

export class RtmpServerConnection {
  /** The application of `connect` (e.g. `live`), its query cut off. */
  app = '';
  /** The stream name of `publish` (the stream key), its query cut off. */
  streamName = '';
  /** The message stream of the publish. */
  streamId = 0;
  private phase: Phase = 'c0c1';
  private handshake: Buffer = Buffer.alloc(0);
  private readonly reader: RtmpChunkReader;
  private readonly startedAt = Date.now();
  /** Bytes received, for acknowledgements; the peer's window; the count at the last one sent. */
  private received = 0;
  private peerWindow = 0;
  private acknowledged = 0;
  private outgoingChunkSize = 128;
  private publishing = false;

  constructor(private readonly handlers: RtmpPublisherHandlers) {
    this.reader = new RtmpChunkReader((message) => this.message(message));
  }

  /**
   * Takes the next bytes from the peer. Answers null, or why the connection must close (a
   * handshake, chunk or command that breaks the protocol); nothing is read after that.
   */
  receive(bytes: Buffer): string | null {
    if (this.phase === 'failed') return 'closed';
    try {
      this.received += bytes.length;
      let rest = bytes;
      if (this.phase !== 'chunks') {
        rest = this.handshakeBytes(bytes);
        if (rest.length === 0) return null;
      }
      this.reader.push(rest);
      this.acknowledge();
      return null;
    } catch (error) {
      this.phase = 'failed';
      this.reader.stopped = true;
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** Stops reading (the connection is closing): bytes still parsed are dropped. */
  stop() {
    this.phase = 'failed';
    this.reader.stopped = true;
  }

  /** Answers the publish: NetStream.Publish.Start. */
  acceptPublish() {
    this.userControl(USER_CONTROL_STREAM_BEGIN, this.streamId);
    this.status('status', 'NetStream.Publish.Start', `${this.streamName} is now published.`);
  }

  /** Refuses the publish: NetStream.Publish.BadName with `description`. */
  refusePublish(description: string) {
    this.status('error', 'NetStream.Publish.BadName', description);
  }

  /** Refuses a play: NetStream.Play.Failed. */
  refusePlay(description: string) {
    this.status('error', 'NetStream.Play.Failed', description);
  }

  /** The handshake: answers the bytes after it (the first chunks, when they came with C2). */
  private handshakeBytes(bytes: Buffer): Buffer {
    this.handshake = this.handshake.length > 0 ? Buffer.concat([this.handshake, bytes]) : bytes;
    if (this.phase === 'c0c1') {
      const version = this.handshake[0];
      if (version !== undefined && version !== RTMP_VERSION) {
        throw new RtmpProtocolError(`not RTMP: the handshake's version is ${version}, not ${RTMP_VERSION}`);
      }
      if (this.handshake.length < 1 + RTMP_HANDSHAKE_SIZE) return Buffer.alloc(0);
      const c1 = this.handshake.subarray(1, 1 + RTMP_HANDSHAKE_SIZE);
      // S1: our time, four zero bytes (a simple handshake: no digest), random bytes.
      const s1 = Buffer.alloc(RTMP_HANDSHAKE_SIZE);
      s1.writeUInt32BE(this.now(), 0);
      randomBytes(RTMP_HANDSHAKE_SIZE - 8).copy(s1, 8);
      // S2: C1's time, the time we read C1, C1's random bytes echoed.
      const s2 = Buffer.from(c1);
      s2.writeUInt32BE(this.now(), 4);
      this.handlers.send(Buffer.concat([Buffer.of(RTMP_VERSION), s1, s2]));
      this.handshake = Buffer.from(this.handshake.subarray(1 + RTMP_HANDSHAKE_SIZE));
      this.phase = 'c2';
    }
    // C2 echoes S1; clients with the complex handshake fill it otherwise, so it is not checked.
    if (this.handshake.length < RTMP_HANDSHAKE_SIZE) return Buffer.alloc(0);
    const rest = this.handshake.subarray(RTMP_HANDSHAKE_SIZE);
    this.handshake = Buffer.alloc(0);
    this.phase = 'chunks';
    return rest;
  }

  private now(): number {
    return (Date.now() - this.startedAt) >>> 0;
  }

  /** Sends an Acknowledgement once the peer's window of bytes came since the last one. */
  private acknowledge() {
    if (this.peerWindow <= 0 || this.received - this.acknowledged < this.peerWindow) return;
    this.acknowledged = this.received;
    this.control(RTMP_MESSAGE.acknowledgement, uint32(this.received % 2 ** 32));
  }

  private write(message: Omit<RtmpMessage, 'timestamp'> & { timestamp?: number }) {
    this.handlers.send(encodeMessageChunks({ timestamp: 0, ...message }, this.outgoingChunkSize));
  }

  private control(typeId: number, payload: Buffer) {
    this.write({ chunkStreamId: CONTROL_CHUNK_STREAM, typeId, streamId: 0, payload });
  }

  private userControl(event: number, value: number) {
    const payload = Buffer.alloc(6);
    payload.writeUInt16BE(event, 0);
    payload.writeUInt32BE(value >>> 0, 2);
    this.control(RTMP_MESSAGE.userControl, payload);
  }

  private command(streamId: number, ...values: Amf0Value[]) {
    this.write({
      chunkStreamId: COMMAND_CHUNK_STREAM,
      typeId: RTMP_MESSAGE.amf0Command,
      streamId,
      payload: encodeAmf0(...values),
    });
  }

  private status(level: 'status' | 'error', code: string, description: string) {
    this.command(this.streamId, 'onStatus', 0, null, { level, code, description });
  }

  private message(message: RtmpMessage) {
    switch (message.typeId) {
      case RTMP_MESSAGE.windowAcknowledgementSize:
        if (message.payload.length < 4)
          throw new RtmpProtocolError('a Window Acknowledgement Size shorter than 4 bytes');
        this.peerWindow = message.payload.readUInt32BE(0);
        return;
      case RTMP_MESSAGE.userControl:
        if (message.payload.length >= 6 && message.payload.readUInt16BE(0) === USER_CONTROL_PING_REQUEST) {
          this.userControl(USER_CONTROL_PING_RESPONSE, message.payload.readUInt32BE(2));
        }
        return;
      case RTMP_MESSAGE.amf0Command:
        return this.invoke(decodeAmf0(message.payload), message);
      case RTMP_MESSAGE.amf3Command:
        // An AMF3 command's body is AMF0 after a format byte (0).
        return this.invoke(decodeAmf0(message.payload.subarray(1)), message);
      case RTMP_MESSAGE.audio:
      case RTMP_MESSAGE.video: {
        if (!this.publishing) return;
        const packet = classifyMedia(message.typeId, message.payload, message.timestamp);
        if (packet) this.handlers.media(packet);
        return;
      }
      case RTMP_MESSAGE.amf0Data:
      case RTMP_MESSAGE.amf3Data: {
        const payload =
          message.typeId === RTMP_MESSAGE.amf3Data ? message.payload.subarray(1) : message.payload;
        const packet = metadataPacket(payload);
        if (packet && this.publishing) this.handlers.media(packet);
        return;
      }
      default:
        // Set Chunk Size and Abort were applied by the reader; Acknowledgement and Set Peer
        // Bandwidth ask nothing of a server that only receives media.
        return;
    }
  }

  private invoke(values: Amf0Value[], message: RtmpMessage) {
    const [name, transaction] = values;
    if (typeof name !== 'string') throw new RtmpProtocolError('a command without a name');
    const transactionId = typeof transaction === 'number' ? transaction : 0;
    switch (name) {
      case 'connect': {
        const app = amf0Fields(values[2] ?? null)?.app;
        this.app = typeof app === 'string' ? (app.split('?')[0] ?? '').replace(/\/+$/, '') : '';
        this.control(RTMP_MESSAGE.windowAcknowledgementSize, uint32(WINDOW_SIZE));
        // Set Peer Bandwidth: the window, limit type 2 (dynamic).
        this.control(RTMP_MESSAGE.setPeerBandwidth, Buffer.concat([uint32(WINDOW_SIZE), Buffer.of(2)]));
        this.control(RTMP_MESSAGE.setChunkSize, uint32(OUTGOING_CHUNK_SIZE));
        this.outgoingChunkSize = OUTGOING_CHUNK_SIZE;
        this.command(
          0,
          '_result',
          transactionId,
          { fmsVer: 'FMS/3,0,1,123', capabilities: 31 },
          {
            level: 'status',
            code: 'NetConnection.Connect.Success',
            description: 'Connection succeeded.',
            objectEncoding: 0,
          },
        );
        return;
      }
      case 'releaseStream':
      case 'FCPublish':
        if (transactionId > 0) this.command(0, '_result', transactionId, null);
        return;
      case 'createStream':
        this.command(0, '_result', transactionId, null, PUBLISH_STREAM_ID);
        return;
      case 'publish': {
        if (this.publishing || this.streamName !== '') return;
        const name = values[3];
        if (typeof name !== 'string' || name === '') {
          this.streamId = message.streamId;
          this.refusePublish('A stream name (the stream key) is needed.');
          throw new RtmpProtocolError('a publish without a stream name');
        }
        this.streamId = message.streamId;
        this.streamName = name.split('?')[0] ?? '';
        this.publishing = true;
        this.handlers.publish({ app: this.app, streamName: this.streamName });
        return;
      }
      case 'play':
        this.streamId = message.streamId;
        this.handlers.play();
        return;
      case 'FCUnpublish':
      case 'deleteStream':
      case 'closeStream':
        if (this.publishing) this.handlers.unpublish();
        return;
      default:
        // Other commands (getStreamLength, _checkbw, …) ask nothing of a publishing server.
        return;
    }
  }
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value >>> 0);
  return bytes;
}
