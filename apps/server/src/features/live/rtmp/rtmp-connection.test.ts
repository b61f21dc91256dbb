import { describe, expect, it } from 'vitest';
import { encodeAmf0 } from './amf0.ts';
import type { FlvPacket } from './flv.ts';
import { encodeChunkHeader, encodeMessageChunks, RTMP_MESSAGE } from './rtmp-chunk-stream.ts';
import { RTMP_HANDSHAKE_SIZE, RtmpServerConnection } from './rtmp-connection.ts';
import { clientC0C1, clientC2, commandChunks, publishCommands, ServerOutput } from './rtmp-test-client.ts';

function connection() {
  const output = new ServerOutput();
  const events: string[] = [];
  const media: FlvPacket[] = [];
  const rtmp = new RtmpServerConnection({
    send: (bytes) => output.push(bytes),
    publish: ({ app, streamName }) => events.push(`publish ${app} ${streamName}`),
    play: () => events.push('play'),
    media: (packet) => media.push(packet),
    unpublish: () => events.push('unpublish'),
  });
  /** C0 C1, then C2 with `after` (bytes sent right behind it, as encoders do). */
  const handshake = (after: Buffer = Buffer.alloc(0)) => {
    expect(rtmp.receive(clientC0C1())).toBeNull();
    expect(rtmp.receive(Buffer.concat([clientC2(output.handshake), after]))).toBeNull();
  };
  return { rtmp, output, events, media, handshake };
}

const media = (typeId: 8 | 9, timestamp: number, hex: string) =>
  encodeMessageChunks(
    { chunkStreamId: typeId === 8 ? 4 : 6, typeId, streamId: 1, timestamp, payload: Buffer.from(hex, 'hex') },
    128,
  );

