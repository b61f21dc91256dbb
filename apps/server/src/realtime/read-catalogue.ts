import { createHash } from 'node:crypto';
import { ReadCatalogue, type ReadName, type ReadParams, type ReadResult } from '@vitrine/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { HttpError, parseInput } from '../http/errors.ts';

export type ReadHandlers = { [N in ReadName]: (params: ReadParams<N>) => Promise<ReadResult<N>> };

/** The longest `params` query a GET read takes (the params of every read are a few ids). */
const MAX_PARAMS_QUERY_CHARS = 4096;

/**
 * Serves each named read of the catalogue as a snapshot, at `POST /reads/{name}` (params as the
 * JSON body) and at `GET /reads/{name}?params={JSON}`. The GET answer carries an ETag and
 * `no-cache`: a browser asks again each time, and an unchanged read costs a 304 without a body.
 * The realtime gateway serves the same handlers as live queries, so there is one place per read.
 */
export function registerReadRoutes(app: FastifyInstance, handlers: ReadHandlers): void {
  app.post('/reads/:name', async (request) => runRead(handlers, readName(request.params), request.body));

  app.get('/reads/:name', async (request, reply) => {
    const name = readName(request.params);
    const { params } = parseInput(
      z.object({ params: z.string().max(MAX_PARAMS_QUERY_CHARS).default('{}') }),
      request.query,
    );
    let rawParams: unknown;
    try {
      rawParams = JSON.parse(params);
    } catch {
      throw new HttpError(400, 'invalid_request', 'params: not JSON.');
    }
    const body = JSON.stringify(await runRead(handlers, name, rawParams));
    // Weak: the bytes sent differ by content encoding, the data they carry does not.
    const etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
    reply.header('etag', etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (matches(request.headers['if-none-match'], etag)) return reply.status(304).send();
    return reply.type('application/json; charset=utf-8').send(body);
  });
}

function readName(rawParams: unknown): ReadName {
  const { name } = parseInput(z.object({ name: z.string().max(100) }), rawParams);
  if (!Object.hasOwn(ReadCatalogue, name)) throw new HttpError(404, 'not_found', `Unknown read "${name}".`);
  return name as ReadName;
}

/** Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 asks for GET). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

export function runRead<N extends ReadName>(
  handlers: ReadHandlers,
  name: N,
  rawParams: unknown,
): Promise<ReadResult<N>> {
  const params = parseInput(ReadCatalogue[name].params, rawParams) as ReadParams<N>;
  return handlers[name](params);
}
