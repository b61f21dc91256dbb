import { createServer, type Server, type Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import {
  FLV_TIMESTAMPS,
  type IngestClock,
  ingestFrameArrived,
  ingestWallClockOfTimestamp,
  nextPackagerFeedStep,
  PACKAGER_FEED_FLOWING,
  type PackagerFeedState,
  type PublishedVideoFormat,
  startIngestClock,
} from '@vitrine/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { BeginPublish, PublishInputRun, PublishSession, PublishVideoCodec } from './publish-session.ts';
import { amf0Fields, decodeAmf0 } from './rtmp/amf0.ts';
import { FLV_TAG_VIDEO, type FlvPacket, flvFileHeader, flvTag } from './rtmp/flv.ts';
import { RtmpServerConnection } from './rtmp/rtmp-connection.ts';

/** The RTMP application publishers use: OBS's server is rtmp://<host>:<port>/live. */
export const RTMP_APP = 'live';
/** A connection that has not started publishing by then is closed (idle or not RTMP at all). */
const PUBLISH_DEADLINE_MS = 10_000;
/** A publisher silent this long is gone (it stopped sending without closing). */
const SILENCE_TIMEOUT_MS = 10_000;
/** How long to wait for the first video header before packaging what there is. */
const CODEC_WAIT_MS = 5_000;
/** FLV's codec id of H.264 (AVC), the one passed through. */
const FLV_CODEC_H264 = 7;
/** At most this many bytes wait in the packet cache (a group of pictures) for a restarted packager. */
const GOP_CACHE_MAX_BYTES = 16 * 1024 * 1024;

export interface RtmpIngest {
  /** The port it listens on (the one asked for, or the free one found for 0). */
  readonly port: number;
  close(): Promise<void>;
}

/** What a packager's feed reports of its back-pressure (the connection's handler logs and acts). */
export type FeedPressureEvent =
  | { kind: 'dropping'; lagMs: number; waitingBytes: number }
  | { kind: 'caught-up'; dropped: number }
  | { kind: 'gave-up'; lagMs: number; waitingBytes: number; dropped: number };

/**
 * One packager run's input: an FLV stream ffmpeg reads on its stdin. What ffmpeg has not read
 * yet waits here; each packet's end offset and the moment it was written tell how long the
 * oldest unread one has waited (how far the packager is behind real time), and
 * `nextPackagerFeedStep` decides whether the next packet is written.
 */
interface FeedSink {
  stream: PassThrough;
  /** Bytes written so far. */
  written: number;
  /** The end offset of each packet ffmpeg may not have read yet and when it was written, oldest first. */
  waiting: { end: number; at: number }[];
  state: PackagerFeedState;
  gaveUp: boolean;
}

/**
 * What a publisher sends, kept to start a packager at any time: the stream's headers and the
 * packets since the last keyframe (ffmpeg must start on one); and the ingest clock of its
 * timestamps (when they arrived), which places the packager's program date times.
 */
export class FlvFeed {
  metadata: FlvPacket | null = null;
  audioHeader: FlvPacket | null = null;
  videoHeader: FlvPacket | null = null;
  gop: FlvPacket[] = [];
  gopBytes = 0;
  sinks = new Set<FeedSink>();
  /** Told when a packager falls behind, catches up, or falls behind for good. */
  onPressure: (event: FeedPressureEvent) => void = () => {};
  hasVideo = false;
  /** FLV's codec id of the video (7: H.264), once a video packet came. */
  videoCodecId: number | null = null;
  /**
   * The ingest clocks of the video and of the audio, each from its own packets: the picture is
   * what program date times describe, and an encoder's audio timestamps may run apart from its
   * video's (one counting samples from a burst at its start runs ahead), which would drag a
   * shared clock. The audio's serves audio-only streams.
   */
  videoClock: IngestClock = startIngestClock(FLV_TIMESTAMPS);
  audioClock: IngestClock = startIngestClock(FLV_TIMESTAMPS);

  /**
   * Keeps and forwards a packet that arrived at `arrivedAt`; answers whether it is a video
   * keyframe.
   */
  add(packet: FlvPacket, arrivedAt: number): boolean {
    const video = packet.tagType === FLV_TAG_VIDEO;
    const header =
      packet.kind === 'audio-header' || packet.kind === 'video-header' || packet.kind === 'metadata';
    if (!header) {
      const step = ingestFrameArrived(video ? this.videoClock : this.audioClock, packet.timestamp, arrivedAt);
      if (video) this.videoClock = step.clock;
      else this.audioClock = step.clock;
    }
    if (video) {
      this.hasVideo = true;
      this.videoCodecId = packet.codecId;
    }
    const keyframe = packet.kind === 'keyframe';
    if (packet.kind === 'metadata') this.metadata = packet;
    else if (packet.kind === 'audio-header') this.audioHeader = packet;
    else if (packet.kind === 'video-header') this.videoHeader = packet;
    else if (keyframe) {
      this.gop = [packet];
      this.gopBytes = packet.data.length;
    } else {
      // Audio before the first keyframe is kept for audio-only streams.
      if (this.gop.length > 0 || !this.hasVideo) {
        this.gop.push(packet);
        this.gopBytes += packet.data.length;
        if (this.gopBytes > GOP_CACHE_MAX_BYTES) {
          this.gop = [];
          this.gopBytes = 0;
        }
      }
    }
    if (header) return keyframe;
    const tag = flvTag(packet);
    // ffmpeg can start again at a video keyframe, or anywhere in an audio-only stream.
    const resumable = keyframe || (!this.hasVideo && !video);
    for (const sink of this.sinks) this.feed(sink, tag, resumable, arrivedAt);
    return keyframe;
  }

  /**
   * Writes a packet to one packager's input unless that packager is too far behind: then packets
   * are dropped up to a keyframe at which it caught up, and if it does not, the feed gives up.
   * What waits for ffmpeg is so bounded, in bytes and in time.
   */
  private feed(sink: FeedSink, tag: Buffer, resumable: boolean, now: number) {
    if (sink.gaveUp) return;
    const waitingBytes = sink.stream.writableLength + sink.stream.readableLength;
    const read = sink.written - waitingBytes;
    let oldest = 0;
    while (oldest < sink.waiting.length && (sink.waiting[oldest]?.end ?? 0) <= read) oldest += 1;
    if (oldest > 0) sink.waiting.splice(0, oldest);
    const lagMs = Math.max(0, now - (sink.waiting[0]?.at ?? now));
    const before = sink.state;
    const step = nextPackagerFeedStep(before, { lagMs, waitingBytes, resumable, now });
    sink.state = step.state;
    if (step.action === 'write') {
      this.write(sink, tag, now);
      if (before.dropping) this.onPressure({ kind: 'caught-up', dropped: before.dropped });
    } else if (step.action === 'drop') {
      if (!before.dropping) this.onPressure({ kind: 'dropping', lagMs, waitingBytes });
    } else {
      sink.gaveUp = true;
      const dropped = before.dropping ? before.dropped : 0;
      this.onPressure({ kind: 'gave-up', lagMs, waitingBytes, dropped });
    }
  }

  private write(sink: FeedSink, bytes: Buffer, at: number) {
    sink.stream.write(bytes);
    sink.written += bytes.length;
    sink.waiting.push({ end: sink.written, at });
  }

  /**
   * A new FLV stream for a packager run: header, stream headers, the current GOP, then live.
   * ffmpeg keeps its timestamps (`-copyts`), so the clock maps the packager's output back to
   * when those frames arrived.
   */
  open(): PublishInputRun {
    const stream = new PassThrough({ highWaterMark: 4 * 1024 * 1024 });
    const sink: FeedSink = { stream, written: 0, waiting: [], state: PACKAGER_FEED_FLOWING, gaveUp: false };
    // The cached GOP is behind on purpose (ffmpeg starts at its keyframe): it waits from now.
    const now = Date.now();
    this.write(sink, flvFileHeader(this.audioHeader !== null, this.hasVideo), now);
    for (const packet of [this.metadata, this.audioHeader, this.videoHeader, ...this.gop]) {
      if (packet) this.write(sink, flvTag(packet), now);
    }
    this.sinks.add(sink);
    stream.on('close', () => this.sinks.delete(sink));
    return {
      args: ['-copyts', '-f', 'flv', '-i', 'pipe:0'],
      stdin: stream,
      wallClockAt: (inputSeconds) =>
        ingestWallClockOfTimestamp(
          this.hasVideo ? this.videoClock : this.audioClock,
          Math.round(inputSeconds * 1000),
        ),
    };
  }

  end() {
    for (const sink of this.sinks) sink.stream.end();
    this.sinks.clear();
  }
}

/** The size and frame rate an encoder declares in its `onMetaData` (OBS and ffmpeg both do). */
export function videoFormatOf(metadata: FlvPacket | null): PublishedVideoFormat | undefined {
  if (!metadata) return undefined;
  let fields: Record<string, unknown> | null;
  try {
    fields = amf0Fields(decodeAmf0(metadata.data)[1] ?? null);
  } catch {
    return undefined;
  }
  if (!fields) return undefined;
  const positive = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
  return {
    width: positive(fields.width),
    height: positive(fields.height),
    framesPerSecond: positive(fields.framerate) ?? positive(fields.videoframerate),
  };
}

/**
 * The RTMP ingest (OBS and every other encoder): our own RTMP server side (./rtmp/) on a TCP
 * server (so a taken port is logged, never exits the process). The stream key is the stream
 * name; it is checked before the publish is answered, and a refused publisher gets
 * NetStream.Publish.BadName and is disconnected. The media goes to ffmpeg as FLV on its stdin.
 * Input that breaks the protocol closes its connection, with a warning that says why.
 */
export async function startRtmpIngest(options: {
  port: number;
  host: string;
  beginPublish: BeginPublish;
  /** Checks a key before the publish is answered; a refusal's message is logged. */
  checkKey: (streamKey: string) => Promise<{ ok: true } | { ok: false; message: string }>;
  log: FastifyBaseLogger;
}): Promise<RtmpIngest> {
  const { log } = options;
  const sockets = new Set<Socket>();

  const handle = (socket: Socket) => {
    sockets.add(socket);
    const remoteAddress = socket.remoteAddress;
    // Set below, once the handlers it calls are defined.
    let rtmp: RtmpServerConnection;
    const feed = new FlvFeed();
    feed.onPressure = (event) => {
      const context = { remoteAddress, protocol: 'rtmp', eventId: session?.eventId, ...event };
      if (event.kind === 'dropping')
        log.warn(context, 'the live packager fell behind; frames are dropped up to a keyframe');
      else if (event.kind === 'caught-up') log.info(context, 'the live packager caught up');
      else {
        log.error(context, 'the live packager stayed behind real time; the publish ends');
        session?.fellBehind();
      }
    };
    let session: PublishSession | null = null;
    let state: 'connecting' | 'checking' | 'waiting-codec' | 'publishing' | 'closed' = 'connecting';
    let codecTimer: NodeJS.Timeout | null = null;
    const deadline = setTimeout(() => {
      if (state === 'connecting') close('no publish in time');
    }, PUBLISH_DEADLINE_MS);
    socket.setTimeout(SILENCE_TIMEOUT_MS, () => close('silent'));

    /**
     * Ends the publish and the connection; `lingerMs` leaves the peer that long to close it first
     * (an encoder that unpublished sends its last commands, then closes).
     */
    const close = (why: string, lingerMs = 0) => {
      if (state === 'closed') return;
      const wasPublishing = state === 'publishing';
      state = 'closed';
      rtmp.stop();
      clearTimeout(deadline);
      if (codecTimer) clearTimeout(codecTimer);
      feed.end();
      session?.end();
      if (!wasPublishing) log.debug({ remoteAddress, why }, 'rtmp connection closed');
      const end = () => {
        socket.end();
        // A peer that never reads its answers is not waited for.
        setTimeout(() => socket.destroy(), 2000).unref();
      };
      if (lingerMs > 0) setTimeout(end, lingerMs).unref();
      else end();
    };

    const refuse = (message: string) => {
      log.warn({ remoteAddress, protocol: 'rtmp' }, `rtmp publish refused: ${message}`);
      rtmp.refusePublish(message);
      close('refused');
    };

    const start = async () => {
      if (state !== 'waiting-codec') return;
      state = 'checking';
      // Audio-only streams have no video to copy or transcode: 'h264' keeps ffmpeg from encoding.
      const videoCodec: PublishVideoCodec =
        feed.videoCodecId === null || feed.videoCodecId === FLV_CODEC_H264 ? 'h264' : 'other';
      const result = await options.beginPublish({
        streamKey: rtmp.streamName,
        protocol: 'rtmp',
        remoteAddress,
        input: {
          videoCodec,
          videoFormat: videoFormatOf(feed.metadata),
          open: () => feed.open(),
        },
      });
      if ((state as string) === 'closed') {
        if (result.ok) result.session.end();
        return;
      }
      if (!result.ok) return refuse(result.message);
      session = result.session;
      state = 'publishing';
      // The host ended the show (or the packager failed): the encoder is told by the disconnect.
      session.onEnded((reason) => {
        if (reason !== 'publisher-gone') close(reason);
      });
    };

    // The publish is answered once the key is checked (below).
    const onPublish = () => {
      if (state !== 'connecting') return;
      state = 'checking';
      clearTimeout(deadline);
      socket.pause();
      const refused = rtmp.app !== RTMP_APP ? `the application must be "${RTMP_APP}"` : null;
      void (
        refused
          ? Promise.resolve({ ok: false as const, message: refused })
          : options.checkKey(rtmp.streamName)
      )
        .then((check) => {
          if (state === 'closed') return;
          if (!check.ok) return refuse(check.message);
          rtmp.acceptPublish();
          state = 'waiting-codec';
          codecTimer = setTimeout(() => void start(), CODEC_WAIT_MS);
          socket.resume();
        })
        .catch((error) => {
          log.error({ err: error }, 'checking an rtmp stream key failed');
          close('error');
        });
    };
    /** When the bytes being parsed reached us: the arrival of the packets they complete. */
    let arrivedAt = Date.now();
    const onMedia = (packet: FlvPacket) => {
      if (state !== 'waiting-codec' && state !== 'publishing' && state !== 'checking') return;
      const keyframe = feed.add(packet, arrivedAt);
      // Packaging starts at the first keyframe, when the codec is known (audio-only: soon).
      if (
        state === 'waiting-codec' &&
        (keyframe || (!feed.hasVideo && packet.kind === 'audio' && feed.gop.length > 50))
      ) {
        if (codecTimer) clearTimeout(codecTimer);
        void start();
      }
    };
    rtmp = new RtmpServerConnection({
      send: (bytes) => {
        if (!socket.destroyed) socket.write(bytes);
      },
      publish: onPublish,
      play: () => {
        // Viewers get HLS; nobody plays over RTMP here.
        rtmp.refusePlay('Playing is not offered.');
        close('play refused');
      },
      media: onMedia,
      // FCUnpublish, deleteStream or closeStream: the publish is over; the encoder closes next.
      unpublish: () => close('unpublished', 2000),
    });

    socket.on('data', (data: Buffer) => {
      if (state === 'closed') return;
      // An RTMP handshake opens with version 3 (C0); anything else is not an encoder (the
      // connection refuses it as it refuses any input that breaks the protocol).
      arrivedAt = Date.now();
      const error = rtmp.receive(data);
      if (error) {
        // Bad input closes this connection only; the server serves the others.
        log.warn({ remoteAddress, protocol: 'rtmp', why: error }, 'rtmp connection closed: not rtmp');
        close(`not rtmp: ${error}`);
      }
    });
    socket.on('error', () => close('socket error'));
    socket.on('close', () => {
      sockets.delete(socket);
      close('closed');
    });
  };

  const server: Server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => log.error({ err: error }, 'rtmp ingest error'));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
