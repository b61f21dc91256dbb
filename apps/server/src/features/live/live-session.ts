import { EventEmitter } from 'node:events';
import {
  DISK_RESUME_RESERVES,
  diskOutlook,
  type Fmp4Format,
  fmp4Format,
  LIVE_AUDIO_KBPS,
  type LiveProfile,
  type MasterVariant,
  masterPlaylist,
  type RecordedSegment,
  transcodeRefusal,
} from '@vitrine/domain';
import type { LiveStreamHealth, LiveStreamView } from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { measureDecodedVideo } from './decoded-video.ts';
import type { FfmpegDiscovery } from './ffmpeg-binary.ts';
import { type PackagerRun, renditionPrefix, startPackagerRun } from './hls-packager.ts';
import type { ProcessRegistry } from './packager-processes.ts';
import type { PublishEndReason, PublishInput, PublishRequest, PublishSession } from './publish-session.ts';
import { freeDiskBytes } from './recording-disk.ts';
import type { SegmentReceiver } from './segment-receiver.ts';
import type { SegmentStore } from './segment-store.ts';
import {
  MASTER_PLAYLISTS,
  PLAYLIST_CONTENT_TYPE,
  REPLAY_PLAYLIST,
  renditionOf,
  type ShowRecording,
} from './show-recording.ts';

/** ffmpeg may crash this often in a minute and be restarted into the show; after that the publish ends. */
const PACKAGER_RESTARTS_PER_MINUTE = 3;
/** How often the recordings disk is looked at while a show is published. */
const DISK_CHECK_MS = 1000;
/** Segments whose sizes and durations give the incoming bitrate and keyframe interval. */
const HEALTH_SEGMENTS = 5;
/** Why a publish ended that this node could not package in real time (the studio shows it). */
const PACKAGER_BEHIND_MESSAGE =
  'this node could not package the stream as fast as it arrived, so the stream was ended: lower the encoder’s resolution, frame rate or bitrate, or send H.264.';

/** One publisher of the show, as long as its publish lasts. */
export interface LivePublisher {
  readonly request: PublishRequest;
  readonly input: PublishInput;
  readonly since: number;
  readonly session: PublishSession & { finish(reason: PublishEndReason): void };
  packager: PackagerRun | null;
  restarts: number[];
  /** Whether segments stay in memory (the recordings disk is full): the recording pauses. */
  spilling: boolean;
  /** A packager run is being replaced (onto or off the disk). */
  switching: boolean;
  /** Its decoded video is being measured against the transcode budget: no packager yet. */
  measuring: boolean;
  diskTimer: NodeJS.Timeout | null;
}

/**
 * What a show's session tells whoever runs the show's lifecycle (the live service, which moves the
 * stored state by `@vitrine/domain` live-stream's transitions). In the manner of PeerTube's
 * MuxingSession: the session packages and records; it never decides the show's state.
 */
export interface LiveSessionEvents {
  /** A packager run took the publisher's input (after its decoded video was measured, if transcoded). */
  ready: [{ publisher: LivePublisher; run: number }];
  /**
   * A segment was recorded (into the store, or into memory alone while the disk is full), in the
   * rendition of that index of the profile (0: the main one).
   */
  segment: [{ segment: RecordedSegment; bytes: number; rendition: number }];
  /** A publish is over for another reason than the show ending: the publisher went, or was ended. */
  'publisher-gone': [{ publisher: LivePublisher; reason: PublishEndReason }];
  /** A finite input (a premiere's file) played out: the show ends into its replay. */
  'played-out': [{ publisher: LivePublisher }];
  /** ffmpeg kept failing (beyond the restarts a minute allows): the publish ends with this reason. */
  'packager-failed': [{ publisher: LivePublisher; code: number | null; stderr: string }];
  /** The recordings disk filled (`full`: segments stay in memory) or has room again. */
  'disk-full': [{ full: boolean }];
  /** The show's recording is finished: the replay is in the store (or in memory, `notWritten`). */
  ended: [{ firstFrame: number | null; notWritten: unknown }];
}

