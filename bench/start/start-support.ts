import { once } from 'node:events';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';

/** A TCP port free on the loopback now, for a server the benchmark starts. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (typeof address !== 'object' || address === null) throw new Error('no port');
  return address.port;
}

/** The machine's load, printed beside every figure (on a shared machine it says what they mean). */
export const loadAverage = () =>
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(', ')}`;

/** The middle value of `values` (the mean of the two middle ones for an even count). */
export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
