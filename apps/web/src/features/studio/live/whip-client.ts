import { SDP_CONTENT_TYPE } from '@vitrine/protocol';

/** How long the offer waits for the browser's candidates before it is sent with what it has. */
const ICE_GATHERING_TIMEOUT_MS = 2000;

/** A publish in progress: the peer connection and the WHIP session resource that ends it. */
export interface WhipPublication {
  readonly peer: RTCPeerConnection;
  /** Ends the publish: `DELETE` of the session resource, then the peer connection closes. */
  stop(): Promise<void>;
}

/** A WHIP refusal, with the server's status and text ("Unknown stream key.", …). */
export class WhipError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Video codecs in the order the server prefers them: H.264 packetization-mode 1 in the
 * constrained-baseline profile is passed through to HLS as it is; anything else is transcoded.
 */
export function preferH264(codecs: RTCRtpCodec[]): RTCRtpCodec[] {
  const rank = (codec: RTCRtpCodec) => {
    const fmtp = codec.sdpFmtpLine ?? '';
    if (codec.mimeType.toLowerCase() !== 'video/h264')
      return codec.mimeType.toLowerCase() === 'video/vp8' ? 2 : 3;
    if (!fmtp.includes('packetization-mode=1')) return 1.5;
    return /profile-level-id=42e0/i.test(fmtp) ? 0 : 1;
  };
  return [...codecs].sort((a, b) => rank(a) - rank(b));
}

/** Publishes a camera/microphone stream to a WHIP endpoint (RFC 9725), bearer = stream key. */
export async function publishWhip(options: {
  url: string;
  streamKey: string;
  stream: MediaStream;
  /** The most bits per second the video may use (by resolution). */
  maxVideoBitrate: number;
}): Promise<WhipPublication> {
  const peer = new RTCPeerConnection({ bundlePolicy: 'max-bundle' });
  try {
    for (const track of options.stream.getTracks()) {
      const transceiver = peer.addTransceiver(track, { direction: 'sendonly', streams: [options.stream] });
      if (track.kind !== 'video') continue;
      const capabilities = RTCRtpReceiver.getCapabilities('video');
      if (capabilities && 'setCodecPreferences' in transceiver) {
        try {
          transceiver.setCodecPreferences(preferH264(capabilities.codecs));
        } catch {
          // An engine that refuses the list keeps its own order; the server still picks H.264 first.
        }
      }
      const parameters = transceiver.sender.getParameters();
      parameters.encodings = [{ ...(parameters.encodings?.[0] ?? {}), maxBitrate: options.maxVideoBitrate }];
      await transceiver.sender.setParameters(parameters).catch(() => {});
    }
    await peer.setLocalDescription(await peer.createOffer());
    await gathered(peer);
    const response = await fetch(options.url, {
      method: 'POST',
      headers: { 'content-type': SDP_CONTENT_TYPE, authorization: `Bearer ${options.streamKey}` },
      body: peer.localDescription?.sdp ?? '',
    });
    const text = await response.text();
    if (response.status !== 201)
      throw new WhipError(response.status, refusalMessage(text, response.statusText));
    const location = new URL(response.headers.get('location') ?? '', options.url).toString();
    await peer.setRemoteDescription({ type: 'answer', sdp: text });
    let stopped = false;
    return {
      peer,
      async stop() {
        if (stopped) return;
        stopped = true;
        await fetch(location, { method: 'DELETE' }).catch(() => {});
        peer.close();
      },
    };
  } catch (error) {
    peer.close();
    throw error;
  }
}

function gathered(peer: RTCPeerConnection): Promise<void> {
  if (peer.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ICE_GATHERING_TIMEOUT_MS);
    peer.addEventListener('icegatheringstatechange', () => {
      if (peer.iceGatheringState !== 'complete') return;
      clearTimeout(timer);
      resolve();
    });
  });
}

function refusalMessage(text: string, fallback: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: a proxy's page; the status text says enough.
  }
  return fallback;
}