export interface LiveSessionDeps {
  eventId: string;
  /** The recording of each rendition of `profile`, in its order (the main one first). */
  recordings: readonly ShowRecording[];
  /** The segment length, window and renditions the show is packaged with (LIVE_PROFILE). */
  profile: LiveProfile;
  log: FastifyBaseLogger;
  now: () => number;
  config: Pick<Config['live'], 'dir' | 'transcodeBudget'>;
  ffmpeg: FfmpegDiscovery;
  /** Where recordings go (only a disk of ours fills); the replay's master playlist goes there too. */
  store: SegmentStore;
  processes: ProcessRegistry;
  /** The loopback listener packagers hand their files to, once started. */
  receiver: () => SegmentReceiver | null;
  /** Whether the node is closing (nothing is started any more). */
  closed: () => boolean;
}

/**
 * One show's stream on this node: its recording, its publisher (one at a time), the packager runs
 * on the publisher's input (restarted into the same recording when ffmpeg dies), the recordings
 * disk watch and the stream health. What happens is told by events (`LiveSessionEvents`).
 */
export class LiveSession extends EventEmitter<LiveSessionEvents> {
  readonly eventId: string;
  /** The main rendition's recording: the show's timeline, its health and its replay. */
  readonly recording: ShowRecording;
  readonly recordings: readonly ShowRecording[];
  publisher: LivePublisher | null = null;
  /** The last publish refused for what it sent (shown in the studio), until one is taken. */
  refusal: { message: string; at: number } | null = null;
  /**
   * What goes to the relay, in order: a segment's playlists shared late must not overwrite the
   * ended show's (the replay with ENDLIST), so once `sharedEnd` later ones keep theirs.
   */
  relayQueue: Promise<void> = Promise.resolve();
  sharedEnd = false;
  private recent: { bytes: number; duration: number }[] = [];
  /** Each rendition's last segments' bits per second: its master playlist bandwidth. */
  private readonly peaks: number[][];
  /** What each init segment declares (codecs, size), read once. */
  private readonly formats = new Map<string, Fmp4Format | null>();
  /** Transitions of one stream run one after another. */
  private queue: Promise<unknown> = Promise.resolve();
  private graceTimer: NodeJS.Timeout | null = null;
  private readonly deps: LiveSessionDeps;

  constructor(deps: LiveSessionDeps) {
    super();
    this.deps = deps;
    this.eventId = deps.eventId;
    const [main] = deps.recordings;
    if (!main || deps.recordings.length !== deps.profile.renditions.length)
      throw new Error('a live session needs one recording per rendition');
    this.recording = main;
    this.recordings = deps.recordings;
    this.peaks = deps.recordings.map(() => []);
  }

  /** Runs `task` after the stream's earlier transitions. */
  serialized<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** Whether this node holds the show's recording (it ingested it). */
  holdsRecording(): boolean {
    return this.publisher !== null || this.recording.segments().length > 0;
  }

  /** Starts the reconnect grace: `expired` runs when no publisher came back within `ms`. */
  startGrace(ms: number, expired: () => void): void {
    this.cancelGrace();
    this.graceTimer = setTimeout(() => {
      this.graceTimer = null;
      expired();
    }, ms);
    this.graceTimer.unref();
  }

  cancelGrace(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
  }

  /**
   * Takes a publisher whose publish the show's state allowed: video to transcode is measured
   * first (against the transcode budget), then packaged; answers the protocol's session.
   */
  async attach(request: PublishRequest): Promise<PublishSession> {
    const { log, now } = this.deps;
    this.cancelGrace();
    const listeners: ((reason: PublishEndReason) => void)[] = [];
    let over = false;
    const session = {
      eventId: this.eventId,
      end: () => session.finish('publisher-gone'),
      fellBehind: () => {
        this.refusal = { message: PACKAGER_BEHIND_MESSAGE, at: now() };
        session.finish('packager-behind');
      },
      onEnded: (listener: (reason: PublishEndReason) => void) => void listeners.push(listener),
      finish: (reason: PublishEndReason) => {
        if (over) return;
        over = true;
        if (publisher.diskTimer) clearInterval(publisher.diskTimer);
        publisher.diskTimer = null;
        for (const listener of listeners) listener(reason);
        if (reason !== 'show-ended') this.emit('publisher-gone', { publisher, reason });
        else if (this.publisher === publisher) this.publisher = null;
      },
    };
    const publisher: LivePublisher = {
      request,
      input: request.input,
      since: now(),
      session,
      packager: null,
      restarts: [],
      spilling: await this.diskIsFull(),
      switching: false,
      measuring: false,
      diskTimer: null,
    };
    this.publisher = publisher;
    this.recent = [];
    this.refusal = null;
    if (publisher.spilling) this.startSpilling(publisher);
    // Video to transcode is judged by what it decodes to (an encoder may declare nothing, or
    // less than it sends), before any packager takes it; H.264 is copied, at any size.
    if (request.input.videoCodec !== 'h264' && request.protocol !== 'premiere')
      void this.admitDecodedVideo(publisher);
    else this.startPackager(publisher);
    publisher.diskTimer = setInterval(() => {
      void this.watchDisk(publisher).catch((error) =>
        log.error({ err: error, eventId: this.eventId }, 'watching the recordings disk failed'),
      );
    }, DISK_CHECK_MS);
    publisher.diskTimer.unref();
    return session;
  }

