// The release build: everything `npm start` and a production install run, in dist/.
//
//   dist/server/*.mjs        the server and its CLIs, bundled by esbuild (our TypeScript, with the
//                            workspace packages @vitrine/protocol and @vitrine/domain, as
//                            JavaScript; every package of node_modules stays an import, so a
//                            production install needs only `npm ci --omit=dev`)
//   dist/server/migrations/  the SQL migrations the server applies at start
//   dist/web/                the web app (vite's build of apps/web)
//   dist/sdk/sdk.js          the on-site SDK loader served at /sdk.js
//   dist/demo/media/         the demo store's pictures and video
//   dist/demo-retailer/      the demo retailer's site
//
// `node scripts/build.mjs` builds every step; `--changed` (what `npm start` runs) only the steps
// whose inputs are newer than their outputs. Plain JavaScript, so it runs without tsx.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../', import.meta.url));
const at = (path) => join(ROOT, path);

/**
 * The server's entry points, the server and its command-line tools: name (dist/server/NAME.mjs) →
 * source. A JSON file so that the tests' TypeScript takes its names as a type (ReleaseEntry).
 */
const SERVER_ENTRIES = JSON.parse(readFileSync(at('scripts/server-entries.json'), 'utf8'));
const SERVER_OUT = 'dist/server';
/** Written last by the server step: it lists the step's inputs, and its presence says the step finished. */
const SERVER_MANIFEST = 'dist/server/build-inputs.json';

/**
 * Files the server reads beside its code (`new URL('…', import.meta.url)` in apps/server/src): where
 * each is in the source tree and where it goes in dist/. The bundle's references are rewritten to
 * the dist/ places; a reference to anything not listed here fails the build.
 */
const RUNTIME_FILES = [
  { source: 'apps/server/src/db/migrations', dist: 'dist/server/migrations' },
  { source: 'apps/server/demo/media', dist: 'dist/demo/media' },
  { source: 'apps/demo-retailer', dist: 'dist/demo-retailer' },
  { source: 'apps/web/dist', dist: 'dist/web' },
  { source: 'packages/sdk/dist/sdk.js', dist: 'dist/sdk/sdk.js' },
];

/** Newest modification time of the files under `paths` (a file or folder each), skipping `skip`. */
function newestInput(paths, skip = () => false) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path) || skip(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const name of readdirSync(path)) visit(join(path, name));
    } else newest = Math.max(newest, stats.mtimeMs);
  };
  for (const path of paths) visit(at(path));
  return newest;
}

/** Modification time of `path`, or 0 when it is missing (always stale). */
const builtAt = (path) => (existsSync(at(path)) ? statSync(at(path)).mtimeMs : 0);

/**
 * Runs a build tool with this Node; throws with its exit status when it fails. Always as a
 * production build: called from a test run's set-up (NODE_ENV=test), vite kept the libraries'
 * development code (the widget's first load 96.8 KB gzip instead of 91.1), and `npm start`
 * afterwards would have served that build as up to date.
 */
