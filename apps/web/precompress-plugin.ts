import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text assets worth compressing; images and fonts are already compressed. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|webmanifest)$/;
/** Below this a compressed copy saves less than the encoding header and the extra file cost. */
const MIN_BYTES = 1024;

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every text asset of
 * the build, so the server sends them as they are (`@fastify/static` `preCompressed`) instead of
 * compressing the same immutable files again on every request, or not at all.
 */
export function precompressAssets(): Plugin {
  let outDir = 'dist';
  return {
    name: 'vitrine:precompress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const assetsDir = join(outDir, 'assets');
      const names = (await readdir(assetsDir)).filter((name) => COMPRESSIBLE.test(name));
      await Promise.all(
        names.map(async (name) => {
          const path = join(assetsDir, name);
          const content = await readFile(path);
          if (content.length < MIN_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipAsync(content, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
        }),
      );
    },
  };
}