describe('an RTMP connection, server side', () => {
  it('answers C0 C1 with S0 S1 S2: version 3, S1 with zeros after its time, S2 echoing C1', () => {
    const { rtmp, output } = connection();
    const c0c1 = clientC0C1();
    // C0 and C1 split anywhere arrive the same.
    expect(rtmp.receive(c0c1.subarray(0, 1))).toBeNull();
    expect(rtmp.receive(c0c1.subarray(1, 700))).toBeNull();
    expect(output.handshake.length).toBe(0);
    expect(rtmp.receive(c0c1.subarray(700))).toBeNull();
    expect(output.handshake.length).toBe(1 + 2 * RTMP_HANDSHAKE_SIZE);
    expect(output.handshake[0]).toBe(3);
    expect(output.handshake.readUInt32BE(1 + 4)).toBe(0);
    const s2 = output.handshake.subarray(1 + RTMP_HANDSHAKE_SIZE);
    expect(s2.readUInt32BE(0)).toBe(c0c1.readUInt32BE(1));
    expect(s2.subarray(8).equals(c0c1.subarray(1 + 8))).toBe(true);
  });

  it('refuses a handshake that is not RTMP version 3', () => {
    const { rtmp } = connection();
    expect(rtmp.receive(Buffer.from('GET / HTTP/1.1\r\n\r\n'))).toMatch(
      /not RTMP: the handshake's version is 71/,
    );
    // Nothing is read after.
    expect(rtmp.receive(clientC0C1())).toBe('closed');
    expect(connection().rtmp.receive(Buffer.of(6))).toMatch(/version is 6/);
  });

  it('takes a publisher through connect, createStream and publish, then its media', () => {
    const { rtmp, output, events, media: packets, handshake } = connection();
    handshake(publishCommands('key-1?token=x'));
    expect(events).toEqual(['publish live key-1']);
    expect(rtmp.app).toBe('live');
    expect(rtmp.streamName).toBe('key-1');
    expect(rtmp.streamId).toBe(1);
    const controls = output.messages.filter((message) => message.chunkStreamId === 2).map((m) => m.typeId);
    expect(controls).toEqual([
      RTMP_MESSAGE.windowAcknowledgementSize,
      RTMP_MESSAGE.setPeerBandwidth,
      RTMP_MESSAGE.setChunkSize,
    ]);
    const commands = output.commands();
    expect(commands[0]?.slice(0, 2)).toEqual(['_result', 1]);
    expect(commands[0]?.[3]).toMatchObject({ level: 'status', code: 'NetConnection.Connect.Success' });
    expect(commands.slice(1)).toEqual([
      ['_result', 2, null],
      ['_result', 3, null],
      ['_result', 4, null, 1],
    ]);
    expect(output.statusCodes()).toEqual([]);

    rtmp.acceptPublish();
    expect(output.statusCodes()).toEqual(['NetStream.Publish.Start']);
    const status = output.messages.at(-1)!;
    expect(status.streamId).toBe(1);
    // Stream Begin for stream 1 came before it.
    const streamBegin = output.messages.at(-2)!;
    expect(streamBegin.typeId).toBe(RTMP_MESSAGE.userControl);
    expect(streamBegin.payload.toString('hex')).toBe('000000000001');

    const data = encodeMessageChunks(
      {
        chunkStreamId: 5,
        typeId: RTMP_MESSAGE.amf0Data,
        streamId: 1,
        timestamp: 0,
        payload: encodeAmf0('@setDataFrame', 'onMetaData', { width: 640 }),
      },
      128,
    );
    expect(
      rtmp.receive(
        Buffer.concat([
          data,
          media(8, 0, 'af001190'),
          media(9, 0, '1700000000'),
          media(9, 0, '1701000000aa'),
        ]),
      ),
    ).toBeNull();
    expect(packets.map((packet) => packet.kind)).toEqual([
      'metadata',
      'audio-header',
      'video-header',
      'keyframe',
    ]);
    expect(packets[3]?.data.toString('hex')).toBe('1701000000aa');

    expect(rtmp.receive(commandChunks(0, ['FCUnpublish', 6, null, 'key-1']))).toBeNull();
    expect(rtmp.receive(commandChunks(0, ['deleteStream', 7, null, 1]))).toBeNull();
    expect(events).toEqual(['publish live key-1', 'unpublish', 'unpublish']);
  });

  it('answers a refused publish with NetStream.Publish.BadName', () => {
    const { rtmp, output, handshake } = connection();
    handshake(publishCommands('nope'));
    rtmp.refusePublish('No show has this key.');
    const [, , , info] = output.commands().at(-1)!;
    expect(info).toEqual({
      level: 'error',
      code: 'NetStream.Publish.BadName',
      description: 'No show has this key.',
    });
  });

  it('ignores media before a publish, and reports a play', () => {
    const { rtmp, events, media: packets, handshake } = connection();
    handshake(media(9, 0, '1701000000'));
    expect(packets).toEqual([]);
    expect(rtmp.receive(commandChunks(1, ['play', 0, null, 'x']))).toBeNull();
    expect(events).toEqual(['play']);
  });

  it('refuses a publish without a stream name', () => {
    const { rtmp, output, handshake } = connection();
    handshake();
    expect(rtmp.receive(commandChunks(1, ['publish', 5, null, '', 'live']))).toMatch(/without a stream name/);
    expect(output.statusCodes()).toEqual(['NetStream.Publish.BadName']);
  });

  it('answers a ping, and acknowledges the peer’s window of bytes', () => {
    const { rtmp, output, handshake } = connection();
    handshake(
      encodeMessageChunks(
        {
          chunkStreamId: 2,
          typeId: RTMP_MESSAGE.userControl,
          streamId: 0,
          timestamp: 0,
          payload: Buffer.from('00060000abcd', 'hex'),
        },
        128,
      ),
    );
    expect(output.messages.at(-1)?.payload.toString('hex')).toBe('00070000abcd');
    const window = Buffer.alloc(4);
    window.writeUInt32BE(5000);
    rtmp.receive(
      encodeMessageChunks(
        {
          chunkStreamId: 2,
          typeId: RTMP_MESSAGE.windowAcknowledgementSize,
          streamId: 0,
          timestamp: 0,
          payload: window,
        },
        128,
      ),
    );
    const acks = () => output.messages.filter((message) => message.typeId === RTMP_MESSAGE.acknowledgement);
    // The handshake's 3073 bytes and a few messages: under the window yet.
    expect(acks()).toHaveLength(0);
    rtmp.receive(media(8, 0, '2f'.repeat(1000)));
    expect(acks()).toHaveLength(0);
    rtmp.receive(media(8, 0, '2f'.repeat(2000)));
    expect(acks()).toHaveLength(1);
    // The sequence number counts every byte received, the handshake's too.
    expect(acks()[0]!.payload.readUInt32BE(0)).toBeGreaterThan(1 + 2 * RTMP_HANDSHAKE_SIZE + 3000);
    rtmp.receive(media(8, 0, '2f'.repeat(5000)));
    expect(acks()).toHaveLength(2);
  });

  it('closes on an AMF0 command that runs past its message', () => {
    const { rtmp, handshake } = connection();
    handshake();
    const truncated = Buffer.concat([encodeAmf0('connect', 1), Buffer.from('0300036170700200ff6c69', 'hex')]);
    const message = encodeMessageChunks(
      { chunkStreamId: 3, typeId: RTMP_MESSAGE.amf0Command, streamId: 0, timestamp: 0, payload: truncated },
      128,
    );
    expect(rtmp.receive(message)).toMatch(/runs past the end of its message/);
  });

  it('closes on a chunk stream whose first chunk is format 3, and on an absurd chunk size', () => {
    const first = connection();
    first.handshake();
    expect(first.rtmp.receive(Buffer.concat([encodeChunkHeader(3, 9, {}), Buffer.alloc(20)]))).toMatch(
      /chunk stream 9 starts with a format-3 chunk/,
    );
    const second = connection();
    second.handshake();
    const size = Buffer.alloc(4);
    size.writeUInt32BE(0x7fffffff);
    expect(
      second.rtmp.receive(
        encodeMessageChunks({ chunkStreamId: 2, typeId: 1, streamId: 0, timestamp: 0, payload: size }, 128),
      ),
    ).toMatch(/chunk size of 2147483647/);
  });
});
