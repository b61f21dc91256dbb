import { randomFillSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { paintClockStamp } from './clock-stamp.ts';

// A real libwebrtc publisher (@roamhq/wrtc, the engine inside Chrome) that pushes synthetic
// frames and tone over WHIP, as the studio page or OBS would. Typed here with what the tests use:
// the package's own types lean on the DOM library, which the server does not load.

interface WrtcTrack {
  stop(): void;
}
interface WrtcTransceiver {
  sender: { track: WrtcTrack | null };
}
interface WrtcPeerConnection {
  addTransceiver(track: WrtcTrack, init: { direction: 'sendonly' }): WrtcTransceiver;
  createOffer(): Promise<{ type: 'offer'; sdp: string }>;
  setLocalDescription(description: { type: 'offer'; sdp: string }): Promise<void>;
  setRemoteDescription(description: { type: 'answer'; sdp: string }): Promise<void>;
  readonly localDescription: { sdp: string } | null;
  readonly iceGatheringState: string;
  readonly connectionState: string;
  onicegatheringstatechange: (() => void) | null;
  onconnectionstatechange: (() => void) | null;
  close(): void;
}
interface Wrtc {
  RTCPeerConnection: new () => WrtcPeerConnection;
  nonstandard: {
    RTCVideoSource: new () => {
      createTrack(): WrtcTrack;
      onFrame(frame: { width: number; height: number; data: Uint8Array }): void;
    };
    RTCAudioSource: new () => {
      createTrack(): WrtcTrack;
      onData(data: {
        samples: Int16Array;
        sampleRate: number;
        channelCount: number;
        numberOfFrames: number;
      }): void;
    };
  };
}

const wrtc = createRequire(import.meta.url)('@roamhq/wrtc') as Wrtc;

export interface WhipTestPublisher {
  /** The WHIP response to the offer. */
  status: number;
  location: string | null;
  body: string;
  /** Resolves when the peer connection is connected (rejects after the timeout). */
  connected(timeoutMs?: number): Promise<void>;
  stop(): void;
}

export interface PublishOptions {
  url: string;
  key: string | null;
  video?: boolean;
  audio?: boolean;
  width?: number;
  height?: number;
  /** Random pixels in every frame, so the encoder spends its whole bitrate (benchmarks). */
  noise?: boolean;
  /** Burns the wall clock (ms since this base) into every frame (clock-stamp.ts). */
  clockStampBase?: number;
}

/** Starts a synthetic camera and microphone and publishes them to a WHIP endpoint. */
export async function publishOverWhip(options: PublishOptions): Promise<WhipTestPublisher> {
  const { width = 320, height = 240 } = options;
  const pc = new wrtc.RTCPeerConnection();
  const tracks: WrtcTrack[] = [];
  const timers: NodeJS.Timeout[] = [];
  if (options.video !== false) {
    const source = new wrtc.nonstandard.RTCVideoSource();
    const track = source.createTrack();
    tracks.push(track);
    pc.addTransceiver(track, { direction: 'sendonly' });
    const frame = new Uint8Array((width * height * 3) / 2);
    let tick = 0;
    timers.push(
      setInterval(() => {
        tick += 1;
        // A moving gradient, so the encoder has something to encode.
        if (options.noise) randomFillSync(frame, 0, width * height);
        else frame.fill(tick % 255, 0, width * height);
        if (options.clockStampBase !== undefined)
          paintClockStamp(frame, width, Date.now() - options.clockStampBase);
        frame.fill(128, width * height);
        source.onFrame({ width, height, data: frame });
      }, 1000 / 30),
    );
  }
  if (options.audio !== false) {
    const source = new wrtc.nonstandard.RTCAudioSource();
    const track = source.createTrack();
    tracks.push(track);
    pc.addTransceiver(track, { direction: 'sendonly' });
    const samples = new Int16Array(480);
    let phase = 0;
    timers.push(
      setInterval(() => {
        for (let i = 0; i < samples.length; i += 1) {
          samples[i] = Math.round(Math.sin(phase) * 8000);
          phase += (2 * Math.PI * 440) / 48000;
        }
        source.onData({ samples, sampleRate: 48000, channelCount: 1, numberOfFrames: 480 });
      }, 10),
    );
  }
  const stop = () => {
    for (const timer of timers) clearInterval(timer);
    for (const track of tracks) track.stop();
    pc.close();
  };
  try {
    await pc.setLocalDescription(await pc.createOffer());
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') return resolve();
      pc.onicegatheringstatechange = () => {
        if (pc.iceGatheringState === 'complete') resolve();
      };
    });
    const response = await fetch(options.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/sdp',
        ...(options.key === null ? {} : { authorization: `Bearer ${options.key}` }),
      },
      body: pc.localDescription?.sdp ?? '',
    });
    const body = await response.text();
    if (response.status === 201) await pc.setRemoteDescription({ type: 'answer', sdp: body });
    else stop();
    return {
      status: response.status,
      location: response.headers.get('location'),
      body,
      stop,
      connected: (timeoutMs = 10_000) =>
        new Promise<void>((resolve, reject) => {
          if (pc.connectionState === 'connected') return resolve();
          const timer = setTimeout(
            () => reject(new Error(`not connected: ${pc.connectionState}`)),
            timeoutMs,
          );
          pc.onconnectionstatechange = () => {
            if (pc.connectionState !== 'connected') return;
            clearTimeout(timer);
            resolve();
          };
        }),
    };
  } catch (error) {
    stop();
    throw error;
  }
}
