import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type MediaStreamTrack,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  type RTCRtpTransceiver,
  type RtpPacket,
} from 'werift';
import type { WhipVideoCodec } from './whip-offer.ts';

/** How often the publisher is asked for a keyframe: a keyframe a second makes 1-second segments. */
export const WHIP_KEYFRAME_REQUEST_MS = 1000;

/**
 * A publisher that sends no media for this long is gone (its process died, its network
 * dropped) even though no DELETE came and ICE has not timed out yet (that takes ~30 s).
 */
export const WHIP_MEDIA_TIMEOUT_MS = 5000;
/** The wait for the first media: ICE and DTLS come first. */
const WHIP_FIRST_MEDIA_TIMEOUT_MS = 15_000;

/** How long the answer waits for host candidates (no trickle: the answer carries them all). */
const ICE_GATHERING_TIMEOUT_MS = 5000;

/** Payload types of the SDP ffmpeg reads; forwarded packets are rewritten to them. */
const FFMPEG_VIDEO_PAYLOAD_TYPE = 96;
const FFMPEG_AUDIO_PAYLOAD_TYPE = 111;

/**
 * Where a publish's RTP goes: two loopback UDP ports ffmpeg reads through an SDP file
 * (`-protocol_whitelist file,udp,rtp -i <sdpPath>`). Prepared before the offer is answered, so
 * the live pipeline can refuse the key before any WebRTC work is done.
 */
export interface RtpInput {
  sdpPath: string;
  videoPort: number;
  audioPort: number;
  videoCodec: WhipVideoCodec;
  hasAudio: boolean;
  /** Removes the SDP file. */
  dispose(): void;
}

/** Picks the loopback ports and writes ffmpeg's SDP file for one publish. */
export async function prepareRtpInput(videoCodec: WhipVideoCodec, hasAudio: boolean): Promise<RtpInput> {
  const [videoPort, audioPort] = await freeRtpPorts();
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-whip-'));
  const sdpPath = join(dir, 'input.sdp');
  writeFileSync(sdpPath, ffmpegSdp({ videoCodec, videoPort, audio: hasAudio ? audioPort : null }));
  return {
    sdpPath,
    videoPort,
    audioPort,
    videoCodec,
    hasAudio,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface WhipSession {
  answerSdp: string;
  /** Bytes and packets received so far. */
  received(): { videoBytes: number; videoPackets: number; audioPackets: number };
  /** Resolves when the peer goes away (closed, failed, or ended by `close`). */
  ended: Promise<void>;
  close(): Promise<void>;
}

export interface WhipSessionOptions {
  offerSdp: string;
  input: RtpInput;
  /** Extra host addresses to offer as candidates (the loopback, for a publisher on this machine). */
  extraHostAddresses?: string[];
  /** UDP port range of ICE, so a firewall can open exactly it. */
  icePortRange?: [number, number];
}

const VIDEO_FEEDBACK = [
  { type: 'nack' },
  { type: 'nack', parameter: 'pli' },
  { type: 'ccm', parameter: 'fir' },
];

/** The codecs the answer accepts: only what the packager takes (H.264 first, so a publisher offering both sends it). */
function codecsFor(videoCodec: WhipVideoCodec) {
  const h264 = new RTCRtpCodecParameters({
    mimeType: 'video/H264',
    clockRate: 90000,
    rtcpFeedback: VIDEO_FEEDBACK,
    parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
  });
  const vp8 = new RTCRtpCodecParameters({
    mimeType: 'video/VP8',
    clockRate: 90000,
    rtcpFeedback: VIDEO_FEEDBACK,
  });
  const opus = new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 });
  return { video: videoCodec === 'H264' ? [h264] : [vp8], audio: [opus] };
}

/**
 * Answers a WHIP offer with werift and forwards the publisher's RTP (payload type rewritten to
 * the SDP's) to the loopback ports of `input`, which ffmpeg reads — the packager copies H.264 and
 * transcodes only Opus to AAC. RTP sent before ffmpeg binds is lost, which is harmless: a
 * keyframe is requested every second (and a restarted ffmpeg gets one within a second).
 */
