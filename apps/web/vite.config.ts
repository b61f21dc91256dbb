import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';
import { preactAliases } from './preact-aliases.ts';
import { precompressAssets } from './precompress-plugin.ts';

const apiTarget = process.env.VITRINE_API ?? 'http://127.0.0.1:3000';

/**
 * react-router's package exports only its development build, whatever the mode
 * (https://github.com/remix-run/react-router/issues/12532): dev-only warnings and checks in every
 * page's first load. Its production build ships beside it in the same package; the app's build uses
 * that (about 0.5 KB gzip less, and no development warnings in production). The dev server keeps
 * the development build and its warnings. Fails the build if a future version moves the file.
 */
function reactRouterProductionBuild() {
  const packageDir = dirname(createRequire(import.meta.url).resolve('react-router/package.json'));
  const productionEntry = join(packageDir, 'dist', 'production', 'index.mjs');
  if (!existsSync(productionEntry))
    throw new Error(`react-router's production build is not at ${productionEntry}`);
  return { find: /^react-router$/, replacement: productionEntry };
}

export default defineConfig(({ command }) => ({
  // JSX for Preact, and in the dev server Preact's hot reload (Prefresh) and debug warnings. The
  // React aliases are ours (preact-aliases.ts), shared with the web unit tests.
  plugins: [preact({ reactAliasesEnabled: false }), precompressAssets()],
  base: '/',
  resolve: {
    alias: [...preactAliases, ...(command === 'build' ? [reactRouterProductionBuild()] : [])],
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    reportCompressedSize: false,
    // .vite/manifest.json: the server preloads a public page's lazy route chunks from its head (web-app.ts).
    manifest: true,
    // No module-preload polyfill in the first load (0.4 KB gzip of the widget's 91 KB budget): every
    // browser the player supports but Safari before 17 (2023) preloads `<link rel="modulepreload">`
    // itself, and there the modules still load when imported, only without the early start.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      onLog(level, log, handler) {
        // React Router reads React 19's `useOptimistic` if the runtime has it and otherwise keeps the
        // value as it is, which is what Preact gets: the missing export is expected.
        if (log.code === 'IMPORT_IS_UNDEFINED' && log.message.includes('useOptimistic')) return;
        handler(level, log);
      },
      output: {
        // Libraries every page loads first travel as one file: one gzip stream compresses better
        // than many small ones (the widget's first load has a 91 KB gzip budget). hls.js and
        // other on-demand libraries stay in their own lazy chunks.
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](preact|react-router|i18next|react-i18next|cookie|set-cookie-parser)[\\/]/,
            },
            // The app's own code that the entry imports statically (plumbing, host bridge, show
            // player, player cart): every page loads it first, so it too travels as one file. Left
            // to automatic chunking it splits into a dozen small files, one per set of lazy pages
            // sharing a module, and the widget's first load grows by about 5 KB gzip.
            {
              name: 'app-core',
              test: /[\\/](apps[\\/]web|packages[\\/][a-z-]+)[\\/]src[\\/]/,
              tags: ['$initial'],
            },
          ],
        },
      },
    },
  },
  // `vite` dev server: forward API and media calls to a running Vitrine server.
  server: {
    proxy: Object.fromEntries(
      ['/functions', '/shopapiv2', '/reads', '/admin', '/staff', '/media', '/payments', '/demo-media'].map(
        (path) => [path, apiTarget],
      ),
    ),
  },
}));
