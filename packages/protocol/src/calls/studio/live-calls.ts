import { z } from 'zod';
import { Uid } from '../../common.ts';
import { LiveStreamView } from '../../live-stream.ts';
import type { CallSchemas } from '../define-call.ts';

const ShowPath = z.object({ pageUid: Uid, showUid: Uid });

/** The schemas of the studio's live stream calls (routes in live-routes.ts). */
export const liveCalls = {
  getLiveStream: {
    summary:
      "A show's stream: state, stream key, RTMP and WHIP addresses, health of the incoming stream, and what is missing when this node cannot package.",
    params: ShowPath,
    response: LiveStreamView,
  },
  rotateStreamKey: {
    summary:
      'Gives the show a new stream key; the old one is refused at once (a publisher already sending continues).',
    params: ShowPath,
    response: LiveStreamView,
  },
  goLive: {
    summary:
      'Makes the received stream live for viewers (the event goes live with liveStartTime); 409 without a stream.',
    params: ShowPath,
    response: LiveStreamView,
  },
  endLive: {
    summary:
      'Ends the show: the recording is finalised and becomes the replay (the event becomes vod with liveEndTime).',
    params: ShowPath,
    response: LiveStreamView,
  },
} satisfies Record<string, CallSchemas>;
