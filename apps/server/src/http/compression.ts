import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Compresses API answers and pages that are worth it (brotli at a quality made for responses
 * built per request, else gzip). The web app's assets arrive already compressed by the build and
 * pass through untouched. Register before any route so its hook covers them all. Request bodies
 * are never decompressed: nobody we serve sends them compressed, and a payment webhook's
 * signature is checked on the exact bytes.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
