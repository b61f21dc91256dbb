import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  MEDIA_HELD_HEADER,
  MEDIA_PATHS,
  MEDIA_TOKEN_HEADER,
  MEDIA_WORKER_READY,
  MEDIA_WORKER_SETTINGS,
  type MediaCommand,
  type MediaCommandAnswer,
  MediaCommandAnswers,
  MediaEvent,
  mediaReadParams,
} from '@vitrine/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config, LiveMediaSetting } from '../../config.ts';
import { HttpError } from '../../http/errors.ts';
import type { MediaController, MediaEngine, MediaRead } from './media-engine.ts';
import type { MediaWorkerConfig } from './media-worker.ts';
import type { PublishEndReason, PublishRequest, PublishResult, PublishSession } from './publish-session.ts';
import { createByteCache } from './read-cache.ts';
import { contentTypeOf } from './show-recording.ts';

/** Waits between attempts to reach the worker (and to restart a child), growing to the last. */
const RECONNECT_DELAYS_MS = [200, 500, 1000, 2000, 5000];
/** A command the worker does not answer by then failed (End writes a replay: it may take a while). */
const COMMAND_TIMEOUT_MS = 60_000;
/** What a web server keeps of segments it fetched from the worker (they never change). */
const MEDIA_CACHE_BYTES = 64 * 1024 ** 2;

/**
 * The live service's engine when video runs in the media worker (LIVE_MEDIA=child or a URL): it
 * follows the worker's events, answers its questions with the controller, and sends commands and
 * reads over HTTP. With `child`, this server starts the worker (`media.ts`) and starts it again
 * when it exits: a crash or an out-of-memory in video never takes checkout down.
 */
