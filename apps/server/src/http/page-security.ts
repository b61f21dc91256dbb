import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * Which store a page belongs to, for the pages a retailer may frame: the widget routes (spec §2)
 * and the checkout routes the player navigates its own frame to (a reload, or the return from a
 * payment page, loads them inside the retailer's iframe). Everything else is never framed.
 */
export type FramedPageOwner = { pageUid: string } | { campaignUid: string } | null;

const CHECKOUT_STEPS = new Set(['confirm', 'success']);

/**
 * The owner of a framable page path, or null when the path is never framed. The multi-event
 * widget without a `pageUid` parameter shows the default store, as its loader does.
 */
export function framedPageOwner(
  pathname: string,
  search: URLSearchParams,
  defaultPageUid: string,
): FramedPageOwner {
  const segments = pathname.split('/').filter(Boolean).map(safeDecode);
  if (segments.some((segment) => segment === null)) return null;
  const [first, second, third, fourth] = segments as string[];
  // The studio is never framed: a store's embed origins must not be able to clickjack its staff.
  if (first === 'studio') return null;
  if (first === 'widget') {
    if (!second) return null;
    if (second === 'multi-event') return { pageUid: search.get('pageUid') || defaultPageUid };
    return { pageUid: second };
  }
  if (first === 'options' || first === 'select-checkout-location') {
    return segments.length === 4 && second && third ? { campaignUid: third } : null;
  }
  if (segments.length === 4 && fourth === 'error' && second) return { campaignUid: second };
  // `/:campaignUid/:checkoutUid` and `/:campaignUid/create`, not `/:pageUid/tiktok` or `/auth/callback`.
  if (segments.length === 2 && first && second && second !== 'tiktok' && first !== 'auth') {
    return { campaignUid: first };
  }
  if (segments.length === 3 && first && third && CHECKOUT_STEPS.has(third)) return { campaignUid: first };
  return null;
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** An origin as CSP source expression, or null for anything that is not a plain http(s) origin. */
export function cspOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    // A CSP source may not carry a path, quotes or separators: the URL parser normalized them away.
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * Who may frame an answer: `'self'` and the given embed origins (normalized; anything that is not
 * a plain http(s) origin is dropped), or no one, with X-Frame-Options for browsers without CSP 2.
 */
export function framingPolicy(embedOrigins: readonly string[]): {
  frameAncestors: string;
  xFrameOptions: 'DENY' | null;
} {
  const allowed = embedOrigins.flatMap((origin) => cspOrigin(origin) ?? []);
  return allowed.length
    ? { frameAncestors: `frame-ancestors 'self' ${allowed.join(' ')}`, xFrameOptions: null }
    : { frameAncestors: "frame-ancestors 'none'", xFrameOptions: 'DENY' };
}

/** The realtime socket's origin for an http(s) base URL (ws/wss), for connect-src. */
function socketOrigin(origin: string): string {
  return origin.replace(/^http/, 'ws');
}

export interface PageSecurityOptions {
  /** The store at the site root (the first store made, unless configured): asked per page. */
  defaultPageUid: () => Promise<string>;
  /** Inline scripts the pages carry (the runtime config, which names the default store), allowed by their hash. */
  inlineScripts: () => Promise<readonly string[]>;
  /** Base URLs of the API connections when they are not this server (VITRINE_MAIN_URL, VITRINE_SHOP_URL). */
  apiBaseUrls: readonly string[];
  /** The origins allowed to frame a page of this owner; empty when none may. */
  frameAncestors(owner: Exclude<FramedPageOwner, null>): Promise<string[]>;
}

/** The Content-Security-Policy of the web app's pages, with `frame-ancestors` given per page. */
export function contentSecurityPolicy(
  options: Pick<PageSecurityOptions, 'apiBaseUrls'> & { inlineScripts: readonly string[] },
  frameAncestors: string,
  /** This server's socket origin (ws://host): older browsers do not count it as 'self'. */
  ownSocketOrigin = '',
): string {
  const scriptHashes = options.inlineScripts.map(
    (script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`,
  );
  const apiOrigins = options.apiBaseUrls.flatMap((url) => {
    const origin = cspOrigin(url);
    return origin ? [origin, socketOrigin(origin)] : [];
  });
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${scriptHashes.join(' ')}`.trim(),
    // React and the player set element styles; style attributes cannot be hashed.
    "style-src 'self' 'unsafe-inline'",
    // Product images, covers and videos come from the store's own CDN, whatever it is (media
    // URLs may be http(s) by the protocol's MediaUrl), and hls.js fetches playlists and segments
    // from it; what this policy guards is where scripts come from.
    "img-src 'self' data: blob: https: http:",
    "media-src 'self' blob: https: http:",
    "font-src 'self' data:",
    ["connect-src 'self'", ownSocketOrigin, 'https:', ...apiOrigins].filter(Boolean).join(' '),
    // hls.js runs its demuxer in a blob: worker.
    "worker-src 'self' blob:",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    frameAncestors,
  ];
  return directives.join('; ');
}

/**
 * Security headers: every answer is `nosniff` with a strict referrer policy; the web app's pages
 * (HTML) get a Content-Security-Policy whose `frame-ancestors` names only the store's allowed
 * embed origins on the widget and checkout pages, and no one elsewhere (with X-Frame-Options for
 * browsers without CSP level 2). Pages that set their own policy (the payment page) keep it.
 */
export function registerPageSecurity(app: FastifyInstance, options: PageSecurityOptions): void {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    // A route with a stricter policy of its own (the payment page: its URL holds a key) keeps it.
    if (!reply.hasHeader('referrer-policy'))
      reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('text/html') || reply.hasHeader('content-security-policy')) return payload;
    const url = new URL(request.url, 'http://localhost');
    const owner = framedPageOwner(url.pathname, url.searchParams, await options.defaultPageUid());
    const framing = framingPolicy(owner ? await options.frameAncestors(owner).catch(() => []) : []);
    const ownSocket = cspOrigin(`${request.protocol}://${request.host}`);
    reply.header(
      'content-security-policy',
      contentSecurityPolicy(
        { apiBaseUrls: options.apiBaseUrls, inlineScripts: await options.inlineScripts() },
        framing.frameAncestors,
        ownSocket ? socketOrigin(ownSocket) : '',
      ),
    );
    if (framing.xFrameOptions) reply.header('x-frame-options', framing.xFrameOptions);
    return payload;
  });
}
