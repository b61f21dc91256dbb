/**
 * The little of `node-media-server` (4.x) the RTMP ingest uses: its RTMP protocol parser and FLV
 * tag writer. The package ships JavaScript without type declarations.
 */
declare module 'node-media-server/src/core/avpacket.js' {
  /** One media message; `flags`: 0 audio header, 1 audio, 2 video header, 3 keyframe, 4 frame, 5 metadata. */
  export default class AVPacket {
    codec_id: number;
    codec_type: number;
    flags: number;
    pts: number;
    dts: number;
    size: number;
    data: Buffer;
  }
}

declare module 'node-media-server/src/protocol/rtmp.js' {
  import type AVPacket from 'node-media-server/src/core/avpacket.js';

  /** The RTMP handshake and chunk stream of one connection, as callbacks. */
  export default class Rtmp {
    streamApp: string;
    streamName: string;
    streamId: number;
    onConnectCallback: (request: { app: string; name: string; host: string; query: unknown }) => void;
    onPlayCallback: () => void;
    onPushCallback: () => void;
    onPacketCallback: (packet: AVPacket) => void;
    onOutputCallback: (buffer: Buffer) => void;
    /** Feeds bytes from the socket; answers an error text when they make no sense. */
    parserData(buffer: Buffer): string | null;
    respondPublish(): void;
    respondPlay(): void;
    sendStatusMessage(streamId: number, level: string, code: string, description: string): void;
  }
}

declare module 'node-media-server/src/protocol/amf.js' {
  /** Decodes an AMF0 data message (`@setDataFrame`/`onMetaData`): `dataObj` holds the metadata. */
  export function decodeAmf0Data(data: Buffer): { cmd?: string; dataObj?: unknown };
}

declare module 'node-media-server/src/protocol/flv.js' {
  import type AVPacket from 'node-media-server/src/core/avpacket.js';

  // biome-ignore lint/complexity/noStaticOnlyClass: declares the package's own class as it is
  export default class Flv {
    static createHeader(hasAudio: boolean, hasVideo: boolean): Buffer;
    /** An FLV tag (with its trailing previous-tag size) of a packet. */
    static createMessage(packet: AVPacket): Buffer;
  }
}
