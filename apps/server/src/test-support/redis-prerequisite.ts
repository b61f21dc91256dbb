import { Redis } from 'ioredis';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/** The Redis the bus tests use: REDIS_URL, else the machine's own on the default port. */
export const TEST_REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

let reachable: Promise<boolean> | null = null;

/** Whether TEST_REDIS_URL answers a PING (asked once per test file, without retries). */
export function redisReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const probe = new Redis(TEST_REDIS_URL, {
      lazyConnect: true,
      connectTimeout: 2000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on('error', () => {});
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  })();
  return reachable;
}

/**
 * Fails the calling test file at once, saying what it needs, when Redis is not reachable: the
 * Redis change bus tests need a real server, and without one they would only time out.
 */
export async function requireRedis(): Promise<void> {
  if (await redisReachable()) return;
  const { hostname, port } = new URL(TEST_REDIS_URL);
  throw new Error(
    `needs Redis at ${hostname}:${port || 6379} (REDIS_URL=${TEST_REDIS_URL}): start one ` +
      '(`redis-server --daemonize yes`) or point REDIS_URL at one; see "Tests" in README.md',
  );
}

/** Deletes every key under `prefix` on TEST_REDIS_URL (a test file's own, after it). */
export async function removeRedisKeys(prefix: string): Promise<void> {
  const admin = new Redis(TEST_REDIS_URL);
  try {
    const keys: string[] = [];
    for await (const batch of admin.scanStream({ match: `${prefix}*`, count: 1000 }))
      keys.push(...(batch as string[]));
    if (keys.length > 0) await admin.del(...keys);
  } finally {
    admin.disconnect();
  }
}

/** A TCP proxy in front of TEST_REDIS_URL, for the tests that cut, stall or hold a node's Redis. */
export function startRedisProxy(): Promise<TcpProxy> {
  const target = new URL(TEST_REDIS_URL);
  return startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
}

/** A SUBSCRIBE command as ioredis writes it (RESP), for `TcpProxy.intercept`; not UNSUBSCRIBE. */
export const REDIS_SUBSCRIBE_COMMAND = /\r\nsubscribe\r\n/i;
