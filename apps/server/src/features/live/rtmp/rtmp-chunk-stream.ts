/**
 * RTMP's chunk stream (Adobe's RTMP specification 1.0, section 5.3): messages cut into chunks
 * of at most the chunk size, each chunk with a basic header (format and chunk stream id, 1–3
 * bytes), a message header of format 0 (11 bytes), 1 (7), 2 (3) or 3 (none), and an extended
 * timestamp when the 24-bit field holds 0xFFFFFF. Chunks of several chunk streams interleave;
 * each chunk stream keeps the header fields its next chunks leave out.
 *
 * The reader takes bytes as they come (split anywhere) and applies the two protocol control
 * messages that change how the chunks that follow are read: Set Chunk Size (1) and Abort (2).
 * Anything that makes no sense throws an `RtmpProtocolError`; the connection closes on it.
 */

/** Message type ids (section 5.4 and 7.1). */
export const RTMP_MESSAGE = {
  setChunkSize: 1,
  abort: 2,
  acknowledgement: 3,
  userControl: 4,
  windowAcknowledgementSize: 5,
  setPeerBandwidth: 6,
  audio: 8,
  video: 9,
  amf3Data: 15,
  amf3Command: 17,
  amf0Data: 18,
  amf0Command: 20,
} as const;

/** The chunk size of both directions until a Set Chunk Size says otherwise. */
export const RTMP_DEFAULT_CHUNK_SIZE = 128;
/** The largest chunk size accepted from a peer (the specification allows up to 2^31 - 1). */
export const RTMP_MAX_CHUNK_SIZE = 16 * 1024 * 1024;
/** The largest message accepted (a 4K keyframe is a few megabytes). */
export const RTMP_MAX_MESSAGE_BYTES = 8 * 1024 * 1024;
/** At most this many bytes of unfinished messages wait, over all chunk streams together. */
const MAX_PARTIAL_BYTES = 16 * 1024 * 1024;
/** At most this many chunk streams are remembered (an encoder uses a handful). */
const MAX_CHUNK_STREAMS = 256;
/** The 24-bit timestamp field's value that says an extended timestamp follows. */
const EXTENDED = 0xffffff;

export class RtmpProtocolError extends Error {}

export interface RtmpMessage {
  chunkStreamId: number;
  typeId: number;
  /** The message stream id (0 for control messages and NetConnection commands). */
  streamId: number;
  /** Milliseconds, modulo 2^32. */
  timestamp: number;
  payload: Buffer;
}

/** What a chunk stream remembers of its last chunk's header, and the message being assembled. */
interface ChunkStreamState {
  id: number;
  timestamp: number;
  /** The delta a format-3 chunk that starts a message adds (format 0: its absolute timestamp). */
  delta: number;
  length: number;
  typeId: number;
  streamId: number;
  /** Whether the last header's timestamp field was extended: format-3 chunks then repeat it. */
  extended: boolean;
  /** The parts received of the message being assembled, and their total. */
  parts: Buffer[];
  received: number;
  /** Whether a message is being assembled (its first chunk came). */
  assembling: boolean;
}

/** Reads the chunk stream of one connection. */
export class RtmpChunkReader {
  /** The peer's chunk size. */
  chunkSize = RTMP_DEFAULT_CHUNK_SIZE;
  private streams = new Map<number, ChunkStreamState>();
  /** Bytes of a chunk header not complete yet. */
  private pending: Buffer = Buffer.alloc(0);
  /** The chunk stream whose chunk payload is being read, and how much of it is left. */
  private payloadStream: ChunkStreamState | null = null;
  private payloadLeft = 0;
  private partialBytes = 0;
  /** Set to stop reading (the connection closed from a message's handler). */
  stopped = false;

  constructor(private readonly onMessage: (message: RtmpMessage) => void) {}

  /** Reads the next bytes of the stream; messages complete are handed over as they complete. */
  push(bytes: Buffer): void {
    const data = this.pending.length > 0 ? Buffer.concat([this.pending, bytes]) : bytes;
    this.pending = Buffer.alloc(0);
    let offset = 0;
    while (offset < data.length && !this.stopped) {
      if (this.payloadStream) {
        const take = Math.min(this.payloadLeft, data.length - offset);
        const stream = this.payloadStream;
        stream.parts.push(data.subarray(offset, offset + take));
        stream.received += take;
        this.partialBytes += take;
        if (this.partialBytes > MAX_PARTIAL_BYTES) {
          throw new RtmpProtocolError(`over ${MAX_PARTIAL_BYTES} bytes of unfinished messages`);
        }
        offset += take;
        this.payloadLeft -= take;
        if (this.payloadLeft === 0) {
          this.payloadStream = null;
          if (stream.received === stream.length) this.complete(stream);
        }
        continue;
      }
      const used = this.header(data, offset);
      if (used === 0) {
        // An incomplete header (at most 18 bytes) waits for the next bytes.
        this.pending = Buffer.from(data.subarray(offset));
        break;
      }
      offset += used;
    }
  }

