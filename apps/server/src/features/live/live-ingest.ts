import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { LiveService } from './live-service.ts';
import type { MediaEngine } from './media-engine.ts';
import { startRtmpIngest } from './rtmp-ingest.ts';

/**
 * Starts this node's ingests beside the HTTP server: RTMP on RTMP_PORT (a taken port is logged
 * and RTMP is not offered; the rest of the server runs), and stops them with the server.
 */
export async function startLiveIngest(
  app: FastifyInstance,
  live: LiveService,
  config: Config,
): Promise<void> {
  const log = app.log;
  if (live.mediaKind === 'worker') {
    // The worker ingests and recovers its shows; this server follows it from its first hello. A
    // child is this server's own: the start waits for it (premieres resume on it next); a worker
    // elsewhere may be down, and checkout does not wait for video.
    app.addHook('onClose', () => live.close());
    if (config.live.media.kind === 'child') await live.mediaReady();
    return;
  }
  await live.reapOrphans();
  if (!live.ffmpeg.available) log.warn(`live streaming is off on this node: ${live.ffmpeg.missing}`);
  await offerRtmp(app, live, { port: config.live.rtmpPort, host: config.host });
  // A single node picks up the shows it left mid-stream; with several, another may ingest them.
  if (!config.redisUrl) await live.recover();
  app.addHook('onClose', () => live.close());
}

/**
 * RTMP on `port` (null: none) beside `app`, taking publishers through `ingest` (the live service
 * inline, or the media worker's engine) and offering its port there; a taken port is logged and
 * RTMP is not offered (the rest runs); it stops with `app`.
 */
export async function offerRtmp(
  app: FastifyInstance,
  ingest: Pick<MediaEngine, 'beginPublish' | 'checkKey' | 'offerIngest'>,
  options: { port: number | null; host: string },
): Promise<void> {
  if (options.port === null) return;
  try {
    const rtmp = await startRtmpIngest({
      port: options.port,
      host: options.host,
      beginPublish: ingest.beginPublish,
      checkKey: ingest.checkKey,
      log: app.log,
    });
    ingest.offerIngest({ rtmpPort: rtmp.port });
    app.log.info({ port: rtmp.port }, 'rtmp ingest listening');
    app.addHook('onClose', () => rtmp.close());
  } catch (error) {
    app.log.warn(
      { err: error, port: options.port },
      'rtmp ingest not started (port taken?); set RTMP_PORT to another port, or "off"',
    );
  }
}
