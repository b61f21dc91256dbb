import { randomUUID, timingSafeEqual } from 'node:crypto';
import {
  MEDIA_HELD_HEADER,
  MEDIA_PATHS,
  MEDIA_TOKEN_HEADER,
  type MediaCheckKeyAnswer,
  MediaCommand,
  type MediaCommandAnswer,
  type MediaEvent,
  type MediaPublishAnswer,
  parseMediaReadParams,
} from '@vitrine/protocol';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FfmpegDiscovery } from './ffmpeg-binary.ts';
import { filePublishInput } from './file-input.ts';
import type { createLocalMediaEngine, MediaController } from './media-engine.ts';
import { EVENT_ID_PATTERN, RECORDING_FILE_PATTERN } from './show-recording.ts';

/** How long a publisher waits for a web server's answer before it is refused. */
const ANSWER_WAIT_MS = 15_000;
/** A line every so often keeps the events stream open through proxies and tells a dead peer. */
const PING_MS = 10_000;
/** Events kept while no web server is connected (the newest; a reconnecting one recovers the rest). */
const QUEUED_EVENTS_MAX = 1000;

type LocalEngine = ReturnType<typeof createLocalMediaEngine>;

/**
 * The media worker's side of the media channel (`@vitrine/protocol` live-media): the web servers
 * (controllers) that follow its events, the requests waiting for their answers, and the routes.
 * Events go to one controller at a time (the one connected longest), so one web server decides
 * each transition; when it goes, the next one takes over, and its `hello` makes it recover the
 * shows' state from what the worker describes.
 */