  private complete(stream: ChunkStreamState) {
    const payload = stream.parts.length === 1 ? Buffer.from(stream.parts[0]!) : Buffer.concat(stream.parts);
    this.partialBytes -= stream.received;
    stream.parts = [];
    stream.received = 0;
    stream.assembling = false;
    const message: RtmpMessage = {
      chunkStreamId: stream.id,
      typeId: stream.typeId,
      streamId: stream.streamId,
      timestamp: stream.timestamp,
      payload,
    };
    this.control(message);
    this.onMessage(message);
  }

  /** Applies the protocol control messages that change how chunks are read. */
  private control(message: RtmpMessage) {
    if (message.typeId === RTMP_MESSAGE.setChunkSize) {
      if (message.payload.length < 4) throw new RtmpProtocolError('a Set Chunk Size shorter than 4 bytes');
      const size = message.payload.readUInt32BE(0) & 0x7fffffff;
      if (size < 1 || size > RTMP_MAX_CHUNK_SIZE) {
        throw new RtmpProtocolError(`a chunk size of ${size} (1 to ${RTMP_MAX_CHUNK_SIZE} allowed)`);
      }
      this.chunkSize = size;
    } else if (message.typeId === RTMP_MESSAGE.abort) {
      if (message.payload.length < 4) throw new RtmpProtocolError('an Abort shorter than 4 bytes');
      const stream = this.streams.get(message.payload.readUInt32BE(0));
      if (stream?.assembling) {
        this.partialBytes -= stream.received;
        stream.parts = [];
        stream.received = 0;
        stream.assembling = false;
      }
    }
  }

  /**
   * Reads one chunk's header at `offset` and readies its payload; answers the bytes it took, or 0
   * when the header is not all there yet (nothing is changed then).
   */
  private header(data: Buffer, start: number): number {
    let offset = start;
    const available = () => data.length - offset;
    if (available() < 1) return 0;
    const first = data.readUInt8(offset);
    const format = first >> 6;
    let chunkStreamId = first & 0x3f;
    offset += 1;
    if (chunkStreamId === 0) {
      if (available() < 1) return 0;
      chunkStreamId = 64 + data.readUInt8(offset);
      offset += 1;
    } else if (chunkStreamId === 1) {
      if (available() < 2) return 0;
      chunkStreamId = 64 + data.readUInt8(offset) + data.readUInt8(offset + 1) * 256;
      offset += 2;
    }
    const headerBytes = [11, 7, 3, 0][format]!;
    if (available() < headerBytes) return 0;
    let stream = this.streams.get(chunkStreamId);
    if (!stream) {
      if (format !== 0) {
        throw new RtmpProtocolError(
          `chunk stream ${chunkStreamId} starts with a format-${format} chunk (its first must be format 0)`,
        );
      }
      if (this.streams.size >= MAX_CHUNK_STREAMS) {
        throw new RtmpProtocolError(`more than ${MAX_CHUNK_STREAMS} chunk streams`);
      }
    }
    let field = 0;
    let length = stream?.length ?? 0;
    let typeId = stream?.typeId ?? 0;
    let streamId = stream?.streamId ?? 0;
    if (format <= 2) {
      field = data.readUIntBE(offset, 3);
      if (format <= 1) {
        length = data.readUIntBE(offset + 3, 3);
        typeId = data.readUInt8(offset + 6);
      }
      if (format === 0) streamId = data.readUInt32LE(offset + 7);
    }
    offset += headerBytes;
    const extended = format <= 2 ? field === EXTENDED : (stream?.extended ?? false);
    let extendedValue = 0;
    if (extended) {
      if (available() < 4) return 0;
      extendedValue = data.readUInt32BE(offset);
      offset += 4;
    }
    // All of the header is here: it may now change the chunk stream's state.
    if (!stream) {
      stream = {
        id: chunkStreamId,
        timestamp: 0,
        delta: 0,
        length: 0,
        typeId: 0,
        streamId: 0,
        extended: false,
        parts: [],
        received: 0,
        assembling: false,
      };
      this.streams.set(chunkStreamId, stream);
    }
    if (format <= 2) {
      const value = extended ? extendedValue : field;
      if (stream.assembling) {
        // A new header in the middle of a message (the specification has none): the rest of that
        // message is given up, as by an Abort.
        this.partialBytes -= stream.received;
        stream.parts = [];
        stream.received = 0;
        stream.assembling = false;
      }
      stream.extended = extended;
      stream.delta = value;
      stream.timestamp = format === 0 ? value : (stream.timestamp + value) % 2 ** 32;
      stream.length = length;
      stream.typeId = typeId;
      stream.streamId = streamId;
    } else if (!stream.assembling) {
      // A format-3 chunk that starts a message: the last header's fields, one delta later.
      stream.timestamp = (stream.timestamp + stream.delta) % 2 ** 32;
    }
    if (!stream.assembling) {
      if (stream.length > RTMP_MAX_MESSAGE_BYTES) {
        throw new RtmpProtocolError(
          `a message of ${stream.length} bytes (at most ${RTMP_MAX_MESSAGE_BYTES} accepted)`,
        );
      }
      stream.assembling = true;
      stream.parts = [];
      stream.received = 0;
    }
    const chunkPayload = Math.min(this.chunkSize, stream.length - stream.received);
    if (chunkPayload === 0) {
      // An empty message is complete at its header.
      this.complete(stream);
    } else {
      this.payloadStream = stream;
      this.payloadLeft = chunkPayload;
    }
    return offset - start;
  }
}

