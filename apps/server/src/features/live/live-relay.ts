import { Redis } from 'ioredis';
import { REDIS_TIMEOUTS, reconnectDelay } from '../../realtime/redis-change-bus.ts';
import { createBoundedCache } from './read-cache.ts';

/** How long the growing replay playlist of a live show stays in Redis after its last update. */
const REPLAY_PLAYLIST_TTL_SECONDS = 600;
/** The live playlist of a show whose ingest node vanished expires soon: players then stop. */
const LIVE_PLAYLIST_TTL_SECONDS = 30;
/** Playlists of an ended show (the live one with ENDLIST, the replay) are kept a day. */
const ENDED_PLAYLIST_TTL_SECONDS = 24 * 3600;
/** A node asks Redis for a playlist at most this often per show (its viewers share the answer). */
const PLAYLIST_CACHE_MS = 300;
/** Shows × playlists a node remembers from Redis at once. */
const RELAY_PLAYLISTS_MAX = 10_000;

/**
 * A shared playlist: `live`, `replay`, a further rendition's (`360p-live`, `360p-replay`) or a
 * master playlist (`master`, `replay-master`).
 */
export type RelayPlaylist = string;

/** Whether a shared playlist is a live window (it expires soon once its node stops updating it). */
const isLiveWindow = (name: string) => name === 'live' || name.endsWith('-live') || name === 'master';

/** A command for the node that ingests a show (the host pressed End on another node). */
export interface RelayCommand {
  eventId: string;
  command: 'end';
}

/**
 * The live playlists shared between server nodes over Redis (REDIS_URL): the node ingesting a
 * show puts them there after each segment; every other node serves its viewers from them (a few
 * hundred ms at a time), and the segments they list from the segment store. No video goes
 * through Redis.
 */
export interface LiveRelay {
  putPlaylists(
    eventId: string,
    playlists: Readonly<Record<RelayPlaylist, string>>,
    ended: boolean,
  ): Promise<void>;
  playlist(eventId: string, name: RelayPlaylist): Promise<string | null>;
  /** Sends a command to every node; answers how many nodes listen. */
  send(command: RelayCommand): Promise<number>;
  onCommand(handler: (command: RelayCommand) => void): void;
  close(): Promise<void>;
}

export function createRedisLiveRelay(options: {
  url: string;
  keyPrefix: string;
  onError: (error: unknown) => void;
}): LiveRelay {
  const prefix = `${options.keyPrefix}live:`;
  const key = (eventId: string, kind: string, name: string) => `${prefix}${eventId}:${kind}:${name}`;
  const commandChannel = `${prefix}commands`;
  // As the change bus's: while Redis is away a command fails within a bound instead of waiting in
  // the offline queue, so ending a show (which shares its last playlists) never hangs on Redis.
  const redis = new Redis(options.url, {
    connectTimeout: REDIS_TIMEOUTS.connectMs,
    commandTimeout: REDIS_TIMEOUTS.commandMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: reconnectDelay(REDIS_TIMEOUTS.maxReconnectDelayMs),
    connectionName: 'vitrine-live',
  });
  // The relay subscribes on each (re)connection itself: ioredis's own resubscription
  // (autoResubscribe) sends SUBSCRIBE with nothing to catch its failure, so a connection that
  // dropped again or was closed before Redis answered made an unhandled rejection, which ends a
  // Node process.
  const subscriber = new Redis(options.url, { connectionName: 'vitrine-live-sub', autoResubscribe: false });
  let closed = false;
  redis.on('error', options.onError);
  subscriber.on('error', options.onError);
  subscriber.on('ready', () => {
    subscriber.subscribe(commandChannel).catch((error: unknown) => {
      // Not subscribed on this connection: the next one subscribes again.
      if (!closed) options.onError(error);
    });
  });
  const handlers: ((command: RelayCommand) => void)[] = [];
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== commandChannel) return;
    try {
      const command = JSON.parse(message) as RelayCommand;
      if (typeof command.eventId === 'string' && command.command === 'end') {
        for (const handler of handlers) handler(command);
      }
    } catch (error) {
      options.onError(error);
    }
  });

  // Per show and playlist; the least recently asked go first past the bound.
  const playlists = createBoundedCache<{ text: string | null; at: number; pending?: Promise<string | null> }>(
    RELAY_PLAYLISTS_MAX,
  );
  return {
    async putPlaylists(eventId, texts, ended) {
      const pipeline = redis.pipeline();
      for (const [name, text] of Object.entries(texts)) {
        const ttl = ended
          ? ENDED_PLAYLIST_TTL_SECONDS
          : isLiveWindow(name)
            ? LIVE_PLAYLIST_TTL_SECONDS
            : REPLAY_PLAYLIST_TTL_SECONDS;
        pipeline.set(key(eventId, 'playlist', name), text, 'EX', ttl);
      }
      await pipeline.exec();
    },
    playlist(eventId, name) {
      const cacheKey = `${eventId}/${name}`;
      const cached = playlists.get(cacheKey);
      if (cached && Date.now() - cached.at < PLAYLIST_CACHE_MS)
        return cached.pending ?? Promise.resolve(cached.text);
      // One Redis read per show and interval, whatever the number of viewers asking.
      const pending = redis.get(key(eventId, 'playlist', name)).catch((error) => {
        options.onError(error);
        return null;
      });
      const entry: { text: string | null; at: number; pending?: Promise<string | null> } = {
        text: null,
        at: Date.now(),
        pending,
      };
      playlists.set(cacheKey, entry);
      return pending.then((text) => {
        entry.text = text;
        delete entry.pending;
        return text;
      });
    },
    async send(command) {
      return redis.publish(commandChannel, JSON.stringify(command));
    },
    onCommand(handler) {
      handlers.push(handler);
    },
    async close() {
      closed = true;
      subscriber.disconnect();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
