import { randomBytes } from 'node:crypto';
import {
  SDP_CONTENT_TYPE,
  WHIP_OFFER_MAX_BYTES,
  WHIP_PATH,
  WHIP_SESSION_PATH_PREFIX,
  type WhipRefusal,
  whipSessionPath,
} from '@vitrine/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkWhipOffer } from './whip-offer.ts';
import { openWhipSession, type RtpInput, type WhipSession } from './whip-session.ts';

/** At most this many offers are negotiated at once: each costs a DTLS handshake and sockets. */
const MAX_NEGOTIATIONS = 8;

type Refusal = {
  ok: false;
  reason: Extract<WhipRefusal, 'unknown_key' | 'busy' | 'unavailable'>;
  message: string;
};

/** A publish accepted by the live pipeline; ended when the WHIP session ends. */
export interface WhipPublish {
  /** Stops feeding the show (the pipeline decides whether the show waits for a reconnect). */
  end(): Promise<void>;
}

/**
 * What WHIP needs of the live pipeline: whether a key may publish now (checked before any
 * WebRTC work, so a wrong key costs nothing), then the start of the publish from the RTP input.
 */
export interface WhipPublishTarget {
  check(streamKey: string): Promise<{ ok: true } | Refusal>;
  begin(streamKey: string, input: RtpInput): Promise<{ ok: true; publish: WhipPublish } | Refusal>;
}

export interface WhipRouteOptions {
  target: WhipPublishTarget;
  /** Host addresses offered beside the machine's interfaces (e.g. 127.0.0.1 for a local encoder). */
  extraHostAddresses?: string[];
  icePortRange?: [number, number];
}

const STATUS: Record<WhipRefusal, number> = {
  missing_key: 401,
  unknown_key: 401,
  busy: 409,
  bad_offer: 400,
  no_video: 400,
  unsupported_codec: 400,
  unavailable: 503,
};

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, DELETE, PATCH, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, if-match',
  'access-control-expose-headers': 'location, link, etag',
  'access-control-max-age': '600',
};

/**
 * WHIP ingest (RFC 9725): `POST /whip` with the stream key as bearer and an SDP offer answers
 * `201` with the SDP answer and the session's `Location`; `DELETE <Location>` ends the publish.
 * Trickle ICE is not offered (the answer carries every candidate), so PATCH answers 405.
 */
export function registerWhipRoutes(app: FastifyInstance, options: WhipRouteOptions): void {
  const sessions = new Map<string, { session: WhipSession; publish: WhipPublish }>();
  let negotiating = 0;

  app.addHook('onClose', async () => {
    const open = [...sessions.values()];
    sessions.clear();
    await Promise.all(
      open.map(async ({ session, publish }) => Promise.all([session.close(), publish.end()])),
    );
  });

  app.register(async (scope) => {
    scope.addContentTypeParser(
      SDP_CONTENT_TYPE,
      { parseAs: 'string', bodyLimit: WHIP_OFFER_MAX_BYTES },
      (_request, body, done) => done(null, body),
    );
    scope.addHook('onSend', async (_request, reply) => {
      reply.headers(CORS_HEADERS);
    });

    const allowed = 'POST, OPTIONS';
    scope.options(WHIP_PATH, async (_request, reply) =>
      reply.status(204).header('accept-post', SDP_CONTENT_TYPE).header('allow', allowed).send(),
    );

    scope.post(WHIP_PATH, async (request, reply) => {
      const key = bearer(request);
      if (!key) return refuse(reply, 'missing_key', 'Send the stream key as `Authorization: Bearer <key>`.');
      if (typeof request.body !== 'string')
        return refuse(reply, 'bad_offer', `Send the SDP offer with Content-Type: ${SDP_CONTENT_TYPE}.`);
      const offer = checkWhipOffer(request.body);
      if (!offer.ok) return refuse(reply, offer.error, offer.message);
      const allowedNow = await options.target.check(key);
      if (!allowedNow.ok) {
        request.log.warn({ reason: allowedNow.reason }, 'whip publish refused');
        return refuse(reply, allowedNow.reason, allowedNow.message);
      }
      if (negotiating >= MAX_NEGOTIATIONS)
        return refuse(reply, 'unavailable', 'Too many publishes are starting at once; retry in a moment.');
      negotiating += 1;
      let session: WhipSession;
      try {
        session = await openWhipSession({
          offerSdp: request.body,
          videoCodec: offer.videoCodec,
          hasAudio: offer.hasAudio,
          extraHostAddresses: options.extraHostAddresses,
          icePortRange: options.icePortRange,
        });
      } catch (error) {
        request.log.info({ err: error }, 'whip offer not negotiable');
        return refuse(reply, 'bad_offer', 'The SDP offer could not be negotiated.');
      } finally {
        negotiating -= 1;
      }
      const begun = await options.target.begin(key, session.input).catch((error: unknown) => {
        request.log.error({ err: error }, 'whip publish could not start');
        return { ok: false, reason: 'unavailable', message: 'The live pipeline could not start.' } as const;
      });
      if (!begun.ok) {
        await session.close();
        request.log.warn({ reason: begun.reason }, 'whip publish refused');
        return refuse(reply, begun.reason, begun.message);
      }
      const id = randomBytes(16).toString('base64url');
      sessions.set(id, { session, publish: begun.publish });
      // A publisher that vanishes without DELETE (ICE fails, DTLS closes) ends the same way.
      void session.ended.then(async () => {
        if (!sessions.delete(id)) return;
        await begun.publish
          .end()
          .catch((error: unknown) => app.log.error({ err: error }, 'ending publish failed'));
      });
      request.log.info({ session: id, codec: offer.videoCodec }, 'whip publish started');
      return reply
        .status(201)
        .header('content-type', SDP_CONTENT_TYPE)
        .header('location', whipSessionPath(id))
        .send(session.answerSdp);
    });

    const sessionRoute = `${WHIP_SESSION_PATH_PREFIX}:id`;
    scope.options(sessionRoute, async (_request, reply) =>
      reply.status(204).header('allow', 'DELETE, PATCH, OPTIONS').send(),
    );
    scope.delete<{ Params: { id: string } }>(sessionRoute, async (request, reply) => {
      const found = sessions.get(request.params.id);
      if (!found) return reply.status(404).send({ error: 'not_found', message: 'No such WHIP session.' });
      sessions.delete(request.params.id);
      await Promise.all([found.session.close(), found.publish.end()]);
      request.log.info({ session: request.params.id }, 'whip publish ended');
      return reply.status(200).send();
    });
    scope.patch(sessionRoute, async (_request, reply) =>
      reply.status(405).header('allow', 'DELETE, OPTIONS').send({
        error: 'method_not_allowed',
        message: 'Trickle ICE is not supported: the answer has every candidate.',
      }),
    );
  });
}

function bearer(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

function refuse(reply: FastifyReply, error: WhipRefusal, message: string) {
  if (error === 'missing_key' || error === 'unknown_key') reply.header('www-authenticate', 'Bearer');
  return reply.status(STATUS[error]).send({ error, message });
}
