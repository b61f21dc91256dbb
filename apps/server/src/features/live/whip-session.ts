import { createSocket, type Socket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type IngestClock,
  ingestFrameArrived,
  ingestWallClock,
  RTP_VIDEO_TIMESTAMPS,
  startIngestClock,
} from '@vitrine/domain';
import {
  type MediaStreamTrack,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  type RTCRtpTransceiver,
  type RtpPacket,
} from 'werift';
import type { PublishInputRun } from './publish-session.ts';
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

/** How often the kernel's socket table is read while waiting for a packager run's ffmpeg to listen. */
const LISTEN_POLL_MS = 10;
/** After this long without seeing ffmpeg listen (no /proc?), forwarding starts anyway. */
const LISTEN_WAIT_MS = 10_000;

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
  /**
   * Opens the input for one packager run (the first, and each restart). Its program date times
   * start when the run's first frame arrived, so the run knows exactly which frame that is:
   * nothing is forwarded until its ffmpeg listens, then forwarding starts at a keyframe (ffmpeg
   * counts RTP time from the first packet it receives).
   */
  openRun(): PublishInputRun;
  /**
   * Takes a received RTP packet onto the ingest clock; answers whether it goes to the current
   * run's ffmpeg.
   */
  admit(kind: 'video' | 'audio', rtp: RtpPacket, arrivedAt: number): boolean;
  /** Asks the publisher for a keyframe (set by the session): a run that starts listening wants one. */
  requestKeyframe: () => void;
  /** Removes the SDP file. */
  dispose(): void;
}

/** One packager run of a WHIP publish: what it was sent so far. */
interface RtpRun {
  /** Its ffmpeg bound the ports: what is sent now is received. */
  listening: boolean;
  /** The media time of the keyframe forwarding started at, once it did. */
  firstVideoMediaMs: number | null;
}

