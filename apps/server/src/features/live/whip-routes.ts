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
import type { BeginPublish, PublishRefusalReason, PublishResult, PublishSession } from './publish-session.ts';
import { checkWhipOffer, type WhipVideoCodec } from './whip-offer.ts';
import { openWhipSession, prepareRtpInput, type WhipSession } from './whip-session.ts';

/** At most this many offers are negotiated at once: each costs a DTLS handshake and sockets. */
const MAX_NEGOTIATIONS = 8;

export interface WhipRouteOptions {
  /** The live pipeline's door (live-service.ts `beginPublish`): checks the key, runs ffmpeg. */
  beginPublish: BeginPublish;
  /**
   * Whether a publish with this key would be taken (live-service.ts `checkKey`): asked before
   * any socket is set up (the RTSP server ffmpeg reads from, werift's ICE), so a wrong key costs nothing.
   */
  checkKey: (
    streamKey: string,
  ) => Promise<{ ok: true } | { ok: false; reason: PublishRefusalReason; message: string }>;
  /** Host addresses offered beside the machine's interfaces (e.g. 127.0.0.1 for a local encoder). */
  extraHostAddresses?: string[];
  icePortRange?: [number, number];
}

/** The answer to each refusal of the live pipeline. */
const PUBLISH_REFUSALS: Record<PublishRefusalReason, WhipRefusal> = {
  'unknown-key': 'unknown_key',
  'already-publishing': 'busy',
  ended: 'ended',
  'no-ffmpeg': 'unavailable',
  'beyond-transcode-budget': 'unsupported_codec',
};

const STATUS: Record<WhipRefusal, number> = {
  missing_key: 401,
  unknown_key: 401,
  busy: 409,
  ended: 409,
  bad_offer: 400,
  unsupported_media_type: 415,
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
  const sessions = new Map<string, { session: WhipSession; publish: PublishSession }>();
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
      if (request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() !== SDP_CONTENT_TYPE)
        return refuse(
          reply,
          'unsupported_media_type',
          `Send the SDP offer with Content-Type: ${SDP_CONTENT_TYPE}.`,
        );
      if (typeof request.body !== 'string')
        return refuse(reply, 'bad_offer', 'The body is not an SDP offer (RFC 8866).');
      const offer = checkWhipOffer(request.body);
      if (!offer.ok) return refuse(reply, offer.error, offer.message);
      if (negotiating >= MAX_NEGOTIATIONS)
        return refuse(reply, 'unavailable', 'Too many publishes are starting at once; retry in a moment.');
      negotiating += 1;
      try {
        return await negotiate(request, reply, key, request.body, offer);
      } finally {
        negotiating -= 1;
      }
    });

    /** Asks the pipeline first (a wrong key costs no WebRTC work), then answers the offer. */
    async function negotiate(
      request: FastifyRequest,
      reply: FastifyReply,
      key: string,
      offerSdp: string,
      offer: { videoCodec: WhipVideoCodec; hasAudio: boolean },
    ) {
      const check = await options.checkKey(key);
      if (!check.ok) {
        request.log.warn({ ip: request.ip }, `whip publish refused: ${check.message}`);
        return refuse(reply, PUBLISH_REFUSALS[check.reason], check.message);
      }
      const input = await prepareRtpInput(offer.videoCodec, offer.hasAudio);
      const begun = await options
        .beginPublish({
          streamKey: key,
          protocol: 'whip',
          remoteAddress: request.ip,
          input: {
            videoCodec: offer.videoCodec === 'H264' ? 'h264' : 'vp8',
            // A restarted ffmpeg connects to the same RTSP server: RTP flows to it again from a
            // keyframe once it asks to PLAY.
            open: () => input.openRun(),
          },
        })
        .catch((error: unknown): PublishResult => {
          request.log.error({ err: error }, 'whip publish could not start');
          return { ok: false, reason: 'no-ffmpeg', message: 'The live pipeline could not start.' };
        });
      if (!begun.ok) {
        input.dispose();
        request.log.warn({ reason: begun.reason, ip: request.ip }, 'whip publish refused');
        return refuse(reply, PUBLISH_REFUSALS[begun.reason], begun.message);
      }
      const publish = begun.session;
      let session: WhipSession;
      try {
        session = await openWhipSession({
          offerSdp,
          input,
          extraHostAddresses: options.extraHostAddresses,
          icePortRange: options.icePortRange,
        });
      } catch (error) {
        publish.end();
        input.dispose();
        request.log.info({ err: error }, 'whip offer not negotiable');
        return refuse(reply, 'bad_offer', 'The SDP offer could not be negotiated.');
      }
      const id = randomBytes(16).toString('base64url');
      sessions.set(id, { session, publish });
      // A publisher that vanishes without DELETE (ICE fails, DTLS closes) ends the same way.
      void session.ended.then(() => {
        sessions.delete(id);
        publish.end();
        input.dispose();
      });
      // The host ended the show (or ffmpeg gave up) while the encoder still sends: hang up.
      publish.onEnded(() => void session.close());
      request.log.info(
        { session: id, event: publish.eventId, codec: offer.videoCodec },
        'whip publish started',
      );
      return reply
        .status(201)
        .header('content-type', SDP_CONTENT_TYPE)
        .header('location', whipSessionPath(id))
        .send(session.answerSdp);
    }

    const sessionRoute = `${WHIP_SESSION_PATH_PREFIX}:id`;
    scope.options(sessionRoute, async (_request, reply) =>
      reply.status(204).header('allow', 'DELETE, PATCH, OPTIONS').send(),
    );
    scope.delete<{ Params: { id: string } }>(sessionRoute, async (request, reply) => {
      const found = sessions.get(request.params.id);
      if (!found) return reply.status(404).send({ error: 'not_found', message: 'No such WHIP session.' });
      sessions.delete(request.params.id);
      found.publish.end();
      await found.session.close();
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
