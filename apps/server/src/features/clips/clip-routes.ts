import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { notFound } from '../../http/errors.ts';
import { registerCall } from '../../http/register-call.ts';
import type { ClipService } from './clip-service.ts';

/**
 * A clip's file may be cached a while, not for ever: a host who hides it expects it gone from
 * the site within minutes (a re-cut has a new address anyway).
 */
const CLIP_FILE_CACHE_CONTROL = 'public, max-age=300';

/** The one byte range of a `Range` header (`bytes=a-b`, `bytes=a-`, `bytes=-n`), or null. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const start = match[1] === '' ? Math.max(0, size - Number(match[2])) : Number(match[1]);
  const end = match[1] === '' || match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start <= end && start < size ? { start, end } : null;
}

/** The clip calls (public and studio) and the clips' MP4 files. */
export function registerClipRoutes(
  app: FastifyInstance,
  deps: { clips: ClipService; staffGate: StaffGate },
): void {
  const { clips, staffGate } = deps;
  const staff = { staffGate };
  registerCall(app, 'getClip', (body) => clips.publicClip(body.pageUid, body.clipUid));
  registerCall(app, 'productClip', (body) => clips.productClip(body.pageUid, body.product));
  registerCall(
    app,
    'listShowClips',
    (_body, { params }) => clips.list(params.pageUid, params.showUid),
    staff,
  );
  registerCall(
    app,
    'trimShowClip',
    (body, { params }) => clips.trim(params.pageUid, params.showUid, params.clipUid, body),
    staff,
  );
  registerCall(
    app,
    'setShowClipHidden',
    (body, { params }) => clips.setHidden(params.pageUid, params.showUid, params.clipUid, body.hidden),
    staff,
  );
  registerCall(
    app,
    'markHighlight',
    (_body, { params }) => clips.markHighlight(params.pageUid, params.showUid),
    staff,
  );

  // A visible clip's MP4, for its page, the SDK's player and chat apps (og:video), with byte ranges
  // as browsers ask for video; and its poster (og:image).
  app.get<{ Params: { clipUid: string; file: string } }>(
    '/clips/:clipUid/:file',
    { compress: false },
    async (request, reply) => {
      const { clipUid, file } = request.params;
      const found = /^[A-Za-z0-9_-]{1,128}$/.test(clipUid) ? await clips.clipFile(clipUid, file) : null;
      if (!found) throw notFound('No such clip.');
      reply.header('cache-control', CLIP_FILE_CACHE_CONTROL).header('access-control-allow-origin', '*');
      if ('location' in found) return reply.redirect(found.location, 302);
      const { bytes, contentType } = found;
      reply.type(contentType).header('accept-ranges', 'bytes');
      const header = request.headers.range;
      if (header === undefined) return reply.send(bytes);
      const range = byteRange(header, bytes.length);
      if (!range) return reply.code(416).header('content-range', `bytes */${bytes.length}`).send();
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${bytes.length}`)
        .send(bytes.subarray(range.start, range.end + 1));
    },
  );
}
