import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  REDIS_SUBSCRIBE_COMMAND,
  removeRedisKeys,
  requireRedis,
  startRedisProxy,
  TEST_REDIS_URL,
} from '../../test-support/redis-prerequisite.ts';
import type { TcpProxy } from '../../test-support/tcp-proxy.ts';
import { failOnUnhandledRejections } from '../../test-support/unhandled-rejections.ts';
import { createRedisLiveRelay, type LiveRelay, type RelayCommand } from './live-relay.ts';

/**
 * The live relay's command channel (End pressed on another node) over a subscriber connection
 * that drops as it subscribes again, or is closed then. ioredis's own resubscription left that
 * SUBSCRIBE's failure unhandled, which ends a Node process. The node under test reaches Redis
 * through a proxy the test cuts; the sender reaches it directly.
 */
const PREFIX = `vitrine-test:relay-resubscribe:${randomUUID()}:`;
/** The relay's subscriber connection, as it names itself. */
const SUBSCRIBER = 'vitrine-live-sub';

let proxy: TcpProxy;
let sender: LiveRelay;
const relays: LiveRelay[] = [];
const rejections = failOnUnhandledRejections();

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 30_000, interval: 50 });

function nodeRelay(errors: unknown[]): LiveRelay {
  const relay = createRedisLiveRelay({
    url: `redis://127.0.0.1:${proxy.port}`,
    keyPrefix: PREFIX,
    onError: (error) => errors.push(error),
  });
  relays.push(relay);
  return relay;
}

beforeAll(async () => {
  await requireRedis();
  proxy = await startRedisProxy();
  sender = createRedisLiveRelay({ url: TEST_REDIS_URL, keyPrefix: PREFIX, onError: () => {} });
  relays.push(sender);
});

afterAll(async () => {
  for (const relay of relays) await relay.close();
  await proxy?.close();
  await removeRedisKeys(PREFIX);
});

describe("a node's live relay whose subscriber connection drops as it subscribes again", () => {
  it('hears End commands again once a connection holds', async () => {
    const relay = nodeRelay([]);
    const heard: RelayCommand[] = [];
    relay.onCommand((command) => heard.push(command));
    // Subscribed once a command sent reaches it.
    await waitFor(async () => {
      await sender.send({ eventId: 'show-before', command: 'end' });
      expect(heard.map((command) => command.eventId)).toContain('show-before');
    });

    const resubscribing = proxy.intercept(SUBSCRIBER, REDIS_SUBSCRIBE_COMMAND, 'cut');
    proxy.drop(SUBSCRIBER);
    await resubscribing;
    await waitFor(async () => {
      await sender.send({ eventId: 'show-after', command: 'end' });
      expect(heard.map((command) => command.eventId)).toContain('show-after');
    });
  });

  it('closes while its new SUBSCRIBE is unanswered', async () => {
    const errors: unknown[] = [];
    const relay = nodeRelay(errors);
    const heard: RelayCommand[] = [];
    relay.onCommand((command) => heard.push(command));
    await waitFor(async () => {
      await sender.send({ eventId: 'show-closing', command: 'end' });
      expect(heard).not.toEqual([]);
    });
    const unanswered = proxy.intercept(SUBSCRIBER, REDIS_SUBSCRIBE_COMMAND, 'swallow');
    proxy.drop(SUBSCRIBER);
    await unanswered;
    await relay.close();
    // Closing is not a failure to report.
    await rejections.settled();
    expect(errors.map(String).filter((error) => /closed/i.test(error))).toEqual([]);
  });
});
