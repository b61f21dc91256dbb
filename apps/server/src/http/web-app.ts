import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const brotliCompressAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What the web app needs to know about this deployment, injected into index.html. */
export interface WebRuntimeConfig {
  mainUrl: string;
  shopUrl: string;
  defaultPageUid: string;
}

/** The inline script that hands the runtime config to the app (the page policy allows it by hash). */
export function runtimeConfigScript(runtime: WebRuntimeConfig): string {
  return `window.__VITRINE__=${JSON.stringify(runtime).replace(/</g, '\\u003c')}`;
}

/**
 * A page's own head: its elements' HTML (in place of the app's `<title>`), its language, and the
 * app's route it opens on (whose lazy chunks the head then preloads).
 */
export interface PageHeadHtml {
  lang: string;
  html: string;
  route?: PublicRoute;
}

/** The app's routes a public page opens on. */
export type PublicRoute = 'shop' | 'show' | 'clip';

/**
 * The app's source modules each public route loads lazily before it paints, in the page's
 * language `lang` (keys of Vite's build manifest). The shop page is a lazy route (the player's
 * first bundle does not carry it): without a preload its chunks are asked for only once the entry
 * script has run; a clip's page likewise, and its texts. A show is in the first bundle. Each
 * language's texts but English's (in the bundle) load on demand too. A module the manifest does
 * not have (a language it has no file for) is left out.
 */
function routeModules(route: PublicRoute, lang: string): string[] {
  const texts = lang === 'en' ? [] : [`src/locales/${lang}.json`];
  switch (route) {
    case 'shop':
      return ['src/features/shop/shop-page.tsx', ...texts];
    case 'show':
      // Not its interaction texts: the widget's first load has a budget (e2e/bundle-size), and
      // preloading them (2 KB) moved no measured paint (bench/lighthouse/README.md).
      return texts;
    case 'clip':
      return ['src/features/clips/clip-page.tsx', `src/locales/clips/${lang}.json`, ...texts];
  }
}

/** The parts of Vite's `.vite/manifest.json` read here. */
export type ViteManifest = Record<
  string,
  { file: string; imports?: string[]; css?: string[]; isEntry?: boolean }
>;

/**
 * The `<link>` elements that fetch `modules` and the chunks and styles they import statically,
 * leaving out what index.html loads already (its entry's chunks); empty for a module the manifest
 * does not have. `crossorigin` as Vite's own links have it, or the browser fetches a file again.
 */
export function modulePreloadLinks(manifest: ViteManifest, modules: readonly string[]): string[] {
  const reachable = (keys: readonly string[], into = new Set<string>()): Set<string> => {
    for (const key of keys) {
      if (into.has(key) || !manifest[key]) continue;
      into.add(key);
      reachable(manifest[key].imports ?? [], into);
    }
    return into;
  };
  const initial = reachable(Object.keys(manifest).filter((key) => manifest[key]?.isEntry));
  const wanted = [...reachable(modules)].filter((key) => !initial.has(key));
  const chunks = wanted.map((key) => manifest[key]?.file ?? '').filter(Boolean);
  const styles = [...new Set(wanted.flatMap((key) => manifest[key]?.css ?? []))];
  return [
    ...chunks.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ...styles.map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
  ];
}

/**
 * The head of the page a request asks for, or null when it is no public page (the app's plain
 * page then goes out, marked for crawlers not to index).
 */
export type PageHeadSource = (request: FastifyRequest) => Promise<PageHeadHtml | null>;

const TITLE_ELEMENT = /<title>[^<]*<\/title>/;
const HTML_LANG = /<html lang="[^"]*"/;
const HEAD_END = /<\/head>/;

const API_PREFIXES = [
  '/functions/',
  '/shopapiv2/',
  '/reads/',
  '/admin/',
  '/staff/',
  '/payments/',
  '/realtime',
  '/healthz',
  '/readyz',
  '/sdk.js',
];

/** index.html with a runtime config, plain and compressed. */
interface IndexPage {
  script: string;
  html: string;
  brotli: Buffer;
  gzip: Buffer;
}

/**
 * Serves the built web app: hashed assets from disk with long caching, and index.html (with the
 * runtime config) for every other GET that is not an API path, so client routes load on refresh.
 * `runtime` is asked per page: the default store changes once, when the first store is made.
 */
