import { Redis } from 'ioredis';
import {
  PRESENCE_ANNOUNCE_LEASE_MS,
  PRESENCE_STALE_MS,
  type PresenceStore,
  type ReportedCount,
  type ViewerCount,
} from './presence.ts';
import { REDIS_TIMEOUTS } from './redis-change-bus.ts';

/** How long a show's counts and peak stay in Redis after the last report. */
const PRESENCE_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * One hash per show: a field `n:<node>` = `<viewers>:<ms>` per node, `peak`, `announced` (the last
 * totals a node confirmed it published) and `claim` (`<viewers>:<peak>|<ms>`: the totals a report
 * claimed to announce, and when). Time is Redis's own (TIME), so the nodes' clocks do not
 * matter. Fields of nodes whose count went stale are deleted as the sum passes them.
 */
const SUM_LUA = `
local function sum(key, stale)
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local total = 0
  local all = redis.call('HGETALL', key)
  for i = 1, #all, 2 do
    local field = all[i]
    if string.sub(field, 1, 2) == 'n:' then
      local value = all[i + 1]
      local sep = string.find(value, ':', 1, true)
      if now - tonumber(string.sub(value, sep + 1)) <= stale then
        total = total + tonumber(string.sub(value, 1, sep - 1))
      else
        redis.call('HDEL', key, field)
      end
    end
  end
  return total, now
end
`;

/**
 * KEYS: the show's hash. ARGV: node, viewers, stale ms, ttl ms, announce lease ms. Answers total,
 * peak, announce (1 when these totals are not announced yet and no other report claimed them
 * within the lease), confirmed (1 when they are announced already).
 */
const REPORT_LUA = `${SUM_LUA}
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[1], 'n:' .. ARGV[1], ARGV[2] .. ':' .. now)
local total = sum(KEYS[1], tonumber(ARGV[3]))
local peak = tonumber(redis.call('HGET', KEYS[1], 'peak') or '0')
if total > peak then
  peak = total
  redis.call('HSET', KEYS[1], 'peak', peak)
end
local state = total .. ':' .. peak
local announce = 0
local confirmed = 1
if redis.call('HGET', KEYS[1], 'announced') ~= state then
  confirmed = 0
  local claim = redis.call('HGET', KEYS[1], 'claim')
  local held = false
  if claim then
    local bar = string.find(claim, '|', 1, true)
    held = string.sub(claim, 1, bar - 1) == state and now - tonumber(string.sub(claim, bar + 1)) <= tonumber(ARGV[5])
  end
  if not held then
    redis.call('HSET', KEYS[1], 'claim', state .. '|' .. now)
    announce = 1
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {total, peak, announce, confirmed}
`;

/** KEYS: the show's hash. ARGV: the announced totals `<viewers>:<peak>`, ttl ms. */
const ANNOUNCED_LUA = `
redis.call('HSET', KEYS[1], 'announced', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** KEYS: the show's hash. ARGV: stale ms. Answers total, peak. */
const READ_LUA = `${SUM_LUA}
local total = sum(KEYS[1], tonumber(ARGV[1]))
return {total, tonumber(redis.call('HGET', KEYS[1], 'peak') or '0')}
`;

interface PresenceCommands extends Redis {
  presenceReport(
    key: string,
    node: string,
    viewers: number,
    staleMs: number,
    ttlMs: number,
    leaseMs: number,
  ): Promise<number[]>;
  presenceAnnounced(key: string, state: string, ttlMs: number): Promise<number>;
  presenceRead(key: string, staleMs: number): Promise<number[]>;
}

/**
 * The multi-node store: every node reports its counts to Redis each tick, one pipelined script
 * call per show it sees, and any node reads the totals. Bounded waits, like the change bus: with
 * Redis away a tick fails fast and the next one tries again.
 */
export function createRedisPresenceStore(options: {
  url: string;
  keyPrefix?: string;
  staleMs?: number;
  announceLeaseMs?: number;
}): PresenceStore {
  const prefix = options.keyPrefix ?? 'vitrine:';
  const staleMs = options.staleMs ?? PRESENCE_STALE_MS;
  const announceLeaseMs = options.announceLeaseMs ?? PRESENCE_ANNOUNCE_LEASE_MS;
  const key = (eventId: string) => `${prefix}presence:${eventId}`;
  const redis = new Redis(options.url, {
    connectTimeout: REDIS_TIMEOUTS.connectMs,
    commandTimeout: REDIS_TIMEOUTS.commandMs,
    // Queued while (re)connecting, so the first tick after start-up counts; commandTimeout still
    // fails each within REDIS_TIMEOUTS.commandMs when Redis stays away. Counts are not writes:
    // a lost or repeated report is corrected by the next tick.
    enableOfflineQueue: true,
    maxRetriesPerRequest: 0,
    connectionName: 'vitrine-presence',
    retryStrategy: (attempt) => Math.min(REDIS_TIMEOUTS.maxReconnectDelayMs, 50 * 2 ** Math.min(attempt, 16)),
  }) as PresenceCommands;
  // Errors surface as failed ticks (logged by the presence service); a connection error alone is not news.
  redis.on('error', () => {});
  redis.defineCommand('presenceReport', { lua: REPORT_LUA, numberOfKeys: 1 });
  redis.defineCommand('presenceRead', { lua: READ_LUA, numberOfKeys: 1 });
  redis.defineCommand('presenceAnnounced', { lua: ANNOUNCED_LUA, numberOfKeys: 1 });

  return {
    async report(node, counts) {
      const entries = [...counts];
      const pipeline = redis.pipeline() as unknown as {
        presenceReport(...args: Parameters<PresenceCommands['presenceReport']>): unknown;
        exec(): Promise<Array<[Error | null, unknown]> | null>;
      };
      for (const [eventId, viewers] of entries)
        pipeline.presenceReport(key(eventId), node, viewers, staleMs, PRESENCE_TTL_MS, announceLeaseMs);
      const replies = (await pipeline.exec()) ?? [];
      const answer = new Map<string, ReportedCount>();
      entries.forEach(([eventId], i) => {
        const [error, reply] = replies[i] ?? [new Error('no reply'), null];
        if (error) throw error;
        const [viewers, peak, announce, confirmed] = (reply as number[]).map(Number);
        answer.set(eventId, {
          viewers: viewers ?? 0,
          peak: peak ?? 0,
          announce: announce === 1,
          confirmed: confirmed === 1,
        });
      });
      return answer;
    },
    async announced(eventId, { viewers, peak }) {
      await redis.presenceAnnounced(key(eventId), `${viewers}:${peak}`, PRESENCE_TTL_MS);
    },
    async read(eventId): Promise<ViewerCount> {
      const [viewers, peak] = (await redis.presenceRead(key(eventId), staleMs)).map(Number);
      return { viewers: viewers ?? 0, peak: peak ?? 0 };
    },
    async close() {
      redis.disconnect();
    },
  };
}
