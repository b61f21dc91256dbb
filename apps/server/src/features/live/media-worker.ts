import { hostname } from 'node:os';
import { WHIP_PATH } from '@vitrine/protocol';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Config } from '../../config.ts';
import { discoverFfmpeg } from './ffmpeg-binary.ts';
import { offerRtmp } from './live-ingest.ts';
import { createLocalMediaEngine } from './media-engine.ts';
import { createMediaChannel } from './media-worker-server.ts';
import { createDiskSegmentStore, createS3SegmentStore } from './segment-store.ts';
import { registerWhipRoutes } from './whip-routes.ts';

/** The body of a command: small JSON (a premiere's path is the largest field). */
const COMMAND_BODY_LIMIT = 64 * 1024;

/** What a media worker needs of the settings: the live ones, WHIP's, its log level and address. */
export type MediaWorkerConfig = Pick<Config, 'logLevel' | 'host' | 'trustProxy' | 'live' | 'whip'>;

export interface MediaWorker {
  /** The worker's listener: `http://host:port` (the web servers' LIVE_MEDIA). */
  url: string;
  server: FastifyInstance;
  close(): Promise<void>;
}

/**
 * The media worker (issue 29): ingest (RTMP, WHIP), packaging, recording and the live edge in a
 * process of their own, without a database. Web servers follow it over the media channel
 * (`@vitrine/protocol` live-media): they decide every show's state, it does the video. Started by
 * `npm run media` on its own machine, or by a web server as its child (LIVE_MEDIA=child).
 */
export async function startMediaWorker(
  config: MediaWorkerConfig,
  options: { token: string; now?: () => number },
): Promise<MediaWorker> {
  const now = options.now ?? Date.now;
  const server = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, base: { role: 'media-worker' } },
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: COMMAND_BODY_LIMIT,
    trustProxy: config.trustProxy,
    // At close every connection goes, not only the idle ones: a web server's read or command in
    // flight then would keep the worker (and the web server's own stop, which waits for its child)
    // until it timed out: `npm start` took 10 s to stop and exited 1.
    forceCloseConnections: true,
  });
  const log = server.log;
  const ffmpeg = discoverFfmpeg(config.live.ffmpegPath);
  if (!ffmpeg.available) log.warn(`live streaming is off on this worker: ${ffmpeg.missing}`);
  const segments =
    config.live.segmentStore.kind === 's3'
      ? createS3SegmentStore(config.live.segmentStore)
      : createDiskSegmentStore(config.live.dir);
  const channel = createMediaChannel({ token: options.token, log, now });
  const engine = createLocalMediaEngine({
    log,
    now,
    config: config.live,
    ffmpeg,
    segments,
    controller: channel.controller,
    // Its own runs only: a web server on the same machine reaps its own.
    processOwner: `${hostname()}-media`,
  });
  const reaped = await engine.reapOrphans();
  if (reaped.length > 0)
    log.warn({ pids: reaped }, 'killed ffmpeg runs a previous media worker left running');
  channel.register(server, engine, ffmpeg);
  if (config.whip.enabled) {
    registerWhipRoutes(server, {
      beginPublish: engine.beginPublish,
      checkKey: engine.checkKey,
      extraHostAddresses: config.whip.hostAddresses,
      icePortRange: config.whip.icePortRange ?? undefined,
    });
    engine.offerIngest({ whipPath: WHIP_PATH });
  }
  server.get('/healthz', async () => ({ status: 'ok', role: 'media-worker' }));
  await offerRtmp(server, engine, { port: config.live.rtmpPort, host: config.host });
  // The web servers' event streams end first: an open stream would hold the listener's close.
  server.addHook('preClose', async () => channel.close());
  server.addHook('onClose', () => engine.close());
  const address = await server.listen({ port: config.live.worker.port, host: config.live.worker.host });
  log.info({ address }, 'media worker listening');
  return { url: address, server, close: () => server.close() };
}
