import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { removeRedisKeys, requireRedis, TEST_REDIS_URL } from '../../test-support/redis-prerequisite.ts';
import { startTcpProxy, type TcpProxy } from '../../test-support/tcp-proxy.ts';
import { watchUnhandledRejections } from '../../test-support/unhandled-rejections.ts';
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
/** A SUBSCRIBE command as ioredis writes it (RESP); not UNSUBSCRIBE. */
const SUBSCRIBE = /\r\nsubscribe\r\n/i;

let proxy: TcpProxy;
let sender: LiveRelay;
const relays: LiveRelay[] = [];
const rejections = watchUnhandledRejections();

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
  const target = new URL(TEST_REDIS_URL);
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
  sender = createRedisLiveRelay({ url: TEST_REDIS_URL, keyPrefix: PREFIX, onError: () => {} });
  relays.push(sender);
});

afterEach(async () => {
  await rejections.settled();
  expect(rejections.seen).toEqual([]);
});

afterAll(async () => {
  rejections.stop();
  for (const relay of relays) await relay.close();
  await proxy?.close();
  await removeRedisKeys(PREFIX);
});

describe("a node's live relay whose subscriber connection drops as it subscribes again", () => {
  it('hears End commands again once a connection holds', async () => {
    const relay = nodeRelay([]);
    const heard: RelayCommand[] = [];
    relay.onCommand((command) => heard.push(command));
    // Subscribed: a command sent reaches it (one node listens: this one; the sender does too).
    await waitFor(async () => {
      await sender.send({ eventId: 'show-before', command: 'end' });
      expect(heard.map((command) => command.eventId)).toContain('show-before');
    });

    const resubscribing = proxy.intercept(SUBSCRIBER, SUBSCRIBE, 'cut');
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
    const unanswered = proxy.intercept(SUBSCRIBER, SUBSCRIBE, 'swallow');
    proxy.drop(SUBSCRIBER);
    await unanswered;
    await relay.close();
    // Closing is not a failure to report.
    await rejections.settled();
    expect(errors.map(String).filter((error) => /closed/i.test(error))).toEqual([]);
  });
});