  /**
   * Lets go of a publisher that is gone: its packaging stops. False when it was no longer the
   * show's publisher (a newer one took its place, or the show ended).
   */
  async release(publisher: LivePublisher): Promise<boolean> {
    if (this.publisher !== publisher) return false;
    this.publisher = null;
    await stopPackaging(publisher);
    return true;
  }

  /**
   * Ends the show's stream: the reconnect grace, the publisher and its packaging stop, and the
   * recording is finished into the replay (`ended`).
   */
  async end(liveStartTime: number | null): Promise<{ firstFrame: number | null; notWritten: unknown }> {
    this.cancelGrace();
    const publisher = this.publisher;
    if (publisher) {
      publisher.session.finish('show-ended');
      await stopPackaging(publisher);
    }
    const finished = await this.recording.finish(liveStartTime);
    for (const recording of this.recordings.slice(1)) await recording.finish(liveStartTime);
    if (this.adaptive()) {
      // Every node serves the finished replay's master playlist from the store.
      const text = await this.masterPlaylist('replay');
      await this.deps.store
        .put(`${this.eventId}/${MASTER_PLAYLISTS.replay}`, Buffer.from(text), PLAYLIST_CONTENT_TYPE)
        .catch((error: unknown) =>
          this.deps.log.error(
            { err: error, eventId: this.eventId },
            'the replay master playlist was not stored',
          ),
        );
    }
    this.emit('ended', finished);
    return finished;
  }

  /** Stops the publisher and its packaging (the node is closing); the show resumes after a restart. */
  async close(): Promise<void> {
    this.cancelGrace();
    const publisher = this.publisher;
    this.publisher = null;
    publisher?.session.finish('show-ended');
    if (publisher) await stopPackaging(publisher);
  }

  /** Deletes all but the newest `keep` segments while no encoder feeds the show (0 while one does). */
  dropOldest(keep: number): Promise<number> {
    return this.serialized(async () => {
      if (this.publisher) return 0;
      // Every rendition keeps the same newest stretch (the further ones' disk use stays bounded too).
      for (const recording of this.recordings.slice(1)) await recording.dropOldest(keep);
      return this.recording.dropOldest(keep);
    });
  }

  bitrateKbps(): number | null {
    const seconds = this.recent.reduce((sum, segment) => sum + segment.duration, 0);
    const bytes = this.recent.reduce((sum, segment) => sum + segment.bytes, 0);
    return seconds > 0 ? Math.round((bytes * 8) / seconds / 1000) : null;
  }

  /** The publisher's stream health for the studio; null without a publisher. */
  health(): LiveStreamHealth | null {
    const publisher = this.publisher;
    if (!publisher) return null;
    const stats = publisher.packager?.stats();
    const seconds = this.recent.reduce((sum, segment) => sum + segment.duration, 0);
    return {
      protocol: publisher.request.protocol,
      bitrateKbps: this.bitrateKbps(),
      framesPerSecond: stats?.framesPerSecond ?? null,
      // ffmpeg cuts a segment at the first keyframe after each second: their length is the interval.
      keyframeIntervalSeconds:
        this.recent.length > 0 ? Math.round((seconds / this.recent.length) * 100) / 100 : null,
      droppedFrames: stats?.droppedFrames ?? 0,
      videoPassthrough: publisher.input.videoCodec === 'h264',
      since: publisher.since,
    };
  }

  /** Whether the show is packaged in several renditions (an adaptive stream with a master playlist). */
  adaptive(): boolean {
    return this.recordings.length > 1;
  }

  /** The recording a file of the show belongs to (by its rendition prefix), or null for none. */
  recordingFor(name: string): ShowRecording | null {
    const rendition = renditionOf(name);
    if (rendition === null) return this.recording;
    const index = this.deps.profile.renditions.findIndex((each, at) => at > 0 && each.name === rendition);
    return this.recordings[index] ?? null;
  }

