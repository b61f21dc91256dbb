import {
  SDP_CONTENT_TYPE,
  WHIP_OFFER_MAX_BYTES,
  WHIP_PATH,
  WHIP_SESSION_PATH_PREFIX,
} from '@vitrine/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The request headers WHIP needs (RFC 9725) and the answer headers a publisher reads. */
const FORWARDED_REQUEST_HEADERS = ['authorization', 'content-type', 'if-match'];
const FORWARDED_ANSWER_HEADERS = [
  'content-type',
  'location',
  'link',
  'etag',
  'accept-post',
  'allow',
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
];

/**
 * WHIP on a web server whose video runs in the media worker: the studio's browser go-live and
 * OBS post to this server's `/whip` as always, and each request goes on to the worker, which
 * negotiates the WebRTC session (its answer's ICE candidates are the worker machine's).
 */
export function registerWhipProxy(
  app: FastifyInstance,
  worker: () => { url: string; headers: Record<string, string> } | null,
): void {
  app.register(async (scope) => {
    scope.addContentTypeParser(
      SDP_CONTENT_TYPE,
      { parseAs: 'string', bodyLimit: WHIP_OFFER_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      const target = worker();
      if (!target)
        return reply
          .status(503)
          .send({ error: 'unavailable', message: 'The media worker is not running; try again in a moment.' });
      // The publisher's address, for the worker's log lines (it trusts its web servers' word).
      const headers: Record<string, string> = { ...target.headers, 'x-forwarded-for': request.ip };
      for (const name of FORWARDED_REQUEST_HEADERS) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const answer = await fetch(`${target.url}${request.url}`, {
        method: request.method,
        headers,
        body: typeof request.body === 'string' ? request.body : undefined,
      }).catch(() => null);
      if (!answer)
        return reply.status(503).send({
          error: 'unavailable',
          message: 'The media worker could not be reached; try again in a moment.',
        });
      for (const name of FORWARDED_ANSWER_HEADERS) {
        const value = answer.headers.get(name);
        if (value !== null) reply.header(name, value);
      }
      return reply.status(answer.status).send(Buffer.from(await answer.arrayBuffer()));
    };
    scope.route({ method: ['POST', 'OPTIONS'], url: WHIP_PATH, handler: forward });
    scope.route({
      method: ['DELETE', 'PATCH', 'OPTIONS'],
      url: `${WHIP_SESSION_PATH_PREFIX}:session`,
      handler: forward,
    });
  });
}
