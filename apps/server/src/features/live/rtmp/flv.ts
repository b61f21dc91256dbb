/**
 * FLV (Adobe's Video File Format Specification 10.1, annex E, and the enhanced RTMP/FLV
 * extension): what an RTMP publisher's audio (8), video (9) and data (18) messages are as FLV
 * tags, for ffmpeg to read on its stdin (`-f flv -i pipe:0`).
 */
import { type Amf0Value, decodeAmf0, encodeAmf0 } from './amf0.ts';

export const FLV_TAG_AUDIO = 8;
export const FLV_TAG_VIDEO = 9;
export const FLV_TAG_SCRIPT = 18;

/** What a media packet is to the feed: a stream header, a frame (a keyframe or not), or metadata. */
export type FlvPacketKind = 'audio-header' | 'audio' | 'video-header' | 'keyframe' | 'video' | 'metadata';

/** One publisher's media message, as an FLV tag's content. */
export interface FlvPacket {
  tagType: typeof FLV_TAG_AUDIO | typeof FLV_TAG_VIDEO | typeof FLV_TAG_SCRIPT;
  kind: FlvPacketKind;
  /**
   * Video: FLV's codec id (7: H.264; enhanced RTMP's FourCCs map to 7 for avc1, 12 hvc1, 13 av01,
   * 14 vp09, 15 other). Audio: the sound format (10: AAC). Null for metadata.
   */
  codecId: number | null;
  /** The decoding timestamp in milliseconds (modulo 2^32), as the RTMP message had it. */
  timestamp: number;
  data: Buffer;
}

/** The sound format of enhanced RTMP's extended audio header, and its packet type of a header. */
const AUDIO_EX_HEADER = 9;
const AUDIO_AAC = 10;
/** Enhanced RTMP's video header bit; its packet types of a stream header. */
const VIDEO_EX_HEADER = 0x80;
const VIDEO_PACKET_SEQUENCE_START = 0;
const VIDEO_PACKET_MPEG2TS_SEQUENCE_START = 5;
const VIDEO_FRAME_KEY = 1;
/** The legacy codec ids whose second byte is a packet type (0: the decoder configuration). */
const VIDEO_AVC = 7;
const VIDEO_HEVC_LEGACY = 12;
const FOURCC_CODEC: Record<string, number> = { avc1: 7, hvc1: 12, av01: 13, vp09: 14 };

/** What an audio or video message is; null for an empty one (nothing to forward). */
export function classifyMedia(tagType: 8 | 9, data: Buffer, timestamp: number): FlvPacket | null {
  const first = data[0];
  if (first === undefined) return null;
  if (tagType === FLV_TAG_AUDIO) {
    const soundFormat = first >> 4;
    const header =
      (soundFormat === AUDIO_AAC && data[1] === 0) ||
      (soundFormat === AUDIO_EX_HEADER && (first & 0x0f) === 0);
    return { tagType, kind: header ? 'audio-header' : 'audio', codecId: soundFormat, timestamp, data };
  }
  if (first & VIDEO_EX_HEADER) {
    const frameType = (first >> 4) & 0x07;
    const packetType = first & 0x0f;
    const fourCc = data.toString('latin1', 1, 5);
    const codecId = FOURCC_CODEC[fourCc] ?? 15;
    const header =
      packetType === VIDEO_PACKET_SEQUENCE_START || packetType === VIDEO_PACKET_MPEG2TS_SEQUENCE_START;
    const kind = header ? 'video-header' : frameType === VIDEO_FRAME_KEY ? 'keyframe' : 'video';
    return { tagType, kind, codecId, timestamp, data };
  }
  const frameType = first >> 4;
  const codecId = first & 0x0f;
  const header = (codecId === VIDEO_AVC || codecId === VIDEO_HEVC_LEGACY) && data[1] === 0;
  const kind = header ? 'video-header' : frameType === VIDEO_FRAME_KEY ? 'keyframe' : 'video';
  return { tagType, kind, codecId, timestamp, data };
}

/**
 * The metadata of a data message (`@setDataFrame`, `onMetaData`, {…}, as encoders send it, or
 * `onMetaData`, {…}) as an FLV script tag's content (`onMetaData`, {…}); null for any other data
 * message (cue points, text). Throws an `Amf0Error` for AMF0 that makes no sense. Its timestamp
 * is 0, wherever the publisher placed it (GStreamer: a few milliseconds in): ffmpeg's FLV
 * demuxer takes an onMetaData tag at any other time for a subtitle packet.
 */
export function metadataPacket(payload: Buffer): FlvPacket | null {
  let values: Amf0Value[] = decodeAmf0(payload);
  if (values[0] === '@setDataFrame') values = values.slice(1);
  if (values[0] !== 'onMetaData' || values.length < 2) return null;
  return {
    tagType: FLV_TAG_SCRIPT,
    kind: 'metadata',
    codecId: null,
    timestamp: 0,
    data: encodeAmf0('onMetaData', values[1]),
  };
}

/** FLV's file header (signature, version 1, which streams there are) and the first previous tag size (0). */
export function flvFileHeader(hasAudio: boolean, hasVideo: boolean): Buffer {
  const header = Buffer.alloc(13);
  header.write('FLV', 0, 'latin1');
  header.writeUInt8(1, 3);
  header.writeUInt8((hasAudio ? 0x04 : 0) | (hasVideo ? 0x01 : 0), 4);
  header.writeUInt32BE(9, 5);
  header.writeUInt32BE(0, 9);
  return header;
}

/**
 * One FLV tag and the previous tag size after it: type, 24-bit data size, the timestamp's lower 24
 * bits then its upper 8 (the extended byte), stream id 0, the data, then 11 + the data size.
 */
export function flvTag(packet: FlvPacket): Buffer {
  const size = packet.data.length;
  const head = Buffer.alloc(11);
  head.writeUInt8(packet.tagType, 0);
  head.writeUIntBE(size, 1, 3);
  const timestamp = packet.timestamp >>> 0;
  head.writeUIntBE(timestamp & 0xffffff, 4, 3);
  head.writeUInt8(timestamp >>> 24, 7);
  head.writeUIntBE(0, 8, 3);
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(11 + size);
  return Buffer.concat([head, packet.data, trailer]);
}