export async function openWhipSession(options: WhipSessionOptions): Promise<WhipSession> {
  const { input } = options;
  const pc = new RTCPeerConnection({
    codecs: codecsFor(input.videoCodec),
    bundlePolicy: 'max-bundle',
    iceAdditionalHostAddresses: options.extraHostAddresses,
    icePortRange: options.icePortRange,
  });
  const socket = createSocket('udp4');
  socket.on('error', () => {
    // Forwarding is best effort: a closed ffmpeg port must not take the server down.
  });
  const counts = { videoBytes: 0, videoPackets: 0, audioPackets: 0 };
  const opened = Date.now();
  let lastMediaAt = 0;
  const timers: NodeJS.Timeout[] = [];
  let closed = false;
  let resolveEnded = () => {};
  const ended = new Promise<void>((resolve) => {
    resolveEnded = resolve;
  });
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const timer of timers) clearInterval(timer);
    // An RTCP BYE on each stream tells ffmpeg its input ended (EOF once every stream said BYE):
    // it closes its last segment at once. Without it ffmpeg blocks on the silent socket, deaf to
    // `q` and to a first SIGINT, until it is killed. A compound packet (an empty receiver report,
    // then the BYE), since ffmpeg ignores RTP/RTCP datagrams shorter than 12 bytes.
    const bye = Buffer.from([0x80, 0xc9, 0x00, 0x01, 0, 0, 0, 1, 0x81, 0xcb, 0x00, 0x01, 0, 0, 0, 1]);
    await Promise.all(
      [input.videoPort, ...(input.hasAudio ? [input.audioPort] : [])].map(
        (port) => new Promise<void>((resolve) => socket.send(bye, port + 1, '127.0.0.1', () => resolve())),
      ),
    );
    socket.close();
    await pc.close().catch(() => {});
    resolveEnded();
  };
  pc.connectionStateChange.subscribe((state) => {
    if (state === 'failed' || state === 'closed') void close();
  });

  pc.onTransceiverAdded.subscribe((transceiver: RTCRtpTransceiver) => {
    transceiver.setDirection?.('recvonly');
    transceiver.onTrack.subscribe((track: MediaStreamTrack) => {
      const isVideo = track.kind === 'video';
      track.onReceiveRtp.subscribe((rtp: RtpPacket) => {
        if (closed) return;
        lastMediaAt = Date.now();
        if (isVideo) {
          counts.videoPackets += 1;
          counts.videoBytes += rtp.payload.length;
        } else counts.audioPackets += 1;
        rtp.header.payloadType = isVideo ? FFMPEG_VIDEO_PAYLOAD_TYPE : FFMPEG_AUDIO_PAYLOAD_TYPE;
        forward(socket, rtp.serialize(), isVideo ? input.videoPort : input.audioPort);
      });
      if (isVideo) {
        const askKeyframe = () => {
          if (track.ssrc !== undefined) transceiver.receiver.sendRtcpPLI(track.ssrc).catch(() => {});
        };
        askKeyframe();
        timers.push(setInterval(askKeyframe, WHIP_KEYFRAME_REQUEST_MS));
      }
    });
  });

  timers.push(
    setInterval(() => {
      const silent = lastMediaAt
        ? Date.now() - lastMediaAt > WHIP_MEDIA_TIMEOUT_MS
        : Date.now() - opened > WHIP_FIRST_MEDIA_TIMEOUT_MS;
      if (silent) void close();
    }, 1000),
  );
  try {
    await pc.setRemoteDescription({ type: 'offer', sdp: options.offerSdp });
    const answer = await pc.createAnswer();
    await pc.setLocalDescription(answer);
    await iceGatheringComplete(pc);
  } catch (error) {
    await close();
    throw error;
  }
  const answerSdp = pc.localDescription?.sdp;
  if (!answerSdp) {
    await close();
    throw new Error('werift produced no answer');
  }
  return {
    answerSdp,
    received: () => ({ ...counts }),
    ended,
    close,
  };
}

function forward(socket: Socket, packet: Buffer, port: number): void {
  try {
    socket.send(packet, port, '127.0.0.1');
  } catch {
    // The socket closed under a late packet: nothing to forward to any more.
  }
}

function iceGatheringComplete(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ICE_GATHERING_TIMEOUT_MS);
    pc.iceGatheringStateChange.subscribe((state) => {
      if (state !== 'complete') return;
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The SDP ffmpeg reads the forwarded RTP with. */
function ffmpegSdp(streams: { videoCodec: WhipVideoCodec; videoPort: number; audio: number | null }): string {
  const video = FFMPEG_VIDEO_PAYLOAD_TYPE;
  const audio = FFMPEG_AUDIO_PAYLOAD_TYPE;
  const lines = ['v=0', 'o=- 0 0 IN IP4 127.0.0.1', 's=vitrine whip', 'c=IN IP4 127.0.0.1', 't=0 0'];
  lines.push(`m=video ${streams.videoPort} RTP/AVP ${video}`);
  if (streams.videoCodec === 'H264') {
    lines.push(`a=rtpmap:${video} H264/90000`);
    lines.push(`a=fmtp:${video} packetization-mode=1`);
  } else lines.push(`a=rtpmap:${video} VP8/90000`);
  if (streams.audio !== null) {
    lines.push(`m=audio ${streams.audio} RTP/AVP ${audio}`);
    lines.push(`a=rtpmap:${audio} opus/48000/2`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Even UDP ports whose next port is free too: ffmpeg binds RTP on the port and RTCP on the next.
 * Probed by binding, then released for ffmpeg.
 */
async function freeRtpPorts(): Promise<[number, number]> {
  const ports: number[] = [];
  while (ports.length < 2) {
    const probe = await bindUdp(0);
    const port = probe.address().port;
    probe.close();
    const even = port % 2 === 0 ? port : port + 1;
    if (even + 1 > 65535 || ports.includes(even)) continue;
    const pair = await Promise.all([bindUdp(even).catch(() => null), bindUdp(even + 1).catch(() => null)]);
    for (const socket of pair) socket?.close();
    if (pair.every((socket) => socket !== null)) ports.push(even);
  }
  return [ports[0] ?? 0, ports[1] ?? 0];
}

function bindUdp(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
    socket.once('error', reject);
    socket.bind(port, '127.0.0.1', () => resolve(socket));
  });
}
