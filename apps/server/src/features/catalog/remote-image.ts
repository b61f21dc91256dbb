import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses an imported image may not be fetched from: a product CSV names any URL, and the
 * server must not become a way to read its own network (loopback, private ranges, link-local
 * and cloud metadata, carrier NAT, multicast and reserved ranges).
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6');

/** Whether an address is in the server's own network; an IPv4-mapped IPv6 one as its IPv4. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  return PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

export interface RemoteImageLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Tests serve images from 127.0.0.1; a server never allows it. */
  allowPrivateAddresses?: boolean;
}

/** Why an image could not be fetched, in words for the import's report. */
export class RemoteImageError extends Error {}

/**
 * The bytes of the image at `url`: http(s) only, no redirect followed, an address checked after
 * the name is resolved (so a name cannot point at the server's own network), an image media
 * type, at most `maxBytes`, within `timeoutMs` in all.
 */
export function fetchRemoteImage(url: string, limits: RemoteImageLimits): Promise<Uint8Array> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return Promise.reject(new RemoteImageError('is not a URL'));
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return Promise.reject(new RemoteImageError('is not an http(s) URL'));
  const checkedLookup = (
    hostname: string,
    options: object,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) =>
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error)
        return callback(new RemoteImageError(`cannot be reached (no host "${hostname}" was found)`), []);
      const refused = addresses.find((entry) => isPrivateAddress(entry.address));
      if (refused && !limits.allowPrivateAddresses)
        return callback(new RemoteImageError('points at a private network address'), []);
      callback(null, addresses);
    });
  const request = parsed.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Uint8Array>((resolve, reject) => {
    const signal = AbortSignal.timeout(limits.timeoutMs);
    const fail = (error: unknown) =>
      reject(
        error instanceof RemoteImageError
          ? error
          : signal.aborted
            ? new RemoteImageError(`did not answer within ${limits.timeoutMs / 1000} s`)
            : new RemoteImageError(`could not be fetched (${(error as Error).message})`),
      );
    const literal = isIP(parsed.hostname.replace(/^\[|\]$/g, ''));
    if (literal && isPrivateAddress(parsed.hostname.replace(/^\[|\]$/g, '')) && !limits.allowPrivateAddresses)
      return reject(new RemoteImageError('points at a private network address'));
    const outgoing = request(
      parsed,
      { signal, lookup: checkedLookup, headers: { accept: 'image/*' } },
      (response: IncomingMessage) => {
        const status = response.statusCode ?? 0;
        const type = String(response.headers['content-type'] ?? '');
        const declared = Number(response.headers['content-length'] ?? 0);
        const refuse = (message: string) => {
          response.destroy();
          reject(new RemoteImageError(message));
        };
        if (status >= 300 && status < 400) return refuse(`redirects elsewhere (HTTP ${status})`);
        if (status !== 200) return refuse(`answered HTTP ${status}`);
        if (!/^image\//i.test(type)) return refuse(`is not an image (${type || 'no media type'})`);
        if (declared > limits.maxBytes)
          return refuse(`is larger than ${Math.round(limits.maxBytes / 1048576)} MB`);
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > limits.maxBytes)
            return refuse(`is larger than ${Math.round(limits.maxBytes / 1048576)} MB`);
          chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', fail);
      },
    );
    outgoing.on('error', fail);
    outgoing.end();
  });
}
