import { describe, expect, it } from 'vitest';
import {
  encodeBasicHeader,
  encodeChunkHeader,
  encodeMessageChunks,
  RTMP_MAX_MESSAGE_BYTES,
  RtmpChunkReader,
  type RtmpMessage,
  RtmpProtocolError,
} from './rtmp-chunk-stream.ts';

const bytesOf = (length: number, seed: number) =>
  Buffer.from(Array.from({ length }, (_, index) => (index * 7 + seed) & 0xff));

const uint32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};

/** Reads `stream` pushed in the pieces `cuts` makes (offsets where a piece ends). */
function read(stream: Buffer, cuts: number[] = []): { messages: RtmpMessage[]; reader: RtmpChunkReader } {
  const messages: RtmpMessage[] = [];
  const reader = new RtmpChunkReader((message) => messages.push(message));
  let start = 0;
  for (const cut of [...cuts, stream.length]) {
    reader.push(stream.subarray(start, cut));
    start = cut;
  }
  return { messages, reader };
}

const sameMessages = (a: RtmpMessage[], b: RtmpMessage[]) =>
  a.length === b.length &&
  a.every((message, index) => {
    const other = b[index]!;
    return (
      message.chunkStreamId === other.chunkStreamId &&
      message.typeId === other.typeId &&
      message.streamId === other.streamId &&
      message.timestamp === other.timestamp &&
      message.payload.equals(other.payload)
    );
  });

/** Every way of cutting `stream` in two, and byte by byte: each must read as the whole. */
function expectSplitInvariant(stream: Buffer, expected: RtmpMessage[]) {
  expect(read(stream).messages).toEqual(expected);
  const wrongCuts: number[] = [];
  for (let cut = 0; cut <= stream.length; cut += 1) {
    if (!sameMessages(read(stream, [cut]).messages, expected)) wrongCuts.push(cut);
  }
  expect(wrongCuts).toEqual([]);
  const everyByte = Array.from({ length: stream.length }, (_, index) => index);
  expect(read(stream, everyByte).messages).toEqual(expected);
}