  /**
   * The master playlist of the live stream or the replay: every rendition that has segments, the
   * main one first, with its peak bandwidth and what its init segment declares.
   */
  async masterPlaylist(kind: 'live' | 'replay' | 'll'): Promise<string> {
    const { profile } = this.deps;
    const variants: MasterVariant[] = [];
    for (const [index, recording] of this.recordings.entries()) {
      const rendition = profile.renditions[index];
      const last = recording.segments().at(-1);
      if (!rendition || (index > 0 && !last)) continue;
      const prefix = renditionPrefix(profile, rendition);
      let format = last ? this.formats.get(last.initUri) : null;
      if (last && format === undefined) {
        const init = await recording.file(last.initUri);
        format = init ? fmp4Format(init.bytes) : null;
        if (init) this.formats.set(last.initUri, format);
      }
      const peak = Math.max(0, ...(this.peaks[index] ?? []));
      variants.push({
        uri: `${prefix}${kind === 'live' ? 'live.m3u8' : kind === 'll' ? 'll.m3u8' : REPLAY_PLAYLIST}`,
        bandwidth: peak > 0 ? peak : (rendition.videoKbps + LIVE_AUDIO_KBPS) * 1000,
        codecs: format?.codecs ?? [],
        width: format?.width ?? null,
        height: format?.height ?? null,
        frameRate: null,
      });
    }
    return masterPlaylist(variants);
  }

  /** Whether segments stay in memory because the recordings disk is full. */
  spilling(): boolean {
    return this.publisher?.spilling ?? false;
  }

  private startPackager(publisher: LivePublisher): void {
    const { ffmpeg, log, processes } = this.deps;
    const receiver = this.deps.receiver();
    if (!ffmpeg.available || !receiver) return;
    const packager = startPackagerRun({
      ffmpegPath: ffmpeg.path,
      recordings: this.recordings,
      profile: this.deps.profile,
      input: publisher.input.open(),
      videoCodec: publisher.input.videoCodec,
      receiver,
      processes,
      label: this.eventId,
      stored: !publisher.spilling,
      onStoreError: (uri, error) => {
        log.warn(
          { err: error, eventId: this.eventId, uri },
          'the segment store refused a segment; not recorded',
        );
        void this.watchDisk(publisher);
      },
      onSegment: (segment, bytes, rendition) => {
        if (segment.duration > 0) {
          this.peaks[rendition] = [...(this.peaks[rendition] ?? []), (bytes * 8) / segment.duration].slice(
            -HEALTH_SEGMENTS,
          );
        }
        if (rendition === 0)
          this.recent = [...this.recent, { bytes, duration: segment.duration }].slice(-HEALTH_SEGMENTS);
        this.emit('segment', { segment, bytes, rendition });
      },
      onError: (error) => log.error({ err: error, eventId: this.eventId }, 'recording a live segment failed'),
    });
    publisher.packager = packager;
    this.emit('ready', { publisher, run: packager.run });
    void packager.exited.then(async ({ code, stopped, stderr }) => {
      if (stopped || this.publisher !== publisher || this.deps.closed()) return;
      if (publisher.input.playedOut?.()) {
        log.info({ eventId: this.eventId }, 'live input played out; the show ends');
        this.emit('played-out', { publisher });
        return;
      }
      // A full disk is no crash: the next run writes to memory.
      if (!publisher.spilling && (await this.diskIsFull())) {
        if (this.publisher !== publisher || this.deps.closed() || publisher.packager !== packager) return;
        this.startSpilling(publisher);
        this.startPackager(publisher);
        return;
      }
      // ffmpeg died under a publisher still sending: restart it into the same recording.
      const time = this.deps.now();
      publisher.restarts = [...publisher.restarts.filter((at) => at > time - 60_000), time];
      if (publisher.restarts.length > PACKAGER_RESTARTS_PER_MINUTE) {
        log.error({ eventId: this.eventId, code, stderr }, 'live packager keeps failing; the publish ends');
        this.emit('packager-failed', { publisher, code, stderr });
        publisher.session.finish('packager-failed');
        return;
      }
      log.warn({ eventId: this.eventId, code, stderr }, 'live packager exited; restarting it');
      this.startPackager(publisher);
    });
  }