export function createMediaChannel(options: { token: string; log: FastifyBaseLogger; now: () => number }) {
  const { log } = options;
  const controllers: FastifyReply[] = [];
  const queued: MediaEvent[] = [];
  const waiting = new Map<string, { settle: (answer: unknown) => void; event: MediaEvent }>();
  const write = (reply: FastifyReply, event: MediaEvent) => reply.raw.write(`${JSON.stringify(event)}\n`);

  /** To the controller connected longest; kept for the next one while none is. */
  function send(event: MediaEvent) {
    const primary = controllers[0];
    if (primary) write(primary, event);
    else {
      queued.push(event);
      if (queued.length > QUEUED_EVENTS_MAX) queued.shift();
    }
  }

  /** Asks a controller and waits for its answer (a new controller is asked again what the old one left). */
  function ask<T>(event: MediaEvent & { id: string }, refused: T): Promise<T> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(event.id);
        log.warn({ type: event.type }, 'no web server answered the media worker in time; refused');
        resolve(refused);
      }, ANSWER_WAIT_MS);
      waiting.set(event.id, {
        event,
        settle: (answer) => {
          clearTimeout(timer);
          waiting.delete(event.id);
          resolve(answer as T);
        },
      });
      // Not queued with the events: a controller that connects is asked everything still waiting.
      const primary = controllers[0];
      if (primary) write(primary, event);
    });
  }

  const noController = 'No web server is connected to this media worker; try again in a moment.';
  const controller: MediaController = {
    authorize: (request) =>
      ask<MediaPublishAnswer>(
        { type: 'authorize', id: randomUUID(), request },
        { ok: false, reason: 'no-ffmpeg', message: noController, eventId: null },
      ),
    checkKey: (streamKey) =>
      ask<MediaCheckKeyAnswer>(
        { type: 'check-key', id: randomUUID(), streamKey },
        { ok: false, reason: 'no-ffmpeg', message: noController },
      ),
    publisherGone: (eventId, reason) => send({ type: 'publisher-gone', eventId, reason }),
    playedOut: (eventId) => send({ type: 'played-out', eventId }),
    segment: (eventId, rendition) => {
      // Only a controller that shares live edges between nodes needs them; none is kept for later.
      const primary = controllers[0];
      if (primary) write(primary, { type: 'segment', eventId, rendition });
    },
  };

  function authorized(request: FastifyRequest): boolean {
    const given = Buffer.from(String(request.headers[MEDIA_TOKEN_HEADER] ?? ''));
    const expected = Buffer.from(options.token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The channel's routes on the worker's listener, every one behind the token. */
  function register(app: FastifyInstance, engine: LocalEngine, ffmpeg: FfmpegDiscovery) {
    // What a controller learns first when it follows the worker (it recovers the shows from it).
    const hello = (): MediaEvent => ({
      type: 'hello',
      ingest: engine.ingest(),
      ffmpeg: ffmpeg.available
        ? { available: true, path: ffmpeg.path, missing: null }
        : { available: false, path: null, missing: ffmpeg.missing },
    });
    app.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith('/media/')) return;
      if (!authorized(request))
        return reply.status(401).send({ error: 'media_token', message: 'Wrong or missing media token.' });
    });

    app.get(MEDIA_PATHS.events, (request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
      write(reply, hello());
      controllers.push(reply);
      log.info({ controllers: controllers.length }, 'a web server follows the media worker');
      if (controllers[0] === reply) {
        for (const event of queued.splice(0)) write(reply, event);
        for (const { event } of waiting.values()) write(reply, event);
      }
      const ping = setInterval(() => write(reply, { type: 'ping' }), PING_MS);
      ping.unref();
      const gone = () => {
        clearInterval(ping);
        const at = controllers.indexOf(reply);
        if (at < 0) return;
        controllers.splice(at, 1);
        log.info({ controllers: controllers.length }, 'a web server stopped following the media worker');
        // The next controller is asked again what the one that went left unanswered.
        const next = at === 0 ? controllers[0] : undefined;
        if (next) for (const { event } of waiting.values()) write(next, event);
      };
      request.raw.on('close', gone);
      reply.raw.on('error', gone);
    });

    app.post(MEDIA_PATHS.command, async (request, reply) => {
      const parsed = MediaCommand.safeParse(request.body);
      if (!parsed.success)
        return reply
          .status(400)
          .send({ error: 'bad_command', message: parsed.error.issues[0]?.message ?? 'Not a media command.' });
      return run(parsed.data, engine, reply);
    });

    app.get<{ Params: { eventId: string; file: string } }>(
      `${MEDIA_PATHS.read}:eventId/:file`,
      async (request, reply) => {
        const { eventId, file } = request.params;
        const query = new URLSearchParams(request.url.split('?')[1] ?? '');
        const context = parseMediaReadParams((name) => query.get(name));
        if (!EVENT_ID_PATTERN.test(eventId) || !RECORDING_FILE_PATTERN.test(file) || !context)
          return reply.status(400).send({ error: 'bad_read', message: 'Not a show file or read context.' });
        for (const name of ['ended', 'start', 'preview']) query.delete(name);
        const read = await engine.read(eventId, file, context, query);
        if (!read.held) return reply.status(404).header(MEDIA_HELD_HEADER, '0').send();
        if (read.status === 404) return reply.status(404).header(MEDIA_HELD_HEADER, '1').send();
        if (read.status !== 200)
          return reply.status(read.status).type('text/plain; charset=utf-8').send(read.message);
        return reply.status(200).type(read.contentType).send(read.bytes);
      },
    );
  }

  async function run(command: MediaCommand, engine: LocalEngine, reply: FastifyReply) {
    const answer = await answerOf(command, engine);
    return reply.send(answer);
  }

  async function answerOf(
    command: MediaCommand,
    engine: LocalEngine,
  ): Promise<MediaCommandAnswer<MediaCommand['type']>> {
    switch (command.type) {
      case 'answer':
        waiting.get(command.id)?.settle(command.answer);
        return { ok: true };
      case 'describe':
        return engine.describe(command.eventId);
      case 'end':
        return engine.end(command.eventId, command.liveStartTime);
      case 'drop-oldest':
        return { dropped: await engine.dropOldest(command.eventId, command.keep) };
      case 'stop-publisher':
        await engine.stopPublisher(command.eventId);
        return { ok: true };
      case 'end-publish':
        engine.endPublish(command.eventId);
        return { ok: true };
      case 'publish-file': {
        const result = await engine.beginPublish({
          streamKey: command.streamKey,
          protocol: 'premiere',
          input: filePublishInput(command.input, options.now),
        });
        if (!result.ok) return { ok: false, reason: result.reason, message: result.message };
        const { eventId } = result.session;
        result.session.onEnded((reason) => send({ type: 'publish-ended', eventId, reason }));
        return { ok: true, eventId };
      }
    }
  }

  return {
    controller,
    register,
    /** Ends every controller's events stream (the worker is closing). */
    close() {
      for (const reply of controllers.splice(0)) reply.raw.end();
    },
  };
}
