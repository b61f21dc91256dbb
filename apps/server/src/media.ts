import { MEDIA_WORKER_READY, MEDIA_WORKER_SETTINGS } from '@vitrine/protocol';
import { loadConfig } from './config.ts';
import { type MediaWorkerConfig, startMediaWorker } from './features/live/media-worker.ts';

/**
 * The media worker's process. `npm run media` runs it on its own, with the settings of the
 * environment (LIVE_MEDIA_TOKEN, MEDIA_PORT, MEDIA_HOST, and the live settings of the web servers:
 * RTMP_PORT, LIVE_PROFILE, the segment store, WHIP). A web server with LIVE_MEDIA=child starts it
 * as its child and sends it its own settings and a token over the IPC channel instead.
 */
async function settings(): Promise<{ config: MediaWorkerConfig; token: string }> {
  if (process.send) {
    return new Promise((resolve) => {
      const take = (message: unknown) => {
        const given = message as { type?: unknown; config?: MediaWorkerConfig; token?: unknown };
        if (given?.type !== MEDIA_WORKER_SETTINGS || !given.config || typeof given.token !== 'string') return;
        process.off('message', take);
        resolve({ config: given.config, token: given.token });
      };
      process.on('message', take);
    });
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const token = config.live.worker.token;
  if (!token) {
    process.stderr.write(
      'Refusing to start: set LIVE_MEDIA_TOKEN (at least 32 characters), the same on the web servers.\n',
    );
    process.exit(1);
  }
  return { config, token };
}

const { config, token } = await settings();
const worker = await startMediaWorker(config, { token });
process.send?.({ type: MEDIA_WORKER_READY, url: worker.url });

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  await worker.close().catch(() => undefined);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
// A child whose web server is gone (even killed hard) stops its video with it: the server's next
// start begins a new child, which takes the ports and resumes the shows into their recordings.
process.on('disconnect', () => void shutdown());