/** Picks the loopback ports and writes ffmpeg's SDP file for one publish. */
export async function prepareRtpInput(videoCodec: WhipVideoCodec, hasAudio: boolean): Promise<RtpInput> {
  const [videoPort, audioPort] = await freeRtpPorts();
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-whip-'));
  const sdpPath = join(dir, 'input.sdp');
  writeFileSync(sdpPath, ffmpegSdp({ videoCodec, videoPort, audio: hasAudio ? audioPort : null }));
  let clock: IngestClock = startIngestClock(RTP_VIDEO_TIMESTAMPS);
  let run: RtpRun | null = null;
  let disposed = false;
  const ports = hasAudio ? [videoPort, audioPort] : [videoPort];
  const input: RtpInput = {
    sdpPath,
    videoPort,
    audioPort,
    videoCodec,
    hasAudio,
    openRun() {
      const opened: RtpRun = { listening: false, firstVideoMediaMs: null };
      run = opened;
      void whenListening(ports, () => disposed || run !== opened).then(() => {
        if (run !== opened) return;
        opened.listening = true;
        input.requestKeyframe();
      });
      return {
        // ffmpeg counts each RTP stream's time from the first packet it receives: with the
        // timestamps kept, the output's zero is the keyframe forwarding started at.
        args: ['-copyts', '-protocol_whitelist', 'file,udp,rtp', '-i', sdpPath],
        wallClockAt: (inputSeconds) => {
          if (opened.firstVideoMediaMs === null) return null;
          const first = ingestWallClock(clock, opened.firstVideoMediaMs);
          return first === null ? null : Math.round(first + inputSeconds * 1000);
        },
      };
    },
    admit(kind, rtp, arrivedAt) {
      let mediaMs = 0;
      if (kind === 'video') {
        const step = ingestFrameArrived(clock, rtp.header.timestamp, arrivedAt);
        clock = step.clock;
        mediaMs = step.mediaMs;
      }
      if (!run?.listening) return false;
      if (run.firstVideoMediaMs === null) {
        // Audio waits for the picture too, so both of ffmpeg's RTP clocks start together.
        if (kind !== 'video' || !rtpStartsKeyframe(videoCodec, rtp.payload)) return false;
        run.firstVideoMediaMs = mediaMs;
      }
      return true;
    },
    requestKeyframe: () => {},
    dispose: () => {
      disposed = true;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return input;
}

/**
 * Resolves once every port has a listening UDP socket (ffmpeg bound it), read from the kernel's
 * socket table; at once where there is none to read (not Linux), after LISTEN_WAIT_MS at most.
 */
async function whenListening(ports: number[], abandoned: () => boolean): Promise<void> {
  const wanted = ports.map((port) => `:${port.toString(16).toUpperCase().padStart(4, '0')} `);
  const deadline = Date.now() + LISTEN_WAIT_MS;
  while (Date.now() < deadline && !abandoned()) {
    const tables = await Promise.all(
      ['/proc/net/udp', '/proc/net/udp6'].map((path) => readFile(path, 'utf8').catch(() => null)),
    );
    if (tables.every((table) => table === null)) return;
    const local = tables
      .join('\n')
      .split('\n')
      .map((line) => line.trim().split(/\s+/)[1] ?? '');
    if (wanted.every((suffix) => local.some((address) => `${address} `.endsWith(suffix)))) return;
    await new Promise((resolve) => setTimeout(resolve, LISTEN_POLL_MS));
  }
}

/**
 * Whether an RTP payload is the first packet of a keyframe, where ffmpeg can start: H.264
 * (RFC 6184) a parameter set or the start of an IDR slice, alone, aggregated (STAP-A) or
 * fragmented (FU-A); VP8 (RFC 7741) the start of partition 0 of a key frame.
 */
export function rtpStartsKeyframe(codec: WhipVideoCodec, payload: Uint8Array): boolean {
  const first = payload[0];
  if (first === undefined) return false;
  if (codec === 'H264') {
    const startsPicture = (type: number) => type === 5 || type === 7;
    const type = first & 0x1f;
    if (type === 24) {
      // STAP-A: 16-bit sizes, each followed by a NAL unit.
      for (let at = 1; at + 2 < payload.length; ) {
        const size = ((payload[at] ?? 0) << 8) | (payload[at + 1] ?? 0);
        if (startsPicture((payload[at + 2] ?? 0) & 0x1f)) return true;
        at += 2 + size;
      }
      return false;
    }
    if (type === 28) {
      const header = payload[1] ?? 0;
      return (header & 0x80) !== 0 && startsPicture(header & 0x1f);
    }
    return startsPicture(type);
  }
  // VP8's payload descriptor, then the frame header's inverse key frame flag.
  const start = (first & 0x10) !== 0 && (first & 0x07) === 0;
  if (!start) return false;
  let at = 1;
  if (first & 0x80) {
    const extension = payload[1] ?? 0;
    at = 2;
    if (extension & 0x80) at += (payload[at] ?? 0) & 0x80 ? 2 : 1;
    if (extension & 0x40) at += 1;
    if (extension & 0x30) at += 1;
  }
  const header = payload[at];
  return header !== undefined && (header & 0x01) === 0;
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
 * transcodes only Opus to AAC. What each packager run gets starts at a keyframe once its ffmpeg
 * listens (`RtpInput.openRun`): one is requested then, and every second.
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
        if (!input.admit(isVideo ? 'video' : 'audio', rtp, lastMediaAt)) return;
        rtp.header.payloadType = isVideo ? FFMPEG_VIDEO_PAYLOAD_TYPE : FFMPEG_AUDIO_PAYLOAD_TYPE;
        forward(socket, rtp.serialize(), isVideo ? input.videoPort : input.audioPort);
      });
      if (isVideo) {
        const askKeyframe = () => {
          if (track.ssrc !== undefined) transceiver.receiver.sendRtcpPLI(track.ssrc).catch(() => {});
        };
        askKeyframe();
        input.requestKeyframe = askKeyframe;
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
