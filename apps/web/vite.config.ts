import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompressAssets } from './precompress-plugin.ts';

const apiTarget = process.env.VITRINE_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), precompressAssets()],
  base: '/',
  build: {
    target: 'es2022',
    sourcemap: true,
    reportCompressedSize: false,
    rolldownOptions: {
      output: {
        // Libraries every page loads first travel as one file: one gzip stream compresses better
        // than many small ones (the widget's first load has a 150 KB gzip budget). hls.js and
        // other on-demand libraries stay in their own lazy chunks.
        codeSplitting: {
          groups: [
            {
              name: 'vendor',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|i18next|react-i18next|cookie|set-cookie-parser)[\\/]/,
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
});
