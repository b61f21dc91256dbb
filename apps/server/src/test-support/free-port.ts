import { createServer } from 'node:net';

/**
 * A TCP port free on the loopback now (found by listening on port 0 and closing again): for a
 * server the test starts there itself, or a port nobody listens on.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}
