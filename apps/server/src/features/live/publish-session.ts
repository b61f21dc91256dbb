import type { Readable } from 'node:stream';
import type { PublishedVideoFormat } from '@vitrine/domain';
import type { MediaFileInput } from '@vitrine/protocol';

/**
 * The one door every ingest protocol goes through (RTMP here, WHIP in its own module): a
 * publisher names its show by the stream key and hands over an ffmpeg input; the live service
 * checks the key, keeps one publisher per show, packages the input as HLS into the show's
 * recording and runs the show's lifecycle (receiving → live ⇄ reconnecting → ended).
 */

/**
 * How the publisher reached us (logged, and shown in the studio's stream health); `premiere` is
 * the server itself playing an uploaded video (features/premiere).
 */
export type PublishProtocol = 'rtmp' | 'whip' | 'srt' | 'premiere';

/**
 * The codec the publisher sends. H.264 is passed through (`-c:v copy`); anything else is
 * transcoded with libx264 veryfast, which costs a core per show.
 */
export type PublishVideoCodec = 'h264' | 'vp8' | 'vp9' | 'av1' | 'other';

/** What ffmpeg reads for one run of the packager. */
export interface PublishInputRun {
  /**
   * ffmpeg arguments that open the input, placed before the output arguments: e.g.
   * `['-f', 'flv', '-i', 'pipe:0']` (RTMP feeds FLV on stdin) or
   * `['-rtsp_transport', 'tcp', '-i', 'rtsp://127.0.0.1:40123/…']` (WHIP's RTP, from the publish's
   * own loopback RTSP server).
   */
  args: string[];
  /** Bytes for ffmpeg's stdin, when `args` read `pipe:0`; stdin is closed otherwise. */
  stdin?: Readable;
  /**
   * When the moment at `inputSeconds` on ffmpeg's input timeline ARRIVED at the ingest, on the
   * ingest clock (`@vitrine/domain` ingest-clock): the anchor of program date times. `args` then
   * include `-copyts`, so the packager's output keeps the input's timestamps. Null before a
   * frame went to ffmpeg; without it the packager falls back to ffmpeg's own (late) clock.
   */
  wallClockAt?: (inputSeconds: number) => number | null;
}

/** The input side of a publish: the live service starts (and restarts) ffmpeg with it. */
export interface PublishInput {
  videoCodec: PublishVideoCodec;
  /**
   * The video's size and rate as the publisher declares them (RTMP metadata), when it does: an
   * early refusal only; video to transcode is measured as decoded all the same (decoded-video.ts).
   */
  videoFormat?: PublishedVideoFormat;
  /**
   * Opens the input for one ffmpeg run. Called once when the publish starts and again when
   * ffmpeg dies mid-show (it is restarted into the same recording, with a discontinuity): a
   * stdin source must then start again with its stream headers and a keyframe.
   */
  open(): PublishInputRun;
  /**
   * A finite input (a premiere's file) says here whether it has played out: ffmpeg exiting then
   * finished it, and the show ends into its replay instead of ffmpeg being restarted.
   */
  playedOut?(): boolean;
  /**
   * A file input's description (`file-input.ts`): what a media worker in another process needs
   * to play the same file. Inputs fed from this process (RTMP, WHIP) have none.
   */
  file?: MediaFileInput;
}

export interface PublishRequest {
  /** The show's stream key: the key alone identifies the show. */
  streamKey: string;
  protocol: PublishProtocol;
  input: PublishInput;
  /** The publisher's address, for the log. */
  remoteAddress?: string;
}

/** Why a publish was refused; the protocol answers its own refusal (RTMP error status, WHIP 401/409/503). */
export type PublishRefusalReason =
  /** No show has this key (never had it, or it was rotated). */
  | 'unknown-key'
  /** The show already has a publisher (receiving or live). */
  | 'already-publishing'
  /** The show has ended; its recording is the replay. */
  | 'ended'
  /** No ffmpeg on this node (see the stream call's `ffmpeg.missing`). */
  | 'no-ffmpeg'
  /** Video this node would have to transcode, beyond its LIVE_TRANSCODE_MAX (e.g. 4K 60 fps FLV1). */
  | 'beyond-transcode-budget';

export type PublishResult =
  | { ok: true; session: PublishSession }
  | { ok: false; reason: PublishRefusalReason; message: string };

/** Why a publish session ended. */
export type PublishEndReason =
  /** The publisher went away (`end()` was called): the show waits for it to come back. */
  | 'publisher-gone'
  /** The host ended the show, or the reconnect grace ran out. */
  | 'show-ended'
  /** The packager could not be restarted (ffmpeg keeps failing). */
  | 'packager-failed'
  /** The video, as decoded, is beyond the node's transcode budget (LIVE_TRANSCODE_MAX). */
  | 'beyond-transcode-budget'
  /** The packager stayed behind real time (dropping frames did not help): more than the node can package. */
  | 'packager-behind';

/** One accepted publisher of one show. */
export interface PublishSession {
  readonly eventId: string;
  /**
   * The publisher stopped (closed or dropped). A live show becomes `reconnecting` and waits
   * LIVE_RECONNECT_GRACE_MS for the next publish with its key; a show not yet live becomes idle.
   * Idempotent.
   */
  end(): void;
  /**
   * The packager could not keep up with what the publisher sends (its input kept growing past the
   * bound even while frames were dropped): the publish ends as when the publisher goes, and the
   * studio shows why.
   */
  fellBehind(): void;
  /**
   * Called once when the session is over for any reason; the protocol closes its side then
   * (e.g. the host pressed End while the encoder still sends).
   */
  onEnded(listener: (reason: PublishEndReason) => void): void;
}

/** Starts a publish; the live service implements it (live-service.ts `beginPublish`). */
export type BeginPublish = (request: PublishRequest) => Promise<PublishResult>;
