import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { RestreamService } from './restream-service.ts';

/** The loopback origin of a listening HTTP server (an address of any interface is reached on loopback). */
export function loopbackOrigin(address: AddressInfo | string | null): string | null {
  if (!address || typeof address === 'string') return null;
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? '127.0.0.1'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * The studio's restream calls (hosts and owners), and the node's supervision of the started
 * destinations, which reads the shows' live playlists from this server once it listens.
 */
export function registerRestreamRoutes(
  app: FastifyInstance,
  deps: { restream: RestreamService; staffGate: StaffGate },
): void {
  const { restream, staffGate } = deps;
  const staff = { staffGate };
  registerCall(
    app,
    'listRestreams',
    (_body, { params }) => restream.list(params.pageUid, params.showUid),
    staff,
  );
  registerCall(
    app,
    'addRestream',
    (body, { params }) => restream.add(params.pageUid, params.showUid, body),
    staff,
  );
  registerCall(
    app,
    'removeRestream',
    (_body, { params }) => restream.remove(params.pageUid, params.showUid, params.destinationId),
    staff,
  );
  registerCall(
    app,
    'startRestream',
    (_body, { params }) => restream.start(params.pageUid, params.showUid, params.destinationId),
    staff,
  );
  registerCall(
    app,
    'stopRestream',
    (_body, { params }) => restream.stop(params.pageUid, params.showUid, params.destinationId),
    staff,
  );
  restream.serveFrom(() => loopbackOrigin(app.server.address()));
  app.addHook('onListen', async () => restream.startSupervising());
  app.addHook('onClose', () => restream.close());
}
