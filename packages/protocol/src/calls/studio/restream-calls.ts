import { RESTREAM_MAX_DESTINATIONS } from '@vitrine/domain';
import { z } from 'zod';
import { Uid } from '../../common.ts';
import { RestreamDestination, RestreamDestinationInput, RestreamList } from '../../restream.ts';
import type { CallSchemas } from '../define-call.ts';

const ShowPath = z.object({ pageUid: Uid, showUid: Uid });
const DestinationPath = ShowPath.extend({ destinationId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });

/** The schemas of the studio's restream calls (routes in restream-routes.ts). */
export const restreamCalls = {
  listRestreams: {
    summary:
      "A show's restream destinations with their health (connecting, live or failed with why, bytes and bitrate sent, since when); stream keys only masked.",
    params: ShowPath,
    response: RestreamList,
  },
  addRestream: {
    summary: `Adds an RTMP/RTMPS destination (server URL and stream key) to a show, at most ${RESTREAM_MAX_DESTINATIONS}; the key is stored encrypted and answered only masked.`,
    params: ShowPath,
    request: RestreamDestinationInput,
    response: RestreamDestination,
    status: 201,
  },
  removeRestream: {
    summary: 'Removes a destination (stopping it first if it runs) and forgets its stream key.',
    params: DestinationPath,
    response: null,
    status: 204,
  },
  startRestream: {
    summary:
      'Starts sending the show to a destination: at once while the show is live, else when it goes live; retried with back-off on failure; stops when the show ends.',
    params: DestinationPath,
    response: RestreamDestination,
  },
  stopRestream: {
    summary: 'Stops sending the show to a destination.',
    params: DestinationPath,
    response: RestreamDestination,
  },
} satisfies Record<string, CallSchemas>;