  /** Whether the recordings disk has less free than the reserve a recording keeps in hand. */
  private async diskIsFull(): Promise<boolean> {
    // A bucket has no disk of ours to fill (the journals are a few bytes a segment).
    if (this.deps.store.kind !== 'disk') return false;
    const free = await freeDiskBytes(this.deps.config.dir);
    return free !== null && free < diskOutlook(free, this.bitrateKbps()).reserveBytes;
  }

  private startSpilling(publisher: LivePublisher) {
    publisher.spilling = true;
    this.deps.log.error(
      { eventId: this.eventId, dir: this.deps.config.dir },
      'the recordings disk is full: the show goes on for viewers from memory, and its recording pauses until space is freed',
    );
    this.emit('disk-full', { full: true });
  }

  /**
   * Looks at the recordings disk: below the reserve the packager is moved to memory (before a
   * write can fail half-way: what is recorded stays whole); with space again, back to the disk.
   */
  private async watchDisk(publisher: LivePublisher): Promise<void> {
    if (
      this.deps.store.kind !== 'disk' ||
      publisher.switching ||
      publisher.measuring ||
      this.publisher !== publisher ||
      this.deps.closed()
    )
      return;
    publisher.switching = true;
    try {
      const free = await freeDiskBytes(this.deps.config.dir);
      if (free === null) return;
      const { reserveBytes } = diskOutlook(free, this.bitrateKbps());
      const spill = !publisher.spilling && free < reserveBytes;
      const resume = publisher.spilling && free >= reserveBytes * DISK_RESUME_RESERVES;
      if (!spill && !resume) return;
      if (spill) this.startSpilling(publisher);
      else {
        publisher.spilling = false;
        this.deps.log.info(
          { eventId: this.eventId, freeBytes: free },
          'space on the recordings disk again: the recording resumes',
        );
        this.emit('disk-full', { full: false });
      }
      await publisher.packager?.stop();
      if (this.publisher === publisher && !this.deps.closed()) this.startPackager(publisher);
    } finally {
      publisher.switching = false;
    }
  }

  /**
   * Measures the frames a publisher's video decodes to (size, and rate over the first half second):
   * beyond the node's transcode budget the publish ends, refused with why (the studio shows it);
   * within it, packaging starts.
   */
  private async admitDecodedVideo(publisher: LivePublisher) {
    const { ffmpeg, log, config } = this.deps;
    if (!ffmpeg.available) return;
    publisher.measuring = true;
    const measured = await measureDecodedVideo({
      ffmpegPath: ffmpeg.path,
      input: publisher.input.open(),
      // Every ffmpeg in use is 5 or later (the 2018 npm build is refused), so checksums can go.
    })
      .catch((error: unknown) => {
        log.error({ err: error, eventId: this.eventId }, 'measuring a live stream failed');
        return null;
      })
      .finally(() => {
        publisher.measuring = false;
      });
    if (this.publisher !== publisher || this.deps.closed()) return;
    const beyond = measured ? transcodeRefusal(measured, config.transcodeBudget) : null;
    if (beyond) {
      this.refusal = { message: beyond, at: this.deps.now() };
      log.warn(
        {
          protocol: publisher.request.protocol,
          remoteAddress: publisher.request.remoteAddress,
          reason: 'beyond-transcode-budget',
          eventId: this.eventId,
        },
        `live publish refused: ${beyond}`,
      );
      publisher.session.finish('beyond-transcode-budget');
      return;
    }
    log.info({ eventId: this.eventId, decoded: measured }, 'live video measured within the transcode budget');
    this.startPackager(publisher);
  }
}

/** Stops a publisher's packaging: its disk watch and its packager. */
async function stopPackaging(publisher: LivePublisher) {
  if (publisher.diskTimer) clearInterval(publisher.diskTimer);
  publisher.diskTimer = null;
  await publisher.packager?.stop();
}

/** The recordings disk for the studio: free space, minutes left at the incoming bitrate, warnings. */
export async function diskView(
  dir: string,
  session: LiveSession | undefined,
): Promise<LiveStreamView['disk']> {
  const full = session?.spilling() ?? false;
  const free = await freeDiskBytes(dir);
  if (free === null) return { freeBytes: null, minutesLeft: null, low: full, full };
  const outlook = diskOutlook(free, session ? session.bitrateKbps() : null);
  return { freeBytes: free, minutesLeft: outlook.minutesLeft, low: outlook.low || full, full };
}
