import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { LiveChange } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  REDIS_SUBSCRIBE_COMMAND,
  removeRedisKeys,
  requireRedis,
  startRedisProxy,
  TEST_REDIS_URL,
} from '../test-support/redis-prerequisite.ts';
import type { TcpProxy } from '../test-support/tcp-proxy.ts';
import { failOnUnhandledRejections } from '../test-support/unhandled-rejections.ts';
import type { ChangeBus } from './change-bus.ts';
import { createRedisChangeBus } from './redis-change-bus.ts';

/**
 * The subscriber connection of a node's bus drops, and drops again (or the node stops) as it
 * subscribes anew. ioredis's own resubscription left that SUBSCRIBE's failure unhandled, and an
 * unhandled rejection ends a Node process: a Redis that flapped could stop every node. The node
 * reaches Redis through a proxy the test cuts; the publisher reaches it directly.
 */
const PREFIX = `vitrine-test:bus-resubscribe:${randomUUID()}:`;

let proxy: TcpProxy;
let publisher: ChangeBus;
const buses: ChangeBus[] = [];
failOnUnhandledRejections();

const waitFor = <T>(check: () => T) => vi.waitFor(check, { timeout: 30_000, interval: 20 });
const change = (i: number): LiveChange => ({ type: 'added', docId: `doc-${i}`, doc: { i } });

/** A bus reaching Redis through the proxy, named `name` (its subscriber is `${name}-sub`). */
async function nodeBus(name: string, errors: Error[]): Promise<ChangeBus> {
  const bus = await createRedisChangeBus({
    url: `redis://127.0.0.1:${proxy.port}`,
    keyPrefix: PREFIX,
    connectionName: name,
    onError: (error) => errors.push(error),
  });
  buses.push(bus);
  return bus;
}

/** The doc ids `bus` delivers on `topic`, in order. */
async function following(bus: ChangeBus, topic: string): Promise<string[]> {
  const received: string[] = [];
  await bus.listen(topic, (batch) => received.push(...batch.changes.map((delivered) => delivered.docId)));
  return received;
}

beforeAll(async () => {
  await requireRedis();
  proxy = await startRedisProxy();
  publisher = await createRedisChangeBus({
    url: TEST_REDIS_URL,
    keyPrefix: PREFIX,
    connectionName: 'vitrine-test-resubscribe-publisher',
  });
  buses.push(publisher);
});

afterAll(async () => {
  for (const bus of buses) await bus.close();
  await proxy?.close();
  await removeRedisKeys(PREFIX);
});

describe('a bus whose subscriber connection drops as it subscribes again', () => {
  it('reports it, subscribes on the next connection, and delivers what was published meanwhile', async () => {
    const errors: Error[] = [];
    const bus = await nodeBus('vitrine-test-resubscribe-flap', errors);
    const topic = `flap-${randomUUID()}`;
    const received = await following(bus, topic);
    await publisher.publish(topic, [change(1)]);
    await waitFor(() => expect(received).toEqual(['doc-1']));

    const resubscribing = proxy.intercept(
      'vitrine-test-resubscribe-flap-sub',
      REDIS_SUBSCRIBE_COMMAND,
      'cut',
    );
    proxy.drop('vitrine-test-resubscribe-flap-sub');
    await resubscribing;
    // Published while the node has no subscription: it comes from the log once it has one again.
    await publisher.publish(topic, [change(2)]);
    await waitFor(() => expect(received).toEqual(['doc-1', 'doc-2']));
    await waitFor(() => expect(bus.reachable()).toBe(true));
    await publisher.publish(topic, [change(3)]);
    await waitFor(() => expect(received).toEqual(['doc-1', 'doc-2', 'doc-3']));
    // The failed SUBSCRIBE went to the bus's error report, not nowhere.
    expect(errors.map((error) => error.message).join('\n')).toMatch(
      /max retries|connection is closed|timed out/i,
    );
  });

  it('leaves a node process running (it ended on the unhandled rejection)', async () => {
    const name = 'vitrine-test-resubscribe-process';
    const topic = `process-${randomUUID()}`;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        new URL('../test-support/bus-child.ts', import.meta.url).pathname,
        `redis://127.0.0.1:${proxy.port}`,
        PREFIX,
        name,
        topic,
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = once(child, 'exit');
    try {
      const running = () => {
        if (child.exitCode !== null) throw new Error(`the process ended (${child.exitCode}):\n${stderr}`);
      };
      await vi.waitFor(
        () => {
          running();
          expect(stdout).toContain('"following"');
        },
        { timeout: 120_000, interval: 50 },
      );
      const resubscribing = proxy.intercept(`${name}-sub`, REDIS_SUBSCRIBE_COMMAND, 'cut');
      proxy.drop(`${name}-sub`);
      await resubscribing;
      // Still there, and following again: a change published now reaches it.
      await waitFor(async () => {
        running();
        await publisher.publish(topic, [change(4)]);
        expect(stdout).toContain('"doc-4"');
      });
      child.stdin.end();
      const [code] = await exited;
      expect(code, stderr).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('closes while its new SUBSCRIBE is unanswered', async () => {
    const bus = await nodeBus('vitrine-test-resubscribe-close', []);
    await following(bus, `close-${randomUUID()}`);
    const unanswered = proxy.intercept(
      'vitrine-test-resubscribe-close-sub',
      REDIS_SUBSCRIBE_COMMAND,
      'swallow',
    );
    proxy.drop('vitrine-test-resubscribe-close-sub');
    await unanswered;
    await bus.close();
  });
});
