import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

/** The demo retailer's static site: a product page and a basket page embedding the player. */
export const DEMO_RETAILER_DIR = fileURLToPath(new URL('../../../../demo-retailer/', import.meta.url));

/** Pages and the file each is; `{{VITRINE_ORIGIN}}` in them becomes the player's origin. */
const PAGES: Record<string, string> = {
  '/': 'index.html',
  '/index.html': 'index.html',
  '/cart': 'cart.html',
  '/cart.html': 'cart.html',
};

export interface DemoRetailerOptions {
  port: number;
  host: string;
  /** Origin of the Vitrine server the pages load /sdk.js and the player from. */
  playerOrigin: string;
  dir?: string;
}

export interface DemoRetailer {
  /** Address to open, e.g. http://127.0.0.1:3001 (no trailing slash). */
  url: string;
  /** Origins a browser may see the site under; the demo store must allow them all. */
  origins: string[];
  close(): Promise<void>;
}

/**
 * Serves the demo retailer (apps/demo-retailer) on its own port, so it is a second origin and the
 * player embedded in it runs cross-origin exactly as on a real retailer's site.
 */
export async function startDemoRetailer({
  port,
  host,
  playerOrigin,
  dir = DEMO_RETAILER_DIR,
}: DemoRetailerOptions): Promise<DemoRetailer> {
  const origin = new URL(playerOrigin).origin;
  const server = Fastify({ logger: false });
  for (const [path, file] of Object.entries(PAGES)) {
    server.get(path, async (_request, reply) => {
      // Read on every request: it is a demo, and edits show on reload.
      const html = (await readFile(`${dir}/${file}`, 'utf8')).replaceAll('{{VITRINE_ORIGIN}}', origin);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    });
  }
  await server.register(fastifyStatic, {
    root: dir,
    index: false,
    // The pages go through the routes above, never raw.
    allowedPath: (path) => !path.endsWith('.html'),
    cacheControl: false,
    setHeaders: (reply) => reply.header('cache-control', 'no-cache'),
  });
  const address = await server.listen({ port, host });
  const bound = server.server.address();
  const actualPort = typeof bound === 'object' && bound ? bound.port : port;
  const loopback = `http://127.0.0.1:${actualPort}`;
  const url = ['0.0.0.0', '::'].includes(host) ? loopback : address;
  return {
    url,
    origins: [...new Set([new URL(url).origin, loopback, `http://localhost:${actualPort}`])],
    close: () => server.close(),
  };
}
