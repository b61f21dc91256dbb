import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ServerStatus } from '@vitrine/protocol';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { Config } from './config.ts';
import type { FfmpegDiscovery } from './features/live/ffmpeg-binary.ts';
import { registerCall } from './http/register-call.ts';

/** Free and total bytes of the disk `dir` is on (its nearest existing parent), or null. */
async function diskOf(dir: string): Promise<{ freeBytes: number; totalBytes: number } | null> {
  for (let path = resolve(dir); ; path = dirname(path)) {
    try {
      const stats = await statfs(path);
      return { freeBytes: stats.bavail * stats.bsize, totalBytes: stats.blocks * stats.bsize };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(path) === path) return null;
    }
  }
}

/**
 * `GET /admin/status` (admin key): what `npm run doctor` cannot see from outside — payments and
 * mail configured or not, the live ingest, free disk, the clock — with no secret in it.
 */
export function registerServerStatus(
  app: FastifyInstance,
  deps: {
    config: Config;
    requireAdmin: onRequestHookHandler;
    ingest: () => { rtmpPort: number | null; whipPath: string | null };
    ffmpeg: FfmpegDiscovery;
    now: () => number;
  },
): void {
  const { config } = deps;
  registerCall(
    app,
    'serverStatus',
    async () => {
      const folders: { purpose: ServerStatus['disks'][number]['purpose']; path: string }[] = [
        ...(config.database.kind === 'pglite'
          ? [{ purpose: 'database' as const, path: config.database.dataDir }]
          : []),
        { purpose: 'media', path: config.mediaDir },
        ...(config.live.segmentStore.kind === 'disk'
          ? [{ purpose: 'recordings' as const, path: config.live.dir }]
          : []),
      ];
      const disks: ServerStatus['disks'] = [];
      for (const folder of folders) {
        const disk = await diskOf(folder.path);
        if (disk) disks.push({ ...folder, path: resolve(folder.path), ...disk });
      }
      const ingest = deps.ingest();
      return {
        payments: [
          ...(config.stripe ? (['stripe'] as const) : []),
          ...(config.testPayments ? (['test'] as const) : []),
        ],
        mail: { sending: config.mail.smtpUrl !== null },
        live: { rtmpPort: ingest.rtmpPort, whip: ingest.whipPath !== null, ffmpeg: deps.ffmpeg.available },
        disks,
        time: deps.now(),
      };
    },
    { requireAdmin: deps.requireAdmin },
  );
}
