import { RESTREAM_MAX_DESTINATIONS } from '@vitrine/domain';
import { z } from 'zod';
import { Uid } from '../../common.ts';
import { RestreamDestination, RestreamDestinationInput, RestreamList } from '../../restream.ts';
import { call } from '../define-call.ts';

const ShowPath = z.object({ pageUid: Uid, showUid: Uid });
const DestinationPath = ShowPath.extend({ destinationId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });

const RESTREAMS = '/staff/stores/:pageUid/shows/:showUid/restreams';
const DESTINATION = `${RESTREAMS}/:destinationId`;

/**
 * The studio's restream calls: hosts (and owners) send a show on to other platforms; the stream
 * keys they save are theirs to keep secret.
 */
export const restreamCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  listRestreams: call({
    method: 'GET',
    path: RESTREAMS,
    auth: { staff: 'host' },
    summary:
      "A show's restream destinations with their health (connecting, live or failed with why, bytes and bitrate sent, since when); stream keys only masked.",
    params: ShowPath,
    response: RestreamList,
  }),
  addRestream: call({
    method: 'POST',
    path: RESTREAMS,
    auth: { staff: 'host' },
    summary: `Adds an RTMP/RTMPS destination (server URL and stream key) to a show, at most ${RESTREAM_MAX_DESTINATIONS}; the key is stored encrypted and answered only masked.`,
    params: ShowPath,
    request: RestreamDestinationInput,
    response: RestreamDestination,
    status: 201,
  }),
  removeRestream: call({
    method: 'DELETE',
    path: DESTINATION,
    auth: { staff: 'host' },
    summary: 'Removes a destination (stopping it first if it runs) and forgets its stream key.',
    params: DestinationPath,
    response: null,
    status: 204,
  }),
  startRestream: call({
    method: 'POST',
    path: `${DESTINATION}/start`,
    auth: { staff: 'host' },
    summary:
      'Starts sending the show to a destination: at once while the show is live, else when it goes live; retried with back-off on failure; stops when the show ends.',
    params: DestinationPath,
    response: RestreamDestination,
  }),
  stopRestream: call({
    method: 'POST',
    path: `${DESTINATION}/stop`,
    auth: { staff: 'host' },
    summary: 'Stops sending the show to a destination.',
    params: DestinationPath,
    response: RestreamDestination,
  }),
};