describe('the RTMP chunk stream reader', () => {
  it('reads the basic header in 1, 2 and 3 bytes', () => {
    expect(encodeBasicHeader(0, 2)).toEqual(Buffer.of(0x02));
    expect(encodeBasicHeader(1, 63)).toEqual(Buffer.of(0x7f));
    expect(encodeBasicHeader(2, 64)).toEqual(Buffer.of(0x80, 0));
    expect(encodeBasicHeader(3, 319)).toEqual(Buffer.of(0xc0, 255));
    expect(encodeBasicHeader(0, 320)).toEqual(Buffer.of(0x01, 0, 1));
    expect(encodeBasicHeader(0, 65599)).toEqual(Buffer.of(0x01, 255, 255));
    for (const chunkStreamId of [2, 63, 64, 319, 320, 65599]) {
      const message = {
        chunkStreamId,
        typeId: 9,
        streamId: 1,
        timestamp: 40,
        payload: bytesOf(300, chunkStreamId),
      };
      expectSplitInvariant(encodeMessageChunks(message, 128), [message]);
    }
  });

  it('follows the specification’s first example: one chunk per message, formats 0, 2, 3, 3', () => {
    // Four audio messages of 32 bytes on chunk stream 3, 1000 ms then every 20 ms.
    const payloads = [0, 1, 2, 3].map((seed) => bytesOf(32, seed));
    const stream = Buffer.concat([
      encodeChunkHeader(0, 3, { timestamp: 1000, length: 32, typeId: 8, streamId: 12345 }),
      payloads[0]!,
      encodeChunkHeader(2, 3, { timestamp: 20 }),
      payloads[1]!,
      encodeChunkHeader(3, 3, {}),
      payloads[2]!,
      encodeChunkHeader(3, 3, {}),
      payloads[3]!,
    ]);
    expectSplitInvariant(
      stream,
      [1000, 1020, 1040, 1060].map((timestamp, index) => ({
        chunkStreamId: 3,
        typeId: 8,
        streamId: 12345,
        timestamp,
        payload: payloads[index]!,
      })),
    );
  });

  it('follows the specification’s second example: one message of 307 bytes in three chunks', () => {
    const payload = bytesOf(307, 9);
    const stream = Buffer.concat([
      encodeChunkHeader(0, 4, { timestamp: 1000, length: 307, typeId: 9, streamId: 12346 }),
      payload.subarray(0, 128),
      encodeChunkHeader(3, 4, {}),
      payload.subarray(128, 256),
      encodeChunkHeader(3, 4, {}),
      payload.subarray(256),
    ]);
    expectSplitInvariant(stream, [
      { chunkStreamId: 4, typeId: 9, streamId: 12346, timestamp: 1000, payload },
    ]);
  });

  it('reads format 1 (a new length and type, the same stream) with its delta', () => {
    const first = bytesOf(10, 1);
    const second = bytesOf(200, 2);
    const stream = Buffer.concat([
      encodeChunkHeader(0, 5, { timestamp: 500, length: 10, typeId: 18, streamId: 1 }),
      first,
      encodeChunkHeader(1, 5, { timestamp: 33, length: 200, typeId: 9 }),
      second.subarray(0, 128),
      encodeChunkHeader(3, 5, {}),
      second.subarray(128),
    ]);
    expectSplitInvariant(stream, [
      { chunkStreamId: 5, typeId: 18, streamId: 1, timestamp: 500, payload: first },
      { chunkStreamId: 5, typeId: 9, streamId: 1, timestamp: 533, payload: second },
    ]);
  });

  it('reads extended timestamps, also on format-3 continuation chunks and deltas', () => {
    const big = 0x01020304; // beyond 24 bits
    const payload = bytesOf(300, 3);
    const stream = Buffer.concat([
      encodeMessageChunks({ chunkStreamId: 6, typeId: 9, streamId: 1, timestamp: big, payload }, 128),
      // A delta of 0xFFFFFF + 1 is extended as well; its format-3 continuation repeats it.
      encodeChunkHeader(2, 6, { timestamp: 0x1000000 }),
      Buffer.alloc(0),
    ]);
    // The message after the format-2 header keeps length 300: give it 300 bytes in three chunks.
    const later = bytesOf(300, 5);
    const rest = Buffer.concat([
      later.subarray(0, 128),
      encodeChunkHeader(3, 6, { timestamp: 0x1000000, extendedTimestamp: true }),
      later.subarray(128, 256),
      encodeChunkHeader(3, 6, { timestamp: 0x1000000, extendedTimestamp: true }),
      later.subarray(256),
      // A format-3 chunk that starts a message: one more delta, the extended field repeated.
      encodeChunkHeader(3, 6, { timestamp: 0x1000000, extendedTimestamp: true }),
      bytesOf(128, 6),
      encodeChunkHeader(3, 6, { timestamp: 0x1000000, extendedTimestamp: true }),
      bytesOf(128, 7),
      encodeChunkHeader(3, 6, { timestamp: 0x1000000, extendedTimestamp: true }),
      bytesOf(44, 8),
    ]);
    expectSplitInvariant(Buffer.concat([stream, rest]), [
      { chunkStreamId: 6, typeId: 9, streamId: 1, timestamp: big, payload },
      { chunkStreamId: 6, typeId: 9, streamId: 1, timestamp: big + 0x1000000, payload: later },
      {
        chunkStreamId: 6,
        typeId: 9,
        streamId: 1,
        timestamp: big + 2 * 0x1000000,
        payload: Buffer.concat([bytesOf(128, 6), bytesOf(128, 7), bytesOf(44, 8)]),
      },
    ]);
  });

  it('writes the extended timestamp on every chunk of a message past 24 bits', () => {
    const message = {
      chunkStreamId: 3,
      typeId: 8,
      streamId: 1,
      timestamp: 0xffffff,
      payload: bytesOf(200, 1),
    };
    const bytes = encodeMessageChunks(message, 128);
    // 1 + 11 + 4 + 128, then 1 + 4 + 72.
    expect(bytes.length).toBe(144 + 77);
    expect(bytes.readUIntBE(1, 3)).toBe(0xffffff);
    expect(bytes.readUInt32BE(12)).toBe(0xffffff);
    expect(bytes[144]).toBe(0xc3);
    expect(bytes.readUInt32BE(145)).toBe(0xffffff);
    expectSplitInvariant(bytes, [message]);
  });

  it('wraps timestamps at 2^32', () => {
    const stream = Buffer.concat([
      encodeChunkHeader(0, 3, { timestamp: 0xfffffff0, length: 1, typeId: 8, streamId: 1 }),
      Buffer.of(1),
      encodeChunkHeader(2, 3, { timestamp: 0x20 }),
      Buffer.of(2),
    ]);
    expect(read(stream).messages.map((message) => message.timestamp)).toEqual([0xfffffff0, 0x10]);
  });

  it('reads two chunk streams interleaved chunk by chunk', () => {
    const audio = bytesOf(300, 1);
    const video = bytesOf(400, 2);
    const stream = Buffer.concat([
      encodeChunkHeader(0, 4, { timestamp: 10, length: 300, typeId: 8, streamId: 1 }),
      audio.subarray(0, 128),
      encodeChunkHeader(0, 6, { timestamp: 20, length: 400, typeId: 9, streamId: 1 }),
      video.subarray(0, 128),
      encodeChunkHeader(3, 4, {}),
      audio.subarray(128, 256),
      encodeChunkHeader(3, 6, {}),
      video.subarray(128, 256),
      encodeChunkHeader(3, 6, {}),
      video.subarray(256, 384),
      encodeChunkHeader(3, 4, {}),
      audio.subarray(256),
      encodeChunkHeader(3, 6, {}),
      video.subarray(384),
    ]);
    expectSplitInvariant(stream, [
      { chunkStreamId: 4, typeId: 8, streamId: 1, timestamp: 10, payload: audio },
      { chunkStreamId: 6, typeId: 9, streamId: 1, timestamp: 20, payload: video },
    ]);
  });

  it('changes the chunk size mid-stream at a Set Chunk Size', () => {
    const before = { chunkStreamId: 4, typeId: 9, streamId: 1, timestamp: 0, payload: bytesOf(300, 1) };
    const setChunkSize = { chunkStreamId: 2, typeId: 1, streamId: 0, timestamp: 0, payload: uint32(4096) };
    const after = { chunkStreamId: 4, typeId: 9, streamId: 1, timestamp: 40, payload: bytesOf(5000, 2) };
    const stream = Buffer.concat([
      encodeMessageChunks(before, 128),
      encodeMessageChunks(setChunkSize, 128),
      encodeMessageChunks(after, 4096),
    ]);
    const { messages, reader } = read(stream);
    expect(messages).toEqual([before, setChunkSize, after]);
    expect(reader.chunkSize).toBe(4096);
    // Split at every 37th byte (every byte is slow at 5 kB): the same.
    const cuts = Array.from({ length: Math.floor(stream.length / 37) }, (_, index) => (index + 1) * 37);
    expect(read(stream, cuts).messages).toEqual([before, setChunkSize, after]);
    const wrongCuts: number[] = [];
    for (let cut = 0; cut <= stream.length; cut += 1) {
      if (!sameMessages(read(stream, [cut]).messages, [before, setChunkSize, after])) wrongCuts.push(cut);
    }
    expect(wrongCuts).toEqual([]);
  });

  it('drops a message being assembled at an Abort, and reads the next one on its chunk stream', () => {
    const abort = { chunkStreamId: 2, typeId: 2, streamId: 0, timestamp: 0, payload: uint32(4) };
    const next = { chunkStreamId: 4, typeId: 9, streamId: 1, timestamp: 50, payload: bytesOf(20, 3) };
    const stream = Buffer.concat([
      encodeChunkHeader(0, 4, { timestamp: 10, length: 300, typeId: 9, streamId: 1 }),
      bytesOf(128, 1),
      encodeMessageChunks(abort, 128),
      encodeMessageChunks(next, 128),
    ]);
    expectSplitInvariant(stream, [abort, next]);
  });

  it('reads an empty message at its header', () => {
    const empty = { chunkStreamId: 3, typeId: 20, streamId: 0, timestamp: 0, payload: Buffer.alloc(0) };
    expectSplitInvariant(encodeMessageChunks(empty, 128), [empty]);
  });

  describe('refuses', () => {
    const refuse = (stream: Buffer, why: RegExp) => {
      expect(() => read(stream)).toThrow(RtmpProtocolError);
      expect(() => read(stream)).toThrow(why);
    };
    const setChunkSize = (size: number) =>
      encodeMessageChunks(
        { chunkStreamId: 2, typeId: 1, streamId: 0, timestamp: 0, payload: uint32(size) },
        128,
      );

    it('a chunk size of 0 or over 16 MiB', () => {
      refuse(setChunkSize(0), /chunk size of 0/);
      refuse(setChunkSize(16 * 1024 * 1024 + 1), /chunk size of 16777217/);
      expect(read(setChunkSize(16 * 1024 * 1024)).reader.chunkSize).toBe(16 * 1024 * 1024);
    });

    it('a message longer than the bound, at its header', () => {
      const header = encodeChunkHeader(0, 4, { length: RTMP_MAX_MESSAGE_BYTES + 1, typeId: 9, streamId: 1 });
      refuse(header, /a message of 8388609 bytes/);
      // Also when a format-1 header grows a known chunk stream's length.
      refuse(
        Buffer.concat([
          encodeChunkHeader(0, 4, { length: 1, typeId: 9, streamId: 1 }),
          Buffer.of(0),
          encodeChunkHeader(1, 4, { length: 0xffffff, typeId: 9 }),
        ]),
        /a message of 16777215 bytes/,
      );
    });

    it('a chunk stream that starts with a format 1, 2 or 3 chunk', () => {
      refuse(
        Buffer.concat([encodeChunkHeader(3, 7, {}), Buffer.alloc(10)]),
        /chunk stream 7 starts with a format-3/,
      );
      refuse(encodeChunkHeader(2, 9, { timestamp: 1 }), /format-2/);
      refuse(encodeChunkHeader(1, 64, { length: 3, typeId: 8 }), /chunk stream 64 starts with a format-1/);
    });

    it('a Set Chunk Size or Abort too short', () => {
      refuse(
        encodeMessageChunks(
          { chunkStreamId: 2, typeId: 1, streamId: 0, timestamp: 0, payload: Buffer.of(1) },
          128,
        ),
        /Set Chunk Size shorter/,
      );
      refuse(
        encodeMessageChunks(
          { chunkStreamId: 2, typeId: 2, streamId: 0, timestamp: 0, payload: Buffer.of(1) },
          128,
        ),
        /Abort shorter/,
      );
    });

    it('unfinished messages over 16 MiB on many chunk streams together', () => {
      const size = 4 * 1024 * 1024;
      const parts = [setChunkSize(size)];
      for (let chunkStreamId = 3; chunkStreamId < 8; chunkStreamId += 1) {
        parts.push(encodeChunkHeader(0, chunkStreamId, { length: size + 1, typeId: 9, streamId: 1 }));
        parts.push(Buffer.alloc(size));
      }
      refuse(Buffer.concat(parts), /unfinished messages/);
    });
  });
});
