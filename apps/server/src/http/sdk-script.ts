import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

/** The loader built by `npm run build -w @vitrine/sdk` (part of `npm run build:web`). */
export const SDK_SCRIPT_PATH = fileURLToPath(
  new URL('../../../../packages/sdk/dist/sdk.js', import.meta.url),
);

/**
 * Serves the on-site SDK loader at GET /sdk.js for retailers' pages: public, any origin may load
 * it, cached for five minutes (retailers link the unversioned URL, so updates must reach them).
 * The file is read again when it changes on disk, so rebuilding the SDK needs no restart.
 */
export function registerSdkScript(app: FastifyInstance, path = SDK_SCRIPT_PATH): void {
  if (!existsSync(path)) app.log.warn({ path }, 'SDK not built; run `npm run build:web` to serve /sdk.js');
  let cached: { mtimeMs: number; body: Buffer; etag: string } | null = null;

  app.get('/sdk.js', async (request, reply) => {
    let mtimeMs: number;
    try {
      mtimeMs = (await stat(path)).mtimeMs;
    } catch {
      return reply
        .status(404)
        .send({ error: 'not_found', message: 'The SDK is not built; run `npm run build:web`.' });
    }
    if (cached?.mtimeMs !== mtimeMs) {
      const body = await readFile(path);
      cached = {
        mtimeMs,
        body,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      };
    }
    reply
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('x-content-type-options', 'nosniff')
      .header('etag', cached.etag);
    if (request.headers['if-none-match'] === cached.etag) return reply.status(304).send();
    return reply.type('application/javascript; charset=utf-8').send(cached.body);
  });
}