export function connectMediaWorker(options: {
  media: Exclude<LiveMediaSetting, { kind: 'inline' }>;
  controller: MediaController;
  log: FastifyBaseLogger;
  config: Config;
}): MediaEngine {
  const { controller, log } = options;
  const token = options.media.kind === 'remote' ? options.media.token : randomBytes(24).toString('hex');
  let url: string | null = options.media.kind === 'remote' ? options.media.url : null;
  let ingest: { rtmpPort: number | null; whipPath: string | null } = { rtmpPort: null, whipPath: null };
  let connected = false;
  let closed = false;
  let child: ChildProcess | null = null;
  let events: AbortController | null = null;
  const restartListeners: (() => void)[] = [];
  const readyWaiters: (() => void)[] = [];
  /** Premieres' publishes this server started on the worker: told when each ends. */
  const publishes = new Map<string, (reason: PublishEndReason) => void>();
  /** Immutable files (init segments, segments, parts) fetched once, for the next viewers. */
  const mediaCache = createByteCache<{ bytes: Buffer; contentType: string }>(MEDIA_CACHE_BYTES);

  const headers = () => ({ [MEDIA_TOKEN_HEADER]: token });
  const delay = (attempt: number) =>
    RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)] ?? 5000;

  /** Starts the worker as a child; its URL comes back on the IPC channel. */
  function startChild(attempt = 0) {
    if (closed) return;
    const here = fileURLToPath(import.meta.url);
    // From the sources (tests, `npm run dev`) the entry is TypeScript; in the release, dist/server/media.mjs.
    const fromSources = here.endsWith('.ts');
    const entry = fromSources ? join(dirname(here), '../../media.ts') : join(dirname(here), 'media.mjs');
    const started = Date.now();
    const worker = fork(entry, [], {
      execArgv: fromSources ? ['--import', 'tsx'] : [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child = worker;
    const { config } = options;
    const settings: MediaWorkerConfig = {
      logLevel: config.logLevel,
      host: config.host,
      // Only this server reaches a child (on the loopback): its X-Forwarded-For names the publisher.
      trustProxy: '127.0.0.1',
      whip: config.whip,
      // A child listens on the loopback, on a port of its own choosing.
      live: { ...config.live, worker: { port: 0, host: '127.0.0.1', token } },
    };
    worker.send({ type: MEDIA_WORKER_SETTINGS, config: settings, token });
    worker.on('message', (message: unknown) => {
      if (typeof message !== 'object' || message === null) return;
      const { type, url: given } = message as { type?: unknown; url?: unknown };
      if (type !== MEDIA_WORKER_READY || typeof given !== 'string') return;
      url = given;
      log.info({ url, pid: worker.pid }, 'media worker started');
      follow();
    });
    worker.on('exit', (code, signal) => {
      if (child === worker) child = null;
      url = null;
      connected = false;
      events?.abort();
      if (closed) return;
      // A worker that ran a while is restarted at once; one that keeps failing, after a growing wait.
      const next = Date.now() - started > 60_000 ? 0 : attempt + 1;
      log.error({ code, signal, restartIn: delay(next) }, 'the media worker exited; starting it again');
      setTimeout(() => startChild(next), delay(next)).unref();
    });
  }

  /** Follows the worker's events (reconnecting while it is away). */
  function follow(attempt = 0) {
    if (closed || !url) return;
    const base = url;
    const abort = new AbortController();
    events = abort;
    void (async () => {
      try {
        const response = await fetch(`${base}${MEDIA_PATHS.events}`, {
          headers: headers(),
          signal: abort.signal,
        });
        if (!response.ok || !response.body) throw new Error(`media worker answered ${response.status}`);
        let buffered = '';
        const decoder = new TextDecoder();
        for await (const chunk of response.body) {
          buffered += decoder.decode(chunk as Uint8Array, { stream: true });
          let end = buffered.indexOf('\n');
          while (end >= 0) {
            const line = buffered.slice(0, end);
            buffered = buffered.slice(end + 1);
            if (line) {
              attempt = 0;
              handle(line);
            }
            end = buffered.indexOf('\n');
          }
        }
        throw new Error('the media worker closed its events');
      } catch (error) {
        if (closed || abort.signal.aborted) return;
        if (connected) log.warn({ err: error }, 'lost the media worker; reconnecting');
        connected = false;
        setTimeout(() => follow(attempt + 1), delay(attempt)).unref();
      }
    })();
  }

  function handle(line: string) {
    let parsed: ReturnType<typeof MediaEvent.safeParse>;
    try {
      parsed = MediaEvent.safeParse(JSON.parse(line));
    } catch {
      log.error({ line: line.slice(0, 200) }, 'the media worker sent a line that is not JSON');
      return;
    }
    if (!parsed.success) {
      log.error(
        { issues: parsed.error.issues.slice(0, 3) },
        'the media worker sent an event of an unknown shape',
      );
      return;
    }
    const event = parsed.data;
    switch (event.type) {
      case 'hello':
        ingest = event.ingest;
        connected = true;
        for (const waiter of readyWaiters.splice(0)) waiter();
        for (const listener of restartListeners) listener();
        return;
      case 'authorize':
        void controller
          .authorize(event.request)
          .then((answer) => command({ type: 'answer', id: event.id, answer }))
          .catch((error) => log.error({ err: error }, 'answering the media worker failed'));
        return;
      case 'check-key':
        void controller
          .checkKey(event.streamKey)
          .then((answer) => command({ type: 'answer', id: event.id, answer }))
          .catch((error) => log.error({ err: error }, 'answering the media worker failed'));
        return;
      case 'publisher-gone':
        controller.publisherGone(event.eventId, event.reason);
        return;
      case 'played-out':
        controller.playedOut(event.eventId);
        return;
      case 'segment':
        controller.segment(event.eventId, event.rendition);
        return;
      case 'publish-ended': {
        const ended = publishes.get(event.eventId);
        publishes.delete(event.eventId);
        ended?.(event.reason);
        return;
      }
      case 'ping':
        return;
    }
  }

  /** Waits until the worker said hello (a command before then would find no worker). */
  function whenConnected(): Promise<void> {
    if (connected) return Promise.resolve();
    return new Promise((resolve) => readyWaiters.push(resolve));
  }

  async function command<T extends MediaCommand['type']>(
    body: MediaCommand & { type: T },
  ): Promise<MediaCommandAnswer<T>> {
    // The studio gets a 503 it can retry, never a 500, while video is away.
    const unavailable = () =>
      new HttpError(
        503,
        'media_unavailable',
        'Live video is restarting on this server; try again in a moment.',
      );
    if (!url) throw unavailable();
    const response = await fetch(`${url}${MEDIA_PATHS.command}`, {
      method: 'POST',
      headers: { ...headers(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
    }).catch((error: unknown) => {
      log.warn({ err: error, command: body.type }, 'the media worker could not be reached');
      throw unavailable();
    });
    const answer: unknown = await response.json();
    if (!response.ok) throw new Error(`the media worker refused ${body.type}: ${JSON.stringify(answer)}`);
    return MediaCommandAnswers[body.type].parse(answer) as MediaCommandAnswer<T>;
  }

  /** Reads in flight to the worker, by path and query: requests that arrive together share one. */
  const inFlight = new Map<string, Promise<MediaRead>>();

  async function readFromWorker(
    base: string,
    path: string,
    eventId: string,
    file: string,
  ): Promise<MediaRead> {
    const response = await fetch(`${base}${path}`, { headers: headers() }).catch((error: unknown) => {
      log.warn({ err: error, eventId }, 'the media worker could not be read');
      return null;
    });
    if (!response) return { held: false };
    if (response.status === 404)
      return response.headers.get(MEDIA_HELD_HEADER) === '1' ? { held: true, status: 404 } : { held: false };
    if (response.status === 400 || response.status === 503)
      return { held: true, status: response.status, message: await response.text() };
    if (!response.ok) {
      log.warn({ eventId, file, status: response.status }, 'the media worker failed a read');
      return { held: false };
    }
    const value = {
      bytes: Buffer.from(await response.arrayBuffer()),
      contentType: response.headers.get('content-type') ?? contentTypeOf(file),
    };
    if (!file.endsWith('.m3u8')) mediaCache.set(`${eventId}/${file}`, value);
    return { held: true, status: 200, ...value };
  }

  if (options.media.kind === 'child') startChild();
  else follow();

  return {
    kind: 'worker',

    ingest: () => ({ ...ingest }),

    async beginPublish(request: PublishRequest): Promise<PublishResult> {
      const file = request.input.file;
      if (!file) {
        return {
          ok: false,
          reason: 'no-ffmpeg',
          message: 'Publishers reach the media worker itself; this server takes none.',
        };
      }
      const answer = await command({ type: 'publish-file', streamKey: request.streamKey, input: file });
      if (!answer.ok) return answer;
      const { eventId } = answer;
      const listeners: ((reason: PublishEndReason) => void)[] = [];
      publishes.set(eventId, (reason) => {
        for (const listener of listeners) listener(reason);
      });
      const session: PublishSession = {
        eventId,
        end: () =>
          void command({ type: 'end-publish', eventId }).catch((error) =>
            log.error({ err: error, eventId }, 'ending a publish on the media worker failed'),
          ),
        fellBehind: () => undefined,
        onEnded: (listener) => void listeners.push(listener),
      };
      return { ok: true, session };
    },

    read(eventId, file, context, query): Promise<MediaRead> {
      const cached = file.endsWith('.m3u8') ? undefined : mediaCache.get(`${eventId}/${file}`);
      if (cached) return Promise.resolve({ held: true, status: 200, ...cached });
      if (!url) return Promise.resolve({ held: false });
      const params = new URLSearchParams(query);
      for (const [name, value] of Object.entries(mediaReadParams(context))) params.set(name, value);
      const path = `${MEDIA_PATHS.read}${encodeURIComponent(eventId)}/${encodeURIComponent(file)}?${params}`;
      // Viewers of a show ask for the same files at the same moments: one request to the worker
      // serves all who asked while it was on its way (thousands a second arrive together).
      let pending = inFlight.get(path);
      if (!pending) {
        pending = readFromWorker(url, path, eventId, file).finally(() => inFlight.delete(path));
        inFlight.set(path, pending);
      }
      return pending;
    },

    describe: (eventId) => command({ type: 'describe', eventId }),

    end: (eventId, liveStartTime) => command({ type: 'end', eventId, liveStartTime }),

    async dropOldest(eventId, keep) {
      return (await command({ type: 'drop-oldest', eventId, keep })).dropped;
    },

    async stopPublisher(eventId) {
      await command({ type: 'stop-publisher', eventId });
    },

    // A worker serves its live edges to every web server itself: nothing goes on the relay.
    sharedPlaylists: async () => ({}),

    // The worker reaps its own runs when it starts.
    reapOrphans: async () => [],

    offerIngest: () => undefined,

    async checkKey() {
      return { ok: false, reason: 'no-ffmpeg', message: 'Publishers reach the media worker itself.' };
    },

    reachable: () => connected,

    onRestart(listener) {
      restartListeners.push(listener);
    },

    ready: whenConnected,

    workerUrl: () => url,

    workerHeaders: headers,

    async close() {
      closed = true;
      events?.abort();
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
  };
}
