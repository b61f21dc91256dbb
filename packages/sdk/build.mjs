// Builds the SDK into dist/:
//   sdk.js     the loader served at /sdk.js: one minified IIFE, no dependencies (budget 5 KB gzip)
//   index.mjs  the ESM build for retailers who bundle, with index.d.ts (+ the .d.ts files it imports)
// `node build.mjs` builds all three; the size test imports `bundle` to build the loader in memory.
// The names the SDK shares with the player (@vitrine/protocol/vocabulary, zod-free) are bundled
// into the scripts, and their declarations are shipped as dist/vocabulary.d.ts, since a retailer's
// project has no @vitrine/protocol.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** esbuild options of each output, by file name. */
export const outputs = {
  'sdk.js': {
    entryPoints: [here('src/loader.ts')],
    format: 'iife',
    minify: true,
    legalComments: 'none',
  },
  'index.mjs': {
    entryPoints: [here('src/index.ts')],
    format: 'esm',
  },
};

/** Builds one output; with `write: false` the code is returned instead of written. */
export async function bundle(name, { write = true } = {}) {
  const result = await build({
    ...outputs[name],
    bundle: true,
    target: 'es2020',
    platform: 'browser',
    charset: 'utf8',
    outfile: here(`dist/${name}`),
    write,
    logLevel: write ? 'warning' : 'silent',
  });
  return write ? null : result.outputFiles[0].text;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  rmSync(here('dist'), { recursive: true, force: true });
  await Promise.all(Object.keys(outputs).map((name) => bundle(name)));
  const tsc = (...args) =>
    execFileSync(process.execPath, [here('../../node_modules/typescript/bin/tsc'), ...args], {
      stdio: 'inherit',
    });
  tsc('-p', here('tsconfig.build.json'));
  const vocabulary = here('../protocol/src/vocabulary.ts');
  tsc(
    '--ignoreConfig',
    vocabulary,
    '--declaration',
    '--emitDeclarationOnly',
    '--target',
    'es2023',
    '--outDir',
    here('dist'),
  );
  for (const name of readdirSync(here('dist')).filter((file) => file.endsWith('.d.ts'))) {
    const file = here(`dist/${name}`);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replaceAll("'@vitrine/protocol/vocabulary'", "'./vocabulary.ts'"),
    );
  }
}
