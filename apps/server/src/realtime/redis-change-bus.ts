import type { LiveChange } from '@vitrine/protocol';
import { Redis } from 'ioredis';
import {
  type BatchListener,
  type ChangeBatch,
  type ChangeBus,
  REPLAY_LOG_BATCHES,
  REPLAY_LOG_BYTES,
  type RetryKey,
  timeBasedSeqBase,
} from './change-bus.ts';

export interface RedisChangeBusOptions {
  /** e.g. redis://127.0.0.1:6379 */
  url: string;
  /** Prepended to every key and channel; buses with the same prefix share topics. Default `vitrine:`. */
  keyPrefix?: string;
  /** How many batches per topic the replay log keeps; default REPLAY_LOG_BATCHES. */
  logLength?: number;
  /** How many bytes of batches per topic the replay log keeps (the newest always); default REPLAY_LOG_BYTES. */
  logBytes?: number;
  /** How long a topic's sequence and log live after its last publish; default 24 h. */
  ttlMs?: number;
  /** CLIENT SETNAME of the command connection; the subscriber connection gets `-sub` appended. */
  connectionName?: string;
  /** Connection errors, undeliverable messages and missed batches; default: console.error. */
  onError?: (error: Error) => void;
  /** Where a topic without a sequence starts numbering; default timeBasedSeqBase (see there). */
  seqBase?: () => number;
  /** How long a connection attempt and a command may take; default REDIS_TIMEOUTS. */
  timeouts?: Partial<RedisTimeouts>;
}

export interface RedisTimeouts {
  connectMs: number;
  commandMs: number;
  /** The longest wait between reconnection attempts (they back off from 50 ms, with jitter). */
  maxReconnectDelayMs: number;
}

/**
 * Bounded waits on Redis (issue 18): a command to an unreachable Redis fails at once (no offline
 * queue), one to a Redis that stopped answering fails after `commandMs`, so a publish never
 * holds a writer for long; the outbox keeps the changes and retries.
 */
export const REDIS_TIMEOUTS: RedisTimeouts = { connectMs: 1000, commandMs: 1500, maxReconnectDelayMs: 2000 };

const DAY_MS = 24 * 60 * 60 * 1000;

