import { z } from 'zod';
import { Uid } from '../../common.ts';
import { LiveStreamView } from '../../live-stream.ts';
import { call } from '../define-call.ts';

const ShowPath = z.object({ pageUid: Uid, showUid: Uid });

const STREAM = '/staff/stores/:pageUid/shows/:showUid/stream';

/** The studio's live stream calls: hosts run the show's stream. */
export const liveCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  getLiveStream: call({
    method: 'GET',
    path: STREAM,
    auth: { staff: 'host' },
    summary:
      "A show's stream: state, stream key, RTMP and WHIP addresses, health of the incoming stream, and what is missing when this node cannot package.",
    params: ShowPath,
    response: LiveStreamView,
  }),
  endLive: call({
    method: 'POST',
    path: `${STREAM}/end`,
    auth: { staff: 'host' },
    summary:
      'Ends the show: the recording is finalised and becomes the replay (the event becomes vod with liveEndTime).',
    params: ShowPath,
    response: LiveStreamView,
  }),
  goLive: call({
    method: 'POST',
    path: `${STREAM}/go-live`,
    auth: { staff: 'host' },
    summary:
      'Makes the received stream live for viewers (the event goes live with liveStartTime); 409 without a stream.',
    params: ShowPath,
    response: LiveStreamView,
  }),
  rotateStreamKey: call({
    method: 'POST',
    path: `${STREAM}/key`,
    auth: { staff: 'host' },
    summary:
      'Gives the show a new stream key; the old one is refused at once (a publisher already sending continues).',
    params: ShowPath,
    response: LiveStreamView,
  }),
};