function run(args, cwd = ROOT) {
  const result = spawnSync(process.execPath, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed (exit status ${result.status})`);
}

/** Resolves a build tool's file, or explains that the build tools are not installed. */
function buildTool(path) {
  const file = at(path);
  if (!existsSync(file)) {
    throw new Error(
      `The build is out of date and its tools are not installed (${path} is missing: dev dependencies were left out).\n` +
        'Run `npm ci` (with dev dependencies) and `npm run build`, or install a built release (docs/operations.md).',
    );
  }
  return file;
}

/** The web app and the SDK read the workspace packages; a changed lock file may change any of them. */
const SHARED_INPUTS = ['packages/protocol/src', 'packages/domain/src', 'package-lock.json'];
const notATest = (path) => /\.test\.tsx?$/.test(path) || path.includes(`${sep}test-support${sep}`);

export const STEPS = [
  {
    name: 'sdk',
    inputs: () => newestInput(['packages/sdk/src', 'packages/sdk/build.mjs', ...SHARED_INPUTS], notATest),
    builtAt: () => builtAt('packages/sdk/dist/sdk.js'),
    build: () => {
      buildTool('node_modules/esbuild/package.json');
      run(['build.mjs'], at('packages/sdk'));
    },
  },
  {
    name: 'web',
    inputs: () =>
      newestInput(
        [
          'apps/web/src',
          'apps/web/index.html',
          'apps/web/vite.config.ts',
          'apps/web/preact-aliases.ts',
          'apps/web/precompress-plugin.ts',
          ...SHARED_INPUTS,
        ],
        notATest,
      ),
    builtAt: () => builtAt('apps/web/dist/index.html'),
    build: () =>
      run([buildTool('node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], at('apps/web')),
  },
  {
    name: 'server',
    inputs: serverInputsNewest,
    builtAt: () => builtAt(SERVER_MANIFEST),
    build: buildServer,
  },
];

/** Newest of the files the last server build read (its manifest), the runtime files, this script and its entry list. */
function serverInputsNewest() {
  if (!existsSync(at(SERVER_MANIFEST))) return Number.POSITIVE_INFINITY;
  const { inputs } = JSON.parse(readFileSync(at(SERVER_MANIFEST), 'utf8'));
  // A deleted input means the sources changed: build again.
  if (inputs.some((path) => !existsSync(at(path)))) return Number.POSITIVE_INFINITY;
  return newestInput([
    ...inputs,
    ...RUNTIME_FILES.map((file) => file.source),
    'scripts/build.mjs',
    'scripts/server-entries.json',
    'package-lock.json',
  ]);
}

/**
 * esbuild plugin: bundles our TypeScript and the workspace packages; every other package is left
 * an import (a production install has it in node_modules); and a file the code reads beside itself
 * (`new URL('…', import.meta.url)`) is pointed at its place in dist/.
 */
function releasePlugin(outDir) {
  return {
    name: 'vitrine-release',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path.startsWith('@vitrine/') ? undefined : { path: args.path, external: true },
      );
      build.onLoad({ filter: /[\\/]apps[\\/]server[\\/]src[\\/].*\.ts$/ }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        const contents = source.replace(
          /new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g,
          (_whole, _quote, reference) =>
            `new URL(${JSON.stringify(distReference(args.path, reference, outDir))}, import.meta.url)`,
        );
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** Where `reference` (relative to the source file `from`) is in dist/, relative to the bundle in `outDir`. */
function distReference(from, reference, outDir) {
  const target = relative(ROOT, fileURLToPath(new URL(reference, pathToFileURL(from)))).replace(/\/$/, '');
  const file = RUNTIME_FILES.find(({ source }) => target === source || target.startsWith(`${source}/`));
  if (!file) {
    throw new Error(
      `${relative(ROOT, from)} reads ${target} beside its code, which the release does not ship: add it to RUNTIME_FILES in scripts/build.mjs`,
    );
  }
  const distPath = file.dist + target.slice(file.source.length);
  const path = relative(at(outDir), at(distPath)).split(sep).join('/');
  return `${path.startsWith('.') ? path : `./${path}`}${reference.endsWith('/') ? '/' : ''}`;
}

async function buildServer() {
  const { build } = await import(pathToFileURL(buildTool('node_modules/esbuild/lib/main.js')).href);
  for (const file of RUNTIME_FILES) {
    if (!existsSync(at(file.source)))
      throw new Error(`${file.source} is missing: the web and SDK steps build it`);
  }
  rmSync(at(SERVER_MANIFEST), { force: true });
  rmSync(at(SERVER_OUT), { recursive: true, force: true });
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: SERVER_ENTRIES,
    outdir: at(SERVER_OUT),
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Chunks keep the lazily loaded modules lazy (the PostgreSQL or PGlite driver, Redis).
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    plugins: [releasePlugin(SERVER_OUT)],
  });
  for (const file of RUNTIME_FILES) {
    rmSync(at(file.dist), { recursive: true, force: true });
    mkdirSync(dirname(at(file.dist)), { recursive: true });
    cpSync(at(file.source), at(file.dist), { recursive: true });
  }
  const inputs = Object.keys(result.metafile.inputs).filter((path) => !path.startsWith('node_modules/'));
  writeFileSync(at(SERVER_MANIFEST), `${JSON.stringify({ inputs }, null, 1)}\n`);
}

/** Builds every step, or with `changedOnly` the steps whose inputs are newer than their outputs. */
export async function buildRelease({
  changedOnly = false,
  log = (line) => process.stdout.write(`${line}\n`),
} = {}) {
  let rebuilt = false;
  for (const step of STEPS) {
    // A step after a rebuilt one sees its new outputs as newer inputs, so it is rebuilt too.
    if (changedOnly && step.inputs() <= step.builtAt()) continue;
    const startedAt = performance.now();
    await step.build();
    rebuilt = true;
    log(`built ${step.name} in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
  }
  return rebuilt;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const rebuilt = await buildRelease({ changedOnly: process.argv.includes('--changed') });
    if (!rebuilt) process.stdout.write('the build is up to date\n');
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