/** Reconnection delays: exponential from 50 ms up to `maxMs`, each between half and all of it. */
export const reconnectDelay = (maxMs: number) => (attempt: number) => {
  const ceiling = Math.min(maxMs, 50 * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
};

/**
 * KEYS: seq, log, sources, log bytes. ARGV: topic as JSON, changes as JSON, log length, ttl ms,
 * channel, seq base, source ('' for none), batch number, log byte limit. The log is trimmed from
 * its old end to both limits (the byte count kept beside it); the newest batch always stays. The batch JSON is concatenated, not cjson-encoded, so
 * the changes reach listeners byte for byte. Scripts run one at a time, so seq order, log order
 * and publish order agree across all publishers. The sources hash keeps each source's last batch
 * number and seq: a retry of a batch that went through answers its seq and publishes nothing.
 */
const PUBLISH_LUA = `
if ARGV[7] ~= '' then
  local last = redis.call('HGET', KEYS[3], ARGV[7])
  if last then
    local sep = string.find(last, ' ', 1, true)
    if sep and string.sub(last, 1, sep - 1) == ARGV[8] then return tonumber(string.sub(last, sep + 1)) end
  end
end
redis.call('SET', KEYS[1], ARGV[6], 'NX')
local seq = redis.call('INCR', KEYS[1])
local batch = '{"topic":' .. ARGV[1] .. ',"seq":' .. string.format('%d', seq) .. ',"changes":' .. ARGV[2] .. '}'
local len = redis.call('RPUSH', KEYS[2], batch)
local bytes = redis.call('INCRBY', KEYS[4], #batch)
local maxLen = tonumber(ARGV[3])
local maxBytes = tonumber(ARGV[9])
while len > 1 and (len > maxLen or bytes > maxBytes) do
  local old = redis.call('LPOP', KEYS[2])
  bytes = redis.call('DECRBY', KEYS[4], #old)
  len = len - 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('PEXPIRE', KEYS[4], ARGV[4])
redis.call('PUBLISH', ARGV[5], batch)
if ARGV[7] ~= '' then
  redis.call('HSET', KEYS[3], ARGV[7], ARGV[8] .. ' ' .. string.format('%d', seq))
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
end
return seq
`;

/**
 * KEYS: seq, log. ARGV: afterSeq. Returns {current} when there is nothing to read (afterSeq >=
 * current), {current, oldest} when the log does not reach back to afterSeq + 1, else
 * {current, oldest, batch…} with the batches after afterSeq. The log always ends at `current`
 * (publish appends and trims in the same script), so its oldest entry is current - len + 1.
 */
const REPLAY_LUA = `
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
local after = tonumber(ARGV[1])
if after >= current then return {current} end
local len = redis.call('LLEN', KEYS[2])
local oldest = current - len + 1
if len == 0 or oldest > after + 1 then return {current, oldest} end
local result = {current, oldest}
for _, batch in ipairs(redis.call('LRANGE', KEYS[2], after + 1 - oldest, -1)) do
  result[#result + 1] = batch
end
return result
`;

interface BusCommands extends Redis {
  changeBusPublish(
    seqKey: string,
    logKey: string,
    sourcesKey: string,
    logBytesKey: string,
    topicJson: string,
    changesJson: string,
    logLength: number,
    ttlMs: number,
    channel: string,
    seqBase: string,
    source: string,
    batch: string,
    logBytesLimit: number,
  ): Promise<number>;
  changeBusReplay(seqKey: string, logKey: string, afterSeq: number): Promise<Array<number | string>>;
}

interface ListenerEntry {
  listener: BatchListener;
}

/** This process's interest in one topic and the state of its channel subscription. */
interface TopicSubscription {
  topic: string;
  channel: string;
  listeners: Set<ListenerEntry>;
  /** Whether SUBSCRIBE was confirmed and no UNSUBSCRIBE issued since. */
  subscribed: boolean;
  /** Serializes this topic's SUBSCRIBE / UNSUBSCRIBE commands. */
  queue: Promise<void>;
  pendingOps: number;
  /** Bumped on every SUBSCRIBE, so a catch-up of an earlier subscription is dropped. */
  generation: number;
  /** The last seq delivered to listeners; null before the first batch of this subscription. */
  lastSeq: number | null;
  /** While missed batches are read from the log, later messages wait here. */
  catchingUp: boolean;
  pending: ChangeBatch[];
  /**
   * The seqs the last catch-up delivered from the log (after `after`, through `through`). Their
   * pub/sub messages can still arrive afterwards: the log is read on the command connection,
   * the messages come on the subscriber connection, and nothing orders the two.
   */
  replayed: { after: number; through: number } | null;
}

/**
 * The multi-process bus: sequence numbers and replay logs live in Redis, batches travel by
 * pub/sub. One connection runs commands, a second one holds the subscriptions. When the
 * subscriber connection drops, the bus subscribes again on reconnect and fills the gap from
 * the replay log, so listeners still get every batch in order (unless the log was trimmed past
 * it meanwhile, which is reported through `onError`).
 */
export async function createRedisChangeBus(options: RedisChangeBusOptions): Promise<ChangeBus> {
  const prefix = options.keyPrefix ?? 'vitrine:';
  const logLength = options.logLength ?? REPLAY_LOG_BATCHES;
  const logBytes = options.logBytes ?? REPLAY_LOG_BYTES;
  const ttlMs = options.ttlMs ?? DAY_MS;
  const seqBase = options.seqBase ?? timeBasedSeqBase;
  if (!Number.isSafeInteger(logLength) || logLength < 1) throw new RangeError('logLength must be >= 1');
  if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new RangeError('ttlMs must be >= 1');
  const connectionName = options.connectionName ?? 'vitrine-change-bus';
  const onError =
    options.onError ?? ((error: Error) => console.error(`[redis-change-bus] ${error.message}`, error));
  const report = (error: unknown) => {
    try {
      onError(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A failing error handler must not break message delivery.
    }
  };

  const seqKey = (topic: string) => `${prefix}seq:${topic}`;
  const logKey = (topic: string) => `${prefix}log:${topic}`;
  const sourcesKey = (topic: string) => `${prefix}sources:${topic}`;
  const logBytesKey = (topic: string) => `${prefix}logbytes:${topic}`;
  const channelPrefix = `${prefix}topic:`;

  const timeouts = { ...REDIS_TIMEOUTS, ...options.timeouts };
  const connectionOptions = {
    lazyConnect: true,
    connectTimeout: timeouts.connectMs,
    commandTimeout: timeouts.commandMs,
    // Fail commands while disconnected instead of queueing them until Redis returns.
    enableOfflineQueue: false,
    // A command in flight when the connection drops fails then, and is not sent again on
    // reconnect: the outbox retries it, and a second copy would reach viewers twice.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: reconnectDelay(timeouts.maxReconnectDelayMs),
  };
  const commands = new Redis(options.url, { ...connectionOptions, connectionName }) as BusCommands;
  const subscriber = new Redis(options.url, {
    ...connectionOptions,
    connectionName: `${connectionName}-sub`,
    // The bus subscribes again on each reconnection itself (on 'ready' below): ioredis's own
    // resubscription sends SUBSCRIBE with nothing to catch its failure, so a connection that
    // dropped again before Redis answered made an unhandled rejection, which ends a Node process.
    autoResubscribe: false,
  });
  commands.on('error', report);
  subscriber.on('error', report);
  commands.defineCommand('changeBusPublish', { lua: PUBLISH_LUA, numberOfKeys: 4 });
  commands.defineCommand('changeBusReplay', { lua: REPLAY_LUA, numberOfKeys: 2, readOnly: true });

  const subscriptions = new Map<string, TopicSubscription>();
  let closed = false;

  const replay = async (topic: string, afterSeq: number): Promise<ChangeBatch[] | null> => {
    if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) return null;
    const reply = await commands.changeBusReplay(seqKey(topic), logKey(topic), afterSeq);
    const current = Number(reply[0]);
    if (afterSeq > current) return null;
    if (afterSeq === current) return [];
    if (reply.length <= 2) return null;
    const batches = reply.slice(2).map((entry) => JSON.parse(String(entry)) as ChangeBatch);
    // The script guarantees this; check anyway rather than hand out a gap.
    const contiguous = batches.every((batch, index) => batch.seq === afterSeq + 1 + index);
    return contiguous && batches.at(-1)?.seq === current ? batches : null;
  };

  const deliver = (sub: TopicSubscription, batch: ChangeBatch) => {
    sub.lastSeq = batch.seq;
    for (const entry of [...sub.listeners]) {
      try {
        entry.listener(batch);
      } catch (error) {
        report(error);
      }
    }
  };

  /** Reads the batches after `lastSeq` from the log, delivers them, then the messages that waited. */
  const catchUp = (sub: TopicSubscription) => {
    const from = sub.lastSeq;
    if (from === null || sub.catchingUp) return;
    sub.catchingUp = true;
    const generation = sub.generation;
    const finish = (batches: ChangeBatch[] | null) => {
      if (generation !== sub.generation || closed) return;
      if (batches) {
        for (const batch of batches) deliver(sub, batch);
        const through = batches.at(-1)?.seq;
        if (through !== undefined) sub.replayed = { after: from, through };
      } else {
        report(new Error(`change bus: batches after ${from} of topic ${sub.topic} were lost`));
        sub.lastSeq = null;
      }
      sub.catchingUp = false;
      const waiting = sub.pending.splice(0);
      for (const batch of waiting) {
        // Already delivered from the log.
        if (batches && sub.lastSeq !== null && batch.seq <= sub.lastSeq) continue;
        receive(sub, batch);
      }
    };
    // Unreadable now (the command connection may come back after the subscriber one): try
    // again rather than call the batches lost; later messages wait in `pending` meanwhile.
    const attempt = (tries: number) => {
      replay(sub.topic, from).then(finish, (error: unknown) => {
        if (generation !== sub.generation || closed) return;
        if (tries === 0) report(error);
        setTimeout(() => attempt(tries + 1), Math.min(2000, 50 * 2 ** tries)).unref();
      });
    };
    attempt(0);
  };

  const receive = (sub: TopicSubscription, batch: ChangeBatch) => {
    if (sub.catchingUp) {
      sub.pending.push(batch);
      return;
    }
    const last = sub.lastSeq;
    const replayed = sub.replayed;
    // The late message of a batch the catch-up already delivered from the log.
    if (
      last !== null &&
      replayed &&
      batch.seq <= last &&
      batch.seq > replayed.after &&
      batch.seq <= replayed.through
    )
      return;
    if (last === null || batch.seq === last + 1) {
      deliver(sub, batch);
    } else if (batch.seq > last + 1) {
      sub.pending.push(batch);
      catchUp(sub);
    } else {
      // Pub/sub does not repeat messages: the sequence restarted (keys expired or Redis lost them).
      report(new Error(`change bus: seq of topic ${sub.topic} went back from ${last} to ${batch.seq}`));
      deliver(sub, batch);
    }
  };

  subscriber.on('message', (channel: string, message: string) => {
    if (!channel.startsWith(channelPrefix)) return;
    const sub = subscriptions.get(channel.slice(channelPrefix.length));
    // Not `subscribed`: the SUBSCRIBE confirmation and the first messages can arrive in one chunk,
    // before the promise continuation that sets it runs.
    if (!sub || sub.listeners.size === 0) return;
    let batch: ChangeBatch;
    try {
      const parsed = JSON.parse(message) as Partial<ChangeBatch>;
      if (typeof parsed.seq !== 'number' || !Array.isArray(parsed.changes)) throw new Error('not a batch');
      batch = { topic: sub.topic, seq: parsed.seq, changes: parsed.changes };
    } catch (error) {
      report(new Error(`change bus: unreadable message on ${channel}: ${(error as Error).message}`));
      return;
    }
    receive(sub, batch);
  });

  /** Brings the channel subscription in line with whether the topic has listeners. */
  const sync = (sub: TopicSubscription): Promise<void> => {
    const run = async () => {
      const wanted = sub.listeners.size > 0 && !closed;
      if (wanted && !sub.subscribed) {
        sub.generation += 1;
        sub.lastSeq = null;
        sub.catchingUp = false;
        sub.pending = [];
        sub.replayed = null;
        await subscriber.subscribe(sub.channel);
        sub.subscribed = true;
      } else if (!wanted && sub.subscribed) {
        sub.subscribed = false;
        if (closed) return;
        // A failure needs no retry: a dropped connection took the channel with it (a new one
        // subscribes only the topics followed then), and a slow Redis still carries the command
        // out. Until then the channel's messages find no listener and are dropped.
        await subscriber.unsubscribe(sub.channel).catch(() => {});
      }
    };
    sub.pendingOps += 1;
    const op = sub.queue.then(run).finally(() => {
      sub.pendingOps -= 1;
      if (sub.pendingOps === 0 && sub.listeners.size === 0 && !sub.subscribed) {
        if (subscriptions.get(sub.topic) === sub) subscriptions.delete(sub.topic);
      }
    });
    sub.queue = op.catch(() => {});
    return op;
  };

  // After a reconnect, subscribe again to the topics followed (a new connection has none); once
  // Redis confirms, fetch from the log whatever was published while the connection was down. A
  // failure (the connection dropped again) is reported, and the next connection tries again.
  subscriber.on('ready', () => {
    const following = [...subscriptions.values()].filter((sub) => sub.subscribed);
    if (closed || following.length === 0) return;
    subscriber.subscribe(...following.map((sub) => sub.channel)).then(
      () => {
        for (const sub of following) if (sub.subscribed) catchUp(sub);
      },
      (error: unknown) => {
        if (!closed) report(error);
      },
    );
  });

  // Not awaited: a node starts while Redis is down (issue 18) and connects when it comes up;
  // until then publishes fail fast (the outbox keeps the changes) and `reachable` says false.
  // The first failure is reported through the connections' 'error' events.
  await Promise.race([
    Promise.all([commands.connect(), subscriber.connect()]).catch(() => {}),
    new Promise((resolve) => setTimeout(resolve, timeouts.connectMs).unref()),
  ]);

  const quit = async (connection: Redis) => {
    if (connection.status === 'ready') {
      try {
        await connection.quit();
        return;
      } catch {
        // Fall through to a hard disconnect.
      }
    }
    connection.disconnect();
  };

  return {
    kind: 'redis',
    reachable: () => !closed && commands.status === 'ready' && subscriber.status === 'ready',
    async publish(topic: string, changes: LiveChange[], retryKey?: RetryKey) {
      const seq = await commands.changeBusPublish(
        seqKey(topic),
        logKey(topic),
        sourcesKey(topic),
        logBytesKey(topic),
        JSON.stringify(topic),
        JSON.stringify(changes),
        logLength,
        ttlMs,
        channelPrefix + topic,
        String(seqBase()),
        retryKey?.source ?? '',
        String(retryKey?.batch ?? 0),
        logBytes,
      );
      return Number(seq);
    },
    async listen(topic: string, listener: BatchListener) {
      if (closed) throw new Error('change bus is closed');
      let sub = subscriptions.get(topic);
      if (!sub) {
        sub = {
          topic,
          channel: channelPrefix + topic,
          listeners: new Set(),
          subscribed: false,
          queue: Promise.resolve(),
          pendingOps: 0,
          generation: 0,
          lastSeq: null,
          catchingUp: false,
          pending: [],
          replayed: null,
        };
        subscriptions.set(topic, sub);
      }
      const entry: ListenerEntry = { listener };
      const topicSub = sub;
      topicSub.listeners.add(entry);
      try {
        await sync(topicSub);
      } catch (error) {
        topicSub.listeners.delete(entry);
        await sync(topicSub).catch(() => {});
        throw error;
      }
      return async () => {
        if (!topicSub.listeners.delete(entry)) return;
        await sync(topicSub);
      };
    },
    async currentSeq(topic: string) {
      const value = await commands.get(seqKey(topic));
      return value === null ? 0 : Number(value);
    },
    replay,
    async close() {
      if (closed) return;
      closed = true;
      for (const sub of subscriptions.values()) {
        sub.listeners.clear();
        sub.subscribed = false;
        sub.generation += 1;
      }
      subscriptions.clear();
      await Promise.all([quit(commands), quit(subscriber)]);
    },
  };
}
