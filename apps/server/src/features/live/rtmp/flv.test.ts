import { describe, expect, it } from 'vitest';
import { Amf0EcmaArray, amf0Fields, decodeAmf0, encodeAmf0 } from './amf0.ts';
import { classifyMedia, flvFileHeader, flvTag, metadataPacket } from './flv.ts';

describe('FLV', () => {
  it('writes the file header and the first previous tag size', () => {
    expect(flvFileHeader(true, true).toString('hex')).toBe('464c5601' + '05' + '00000009' + '00000000');
    expect(flvFileHeader(false, true)[4]).toBe(0x01);
    expect(flvFileHeader(true, false)[4]).toBe(0x04);
  });

  it('writes a tag: 24-bit size, the timestamp’s lower 24 bits then its upper 8, stream 0, previous tag size', () => {
    const data = Buffer.from('17000000000102', 'hex');
    const tag = flvTag({ tagType: 9, kind: 'keyframe', codecId: 7, timestamp: 0x12345678, data });
    expect(tag.toString('hex')).toBe(
      `09 000007 345678 12 000000 ${data.toString('hex')} 00000012`.replaceAll(' ', ''),
    );
    expect(tag.length).toBe(11 + data.length + 4);
    expect(tag.readUInt32BE(tag.length - 4)).toBe(11 + data.length);
    const small = flvTag({ tagType: 8, kind: 'audio', codecId: 10, timestamp: 40, data: Buffer.of(0xaf, 1) });
    expect(small.toString('hex')).toBe('08 000002 000028 00 000000 af01 0000000d'.replaceAll(' ', ''));
  });

  it('tells stream headers, keyframes and frames apart', () => {
    const kind = (tagType: 8 | 9, hex: string) => classifyMedia(tagType, Buffer.from(hex, 'hex'), 0)?.kind;
    // AAC: its AudioSpecificConfig, then raw frames; MP3 has no header.
    expect(kind(8, 'af00')).toBe('audio-header');
    expect(kind(8, 'af01')).toBe('audio');
    expect(kind(8, '2f00')).toBe('audio');
    // H.264: the decoder configuration, a keyframe, an inter frame.
    expect(kind(9, '1700000000')).toBe('video-header');
    expect(kind(9, '1701000000')).toBe('keyframe');
    expect(kind(9, '2701000000')).toBe('video');
    // Sorenson H.263 (FLV1) frames say a keyframe in their frame type only.
    expect(kind(9, '12')).toBe('keyframe');
    expect(kind(9, '22')).toBe('video');
    // Enhanced RTMP: the extended header bit, a packet type and a FourCC.
    expect(kind(9, `90${Buffer.from('hvc1').toString('hex')}`)).toBe('video-header');
    expect(kind(9, `91${Buffer.from('hvc1').toString('hex')}`)).toBe('keyframe');
    expect(kind(9, `a3${Buffer.from('av01').toString('hex')}`)).toBe('video');
    expect(classifyMedia(9, Buffer.from(`91${Buffer.from('avc1').toString('hex')}`, 'hex'), 0)?.codecId).toBe(
      7,
    );
    expect(classifyMedia(9, Buffer.from(`91${Buffer.from('hvc1').toString('hex')}`, 'hex'), 0)?.codecId).toBe(
      12,
    );
    expect(kind(8, '90')).toBe('audio-header');
    expect(kind(8, '91')).toBe('audio');
    expect(classifyMedia(9, Buffer.alloc(0), 0)).toBeNull();
  });

  it('turns @setDataFrame onMetaData into an onMetaData script tag, and ignores other data', () => {
    const metadata = new Amf0EcmaArray({ width: 1280, height: 720, framerate: 30 });
    const packet = metadataPacket(encodeAmf0('@setDataFrame', 'onMetaData', metadata));
    expect(packet?.kind).toBe('metadata');
    expect(packet?.tagType).toBe(18);
    expect(packet?.timestamp).toBe(0);
    const [name, fields] = decodeAmf0(packet!.data);
    expect(name).toBe('onMetaData');
    expect(amf0Fields(fields!)).toEqual({ width: 1280, height: 720, framerate: 30 });
    expect(metadataPacket(encodeAmf0('onMetaData', { width: 1 }))?.kind).toBe('metadata');
    expect(metadataPacket(encodeAmf0('onTextData', { text: 'x' }))).toBeNull();
    expect(metadataPacket(encodeAmf0('@setDataFrame'))).toBeNull();
  });
});
