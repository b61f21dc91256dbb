import { type ChildProcess, spawn } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import type { LiveService } from '../live/live-service.ts';
import { DEMO_LIVE_EVENT_ID } from './seed-demo.ts';

/** A crashed demo encoder is started again after this long. */
const ENCODER_RESTART_MS = 2000;
/** How long the demo waits for its stream to arrive before it gives up on going live. */
const RECEIVE_TIMEOUT_MS = 30_000;

export interface DemoLiveShow {
  stop(): Promise<void>;
}

/**
 * Makes the demo's live show a true live stream: an ffmpeg encoder loops the demo video in real
 * time (H.264, a keyframe every second) into our own RTMP ingest, as OBS would, and the show goes
 * live on it. Null (the show keeps its MP4) without ffmpeg, without RTMP, or once the show ended.
 */
export async function feedDemoLiveShow(options: {
  live: LiveService;
  log: FastifyBaseLogger;
  pageUid: string;
  video: string;
}): Promise<DemoLiveShow | null> {
  const { live, log, pageUid } = options;
  const { rtmpPort } = live.ingestPorts();
  if (!live.ffmpeg.available || rtmpPort === null) {
    log.info('the demo live show plays its MP4 (no ffmpeg or no RTMP ingest)');
    return null;
  }
  const stream = await live.stream(pageUid, DEMO_LIVE_EVENT_ID, 'http://localhost');
  if (stream.state === 'ended') return null;
  const ffmpegPath = live.ffmpeg.path;
  let encoder: ChildProcess | null = null;
  let stopping = false;

  const startEncoder = () => {
    encoder = spawn(
      ffmpegPath,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        '-re',
        '-stream_loop',
        '-1',
        '-i',
        options.video,
        '-c:v',
        'libx264',
        '-preset',
        'veryfast',
        '-tune',
        'zerolatency',
        // A keyframe each second: one-second segments (what every publisher is asked for).
        '-g',
        '25',
        '-keyint_min',
        '25',
        '-sc_threshold',
        '0',
        '-b:v',
        '1200k',
        '-c:a',
        'copy',
        '-f',
        'flv',
        `rtmp://127.0.0.1:${rtmpPort}/live/${stream.streamKey}`,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let errors = '';
    encoder.stderr?.setEncoding('utf8').on('data', (text: string) => {
      errors = (errors + text).slice(-2000);
    });
    encoder.once('exit', (code) => {
      encoder = null;
      if (stopping) return;
      log.warn({ code, errors }, 'the demo encoder stopped; starting it again');
      setTimeout(() => !stopping && startEncoder(), ENCODER_RESTART_MS).unref();
    });
  };
  startEncoder();

  // Go live once the stream arrives (a show left live by the last run resumes by itself).
  void (async () => {
    const deadline = Date.now() + RECEIVE_TIMEOUT_MS;
    while (!stopping && Date.now() < deadline) {
      const { state } = await live.stream(pageUid, DEMO_LIVE_EVENT_ID, 'http://localhost');
      if (state === 'live') return;
      if (state === 'receiving') {
        await live.goLive(pageUid, DEMO_LIVE_EVENT_ID, 'http://localhost');
        log.info('the demo live show is live from its encoder');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (!stopping) log.warn('the demo stream did not arrive; the demo live show keeps its MP4');
  })().catch((error) => log.error({ err: error }, 'making the demo show live failed'));

  return {
    async stop() {
      stopping = true;
      const running = encoder as ChildProcess | null;
      if (!running) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
        setTimeout(() => running.kill('SIGKILL'), 3000).unref();
      });
    },
  };
}
