import type { LiveStreamView } from '@vitrine/protocol';
import { publishTestStream, waitFor } from '../../apps/server/src/test-support/live-publisher.ts';
import { bearerCall } from './test-server.ts';

export type TestPublisher = ReturnType<typeof publishTestStream>;

/** The studio's stream path of a show. */
const streamPathOf = (pageUid: string, showUid: string) => `/staff/stores/${pageUid}/shows/${showUid}/stream`;

/**
 * A real encoder publishing to a show, as OBS does: the stream view the studio shows its staff
 * names the RTMP ingest and the show's key, and ffmpeg (publishTestStream) publishes there.
 * The caller kills the publisher when done.
 */
export async function publishToShow(
  staffToken: string,
  pageUid: string,
  showUid: string,
): Promise<TestPublisher> {
  const view = await bearerCall<LiveStreamView>(staffToken, 'GET', streamPathOf(pageUid, showUid));
  if (!view.rtmpUrl) throw new Error('the server has no RTMP ingest');
  // The ingest URL names the server's public host; the encoder runs beside it.
  const rtmp = new URL(`${view.rtmpUrl}/${view.streamKey}`.replace('rtmp://', 'http://'));
  return publishTestStream(`rtmp://127.0.0.1:${rtmp.port}${rtmp.pathname}`);
}

/**
 * Takes a planned show live the way a host does: a real encoder publishes to it (publishToShow),
 * and once the server receives the stream the host goes live. Answers the publisher (the caller
 * kills it when done; killed here if the stream never arrives).
 */
export async function goLiveOverRtmp(
  hostToken: string,
  pageUid: string,
  showUid: string,
): Promise<TestPublisher> {
  const streamPath = streamPathOf(pageUid, showUid);
  const publisher = await publishToShow(hostToken, pageUid, showUid);
  try {
    await waitFor(
      'the stream to arrive',
      async () => (await bearerCall<LiveStreamView>(hostToken, 'GET', streamPath)).state === 'receiving',
    );
    await bearerCall(hostToken, 'POST', `${streamPath}/go-live`);
    return publisher;
  } catch (error) {
    publisher.kill('SIGKILL');
    throw error;
  }
}
