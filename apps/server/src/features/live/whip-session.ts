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
import { openRtspFeed, type RtspFeed } from './rtsp-feed.ts';
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
/**
 * A packager run fed nothing for this long is ended: its ffmpeg reads the end of its input and
 * exits instead of waiting on (the publisher sends, but no keyframe came; ffmpeg stopped reading).
 * Its run may start while ICE and DTLS are still under way, so the bound is the wait for the
 * first media and a keyframe. A publisher silent for WHIP_MEDIA_TIMEOUT_MS has ended the publish
 * ("publisher gone"), and with it the feed, long before.
 */
const WHIP_INPUT_TIMEOUT_MS = WHIP_FIRST_MEDIA_TIMEOUT_MS + 2 * WHIP_KEYFRAME_REQUEST_MS;
/** ffmpeg's own read timeout (`-timeout`) is later: the backstop for a server that cannot end the feed. */
const FFMPEG_READ_TIMEOUT_EXTRA_MS = 3000;

/** How long the answer waits for host candidates (no trickle: the answer carries them all). */
const ICE_GATHERING_TIMEOUT_MS = 5000;

/** Payload types of the SDP ffmpeg reads; forwarded packets are rewritten to them. */
const FFMPEG_VIDEO_PAYLOAD_TYPE = 96;
const FFMPEG_AUDIO_PAYLOAD_TYPE = 111;

/**
 * Where a publish's RTP goes: a loopback RTSP server of the publish (rtsp-feed.ts) that each
 * ffmpeg run connects to and reads the RTP from, interleaved on its TCP connection
 * (`-rtsp_transport tcp -i rtsp://127.0.0.1:…`). It listens before any ffmpeg starts, and a run's
 * PLAY request says that its ffmpeg is ready: nothing is sent before, nothing after is lost.
 * Prepared before the offer is answered, so the live pipeline can refuse the key before any
 * WebRTC work is done.
 */
export interface RtpInput {
  videoCodec: WhipVideoCodec;
  hasAudio: boolean;
  /**
   * Opens the input for one packager run (the first, and each restart; an earlier run's feed is
   * ended). Its program date times start when the run's first frame arrived, so the run knows
   * exactly which frame that is: nothing is forwarded until its ffmpeg asked to PLAY, then
   * forwarding starts at a keyframe (ffmpeg counts RTP time from the first packet it receives).
   */
  openRun(): PublishInputRun;
  /**
   * Takes a received RTP packet onto the ingest clock; answers whether it goes to the current
   * run's ffmpeg.
   */
  admit(kind: 'video' | 'audio', rtp: RtpPacket, arrivedAt: number): boolean;
  /** Sends an admitted packet (its payload type rewritten to the SDP's) to the current run's ffmpeg. */
  forward(kind: 'video' | 'audio', packet: Uint8Array): void;
  /** Asks the publisher for a keyframe (set by the session): a run that starts playing wants one. */
  requestKeyframe: () => void;
  /**
   * Ends the feed of the current run: its ffmpeg reads the end of its input, closes its last
   * segment at once and exits. A later run is fed again.
   */
  end(): void;
  /** Stops the RTSP server. */
  dispose(): void;
}

/** One packager run of a WHIP publish: what it was sent so far. */
interface RtpRun {
  /** Its ffmpeg asked to PLAY: what is sent now is received. */
  playing: boolean;
  /** The media time of the keyframe forwarding started at, once it did. */
  firstVideoMediaMs: number | null;
}

/**
 * Opens the loopback RTSP server ffmpeg reads one publish's RTP from. `inputTimeoutMs`: how long
 * a run is fed nothing before it is ended (WHIP_INPUT_TIMEOUT_MS; tests shorten it).
 */