/** The basic header of a chunk: its format (0–3) and chunk stream id (2–65599), in 1 to 3 bytes. */
export function encodeBasicHeader(format: number, chunkStreamId: number): Buffer {
  if (chunkStreamId < 2 || chunkStreamId > 65599) throw new RangeError(`chunk stream id ${chunkStreamId}`);
  if (chunkStreamId < 64) return Buffer.of((format << 6) | chunkStreamId);
  if (chunkStreamId < 320) return Buffer.of(format << 6, chunkStreamId - 64);
  const id = chunkStreamId - 64;
  return Buffer.of((format << 6) | 1, id & 0xff, id >> 8);
}

/**
 * One chunk's header: the basic header, the message header of `format` (its fields as given:
 * `timestamp` is the absolute one for format 0, the delta for 1 and 2), and the extended
 * timestamp when the timestamp does not fit in 24 bits; for format 3, `extendedTimestamp` says
 * whether the chunk stream's last header had one (and `timestamp` is repeated then).
 */
export function encodeChunkHeader(
  format: 0 | 1 | 2 | 3,
  chunkStreamId: number,
  fields: {
    timestamp?: number;
    length?: number;
    typeId?: number;
    streamId?: number;
    extendedTimestamp?: boolean;
  },
): Buffer {
  const timestamp = fields.timestamp ?? 0;
  const extended = format === 3 ? (fields.extendedTimestamp ?? false) : timestamp >= EXTENDED;
  const message = Buffer.alloc([11, 7, 3, 0][format]!);
  if (format <= 2) message.writeUIntBE(extended ? EXTENDED : timestamp, 0, 3);
  if (format <= 1) {
    message.writeUIntBE(fields.length ?? 0, 3, 3);
    message.writeUInt8(fields.typeId ?? 0, 6);
  }
  if (format === 0) message.writeUInt32LE(fields.streamId ?? 0, 7);
  const parts = [encodeBasicHeader(format, chunkStreamId), message];
  if (extended) {
    const ext = Buffer.alloc(4);
    ext.writeUInt32BE(timestamp >>> 0);
    parts.push(ext);
  }
  return Buffer.concat(parts);
}

/**
 * A whole message as chunks of `chunkSize`: a format-0 chunk, then format-3 continuation chunks
 * (which repeat the extended timestamp when there is one).
 */
export function encodeMessageChunks(message: RtmpMessage, chunkSize: number): Buffer {
  const { payload } = message;
  const parts: Buffer[] = [
    encodeChunkHeader(0, message.chunkStreamId, {
      timestamp: message.timestamp,
      length: payload.length,
      typeId: message.typeId,
      streamId: message.streamId,
    }),
  ];
  const extendedTimestamp = message.timestamp >= EXTENDED;
  for (let offset = 0; offset < payload.length; offset += chunkSize) {
    if (offset > 0) {
      parts.push(
        encodeChunkHeader(3, message.chunkStreamId, { timestamp: message.timestamp, extendedTimestamp }),
      );
    }
    parts.push(payload.subarray(offset, offset + chunkSize));
  }
  return Buffer.concat(parts);
}