export async function registerWebApp(
  app: FastifyInstance,
  distDir: string,
  runtime: WebRuntimeConfig | (() => Promise<WebRuntimeConfig>),
  pageHead?: PageHeadSource,
) {
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn({ distDir }, 'web app not built; run `npm run build:web` to serve the storefront');
    return;
  }
  const template = readFileSync(indexPath, 'utf8');
  const manifestPath = join(distDir, '.vite', 'manifest.json');
  const manifest: ViteManifest = existsSync(manifestPath)
    ? JSON.parse(readFileSync(manifestPath, 'utf8'))
    : {};
  // A few routes × eleven languages: each page kind's links worked out once.
  const preloads = new Map<string, string[]>();
  const routePreloads = (route: PublicRoute, lang: string) => {
    const key = `${route} ${lang}`;
    let links = preloads.get(key);
    if (!links) {
      links = modulePreloadLinks(manifest, routeModules(route, lang));
      preloads.set(key, links);
    }
    return links;
  };
  const runtimeNow = typeof runtime === 'function' ? runtime : async () => runtime;
  let cached: IndexPage | null = null;
  // The page is the same until the runtime config changes: compressed once per config. (The
  // not-found handler is no route, so the compression hook, which @fastify/compress adds per
  // route, misses it.)
  const indexPage = async (): Promise<IndexPage> => {
    const script = runtimeConfigScript(await runtimeNow());
    if (cached?.script === script) return cached;
    const html = template.replace('<!--vitrine-runtime-config-->', `<script>${script}</script>`);
    cached = {
      script,
      html,
      brotli: brotliCompressSync(html, {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
      }),
      gzip: gzipSync(html, { level: 9 }),
    };
    return cached;
  };
  await indexPage();
  const headsPossible = pageHead !== undefined && TITLE_ELEMENT.test(template);
  if (pageHead && !headsPossible)
    app.log.warn({ distDir }, 'index.html has no <title>: public pages are served without their head');

  /**
   * The page's own head; null when it is no public page; undefined when heads are off or making
   * one failed (a failure costs the head, never the page, and does not mark it unindexable).
   */
  async function headOf(request: FastifyRequest): Promise<PageHeadHtml | null | undefined> {
    if (!pageHead || !headsPossible) return undefined;
    try {
      return await pageHead(request);
    } catch (error) {
      request.log.error({ err: error }, 'making the page head failed');
      return undefined;
    }
  }

  /** The page with its own head, compressed for this request (a head is a few kilobytes). */
  async function sendWithHead(request: FastifyRequest, reply: FastifyReply, head: PageHeadHtml) {
    const lang = head.lang.replace(/[^A-Za-z-]/g, '');
    const page = (await indexPage()).html
      .replace(HTML_LANG, `<html lang="${lang}"`)
      .replace(TITLE_ELEMENT, () => head.html)
      // After the entry script and its chunks, which come first on a slow line.
      .replace(HEAD_END, () =>
        [...(head.route ? routePreloads(head.route, lang) : []), '</head>'].join('\n  '),
      );
    const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
    if (encoding === 'br')
      return reply
        .header('content-encoding', 'br')
        .send(await brotliCompressAsync(page, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
    if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(await gzipAsync(page));
    return reply.send(page);
  }

  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    wildcard: false,
    // The build writes .br and .gz copies of the text assets: sent as they are, by Accept-Encoding.
    preCompressed: true,
    setHeaders(reply, path) {
      // Vite puts content-hashed files under assets/, so they never change.
      if (path.startsWith(join(distDir, 'assets')))
        reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });

  app.setNotFoundHandler(async (request, reply) => {
    const isPageRequest =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !API_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    if (!isPageRequest) {
      return reply
        .status(404)
        .send({ error: 'not_found', message: `No route ${request.method} ${request.url}.` });
    }
    // The client router renders its own not-found page for unknown paths.
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding');
    const head = await headOf(request);
    if (head) return sendWithHead(request, reply, head);
    // Checkouts, the studio, drafts and private shows: nothing for a search engine to keep.
    if (head === null) reply.header('x-robots-tag', 'noindex');
    const page = await indexPage();
    const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
    if (encoding === 'br') return reply.header('content-encoding', 'br').send(page.brotli);
    if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(page.gzip);
    return reply.send(page.html);
  });
}