export async function prepareRtpInput(
  videoCodec: WhipVideoCodec,
  hasAudio: boolean,
  options: { inputTimeoutMs?: number } = {},
): Promise<RtpInput> {
  const idleMs = options.inputTimeoutMs ?? WHIP_INPUT_TIMEOUT_MS;
  const feed: RtspFeed = await openRtspFeed({
    describe: (controls) => ffmpegSdp({ videoCodec, controls, audio: hasAudio }),
    streams: hasAudio ? 2 : 1,
    idleMs,
  });
  const readTimeoutMicroseconds = (idleMs + FFMPEG_READ_TIMEOUT_EXTRA_MS) * 1000;
  let clock: IngestClock = startIngestClock(RTP_VIDEO_TIMESTAMPS);
  let run: RtpRun | null = null;
  let runs = 0;
  const input: RtpInput = {
    videoCodec,
    hasAudio,
    openRun() {
      const opened: RtpRun = { playing: false, firstVideoMediaMs: null };
      run = opened;
      runs += 1;
      const id = `run${runs}`;
      feed.feed(id, () => {
        if (run !== opened) return;
        opened.playing = true;
        input.requestKeyframe();
      });
      return {
        // ffmpeg counts each RTP stream's time from the first packet it receives: with the
        // timestamps kept, the output's zero is the keyframe forwarding started at.
        args: [
          '-copyts',
          '-rtsp_transport',
          'tcp',
          '-timeout',
          String(readTimeoutMicroseconds),
          '-i',
          feed.runUrl(id),
        ],
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
      if (!run?.playing) return false;
      if (run.firstVideoMediaMs === null) {
        // Audio waits for the picture too, so both of ffmpeg's RTP clocks start together.
        if (kind !== 'video' || !rtpStartsKeyframe(videoCodec, rtp.payload)) return false;
        run.firstVideoMediaMs = mediaMs;
      }
      return true;
    },
    forward(kind, packet) {
      feed.send(kind === 'video' ? 0 : 1, packet);
    },
    requestKeyframe: () => {},
    end() {
      if (run) run.playing = false;
      run = null;
      feed.end();
    },
    dispose() {
      run = null;
      void feed.close();
    },
  };
  return input;
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
 * the SDP's) to `input`, which ffmpeg reads — the packager copies H.264 and transcodes only Opus
 * to AAC. What each packager run gets starts at a keyframe once its ffmpeg asked to PLAY
 * (`RtpInput.openRun`): one is requested then, and every second.
 */
export async function openWhipSession(options: WhipSessionOptions): Promise<WhipSession> {
  const { input } = options;
  const pc = new RTCPeerConnection({
    codecs: codecsFor(input.videoCodec),
    bundlePolicy: 'max-bundle',
    iceAdditionalHostAddresses: options.extraHostAddresses,
    icePortRange: options.icePortRange,
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
    // Whoever waits on `ended` (the routes end the publish: "publisher gone") hears it first;
    // then the end of the feed tells ffmpeg its input ended: it closes its last segment at once.
    resolveEnded();
    input.end();
    await pc.close().catch(() => {});
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
        input.forward(isVideo ? 'video' : 'audio', rtp.serialize());
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

/**
 * The SDP ffmpeg reads the forwarded RTP with (the RTSP server's DESCRIBE answer): each stream
 * named by its control, which ffmpeg sets up on its own connection.
 */
function ffmpegSdp(streams: { videoCodec: WhipVideoCodec; controls: string[]; audio: boolean }): string {
  const video = FFMPEG_VIDEO_PAYLOAD_TYPE;
  const audio = FFMPEG_AUDIO_PAYLOAD_TYPE;
  const lines = ['v=0', 'o=- 0 0 IN IP4 127.0.0.1', 's=vitrine whip', 'c=IN IP4 127.0.0.1', 't=0 0'];
  lines.push(`m=video 0 RTP/AVP ${video}`);
  if (streams.videoCodec === 'H264') {
    lines.push(`a=rtpmap:${video} H264/90000`);
    lines.push(`a=fmtp:${video} packetization-mode=1`);
  } else lines.push(`a=rtpmap:${video} VP8/90000`);
  lines.push(`a=control:${streams.controls[0]}`);
  if (streams.audio) {
    lines.push(`m=audio 0 RTP/AVP ${audio}`);
    lines.push(`a=rtpmap:${audio} opus/48000/2`);
    lines.push(`a=control:${streams.controls[1]}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}
