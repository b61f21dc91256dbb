import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { LiveService } from './live-service.ts';
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
  await live.reapOrphans();
  if (!live.ffmpeg.available) log.warn(`live streaming is off on this node: ${live.ffmpeg.missing}`);
  if (config.live.rtmpPort !== null) {
    try {
      const rtmp = await startRtmpIngest({
        port: config.live.rtmpPort,
        host: config.host,
        beginPublish: live.beginPublish,
        checkKey: live.checkKey,
        log,
      });
      live.offerIngest({ rtmpPort: rtmp.port });
      log.info({ port: rtmp.port }, 'rtmp ingest listening');
      app.addHook('onClose', () => rtmp.close());
    } catch (error) {
      log.warn(
        { err: error, port: config.live.rtmpPort },
        'rtmp ingest not started (port taken?); set RTMP_PORT to another port, or "off"',
      );
    }
  }
  // A single node picks up the shows it left mid-stream; with several, another may ingest them.
  if (!config.redisUrl) await live.recover();
  app.addHook('onClose', () => live.close());
}
