// Prints the gzip size of the web app's initial JavaScript: the entry script of index.html and
// every chunk it preloads. Lazy chunks (languages, hls.js) are listed separately.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = new URL('../apps/web/dist/', import.meta.url).pathname;
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = new Set(
  [...html.matchAll(/<(?:script[^>]+src|link[^>]+rel="modulepreload"[^>]+href)="\/([^"]+\.js)"/g)].map(
    (m) => m[1],
  ),
);
const gzipKb = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024;
const all = readdirSync(join(dist, 'assets'))
  .filter((name) => name.endsWith('.js'))
  .map((name) => `assets/${name}`);
const initialKb = [...initial].reduce((sum, file) => sum + gzipKb(file), 0);
const lazy = all.filter((file) => !initial.has(file));
console.log(
  JSON.stringify({
    initialJsGzipKb: Number(initialKb.toFixed(1)),
    initialFiles: [...initial],
    hlsOnDemandGzipKb: Number(
      lazy
        .filter((file) => /hls/i.test(file))
        .reduce((sum, file) => sum + gzipKb(file), 0)
        .toFixed(1),
    ),
    lazyChunks: lazy.length,
  }),
);
console.log(
  'e2e/bundle-size.e2e.ts measures what the widget route loads in Chromium and enforces its 91 KB budget.',
);
