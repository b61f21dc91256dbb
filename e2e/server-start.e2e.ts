import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVER_START_BOUND_MS, startServer } from './support/server-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'vitrine-failed-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('a server start that fails', () => {
  it(
    'says where the server stood: the start-up steps it printed, then its output',
    async () => {
      // Its port is taken, which the server finds out only once it is ready to listen.
      const taken = createServer();
      taken.listen(0, '127.0.0.1');
      await once(taken, 'listening');
      const address = taken.address();
      if (typeof address !== 'object' || address === null) throw new Error('no port');
      try {
        const failure = await startServer({
          VITRINE_DATA_DIR: dataDir,
          PORT: String(address.port),
          VITRINE_DEMO_RETAILER_PORT: '-1',
        }).then(
          () => null,
          (error: Error) => error.message,
        );
        expect(failure).toMatch(
          /^the server exited \(1\) before serving the storefront page \([\d.]+ s after/,
        );
        const reported = failure?.split('Start-up steps the server reported:\n')[1]?.split('\nIts output:\n');
        // Each step as the server printed it, with when the test saw it, in order.
        const steps = reported?.[0]
          ?.split('\n')
          .map((line) => /^ {2}at [\d.]+ s: Start-up \([\d.]+ s\): (.*)$/.exec(line)?.[1]);
        expect(steps).toEqual([
          'opening the embedded database…',
          'building the app…',
          'seeding the demo store…',
        ]);
        expect(reported?.[1]).toMatch(/EADDRINUSE/);
      } finally {
        taken.close();
      }
    },
    SERVER_START_BOUND_MS + 60_000,
  );
});
