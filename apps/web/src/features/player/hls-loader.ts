import { isHlsSource } from './hls-config.ts';

/** A source attached to a video element, with the stream's wall clock where it has one. */
export interface AttachedStream {
  /** Detaches and stops everything this attachment started. */
  release(): void;
  /**
   * The wall-clock time (ms) of the frame on screen, from the stream's EXT-X-PROGRAM-DATE-TIME
   * tags; null for a source without them (an MP4, an external provider's stream without PDT).
   */
  playingDate(): number | null;
  /** Where a live viewer should be (video seconds), a few segments behind the edge; null when not live. */
  livePosition(): number | null;
  /** Whether the viewer is far enough behind the live target to be offered "back to live" (live-catch-up.ts). */
  behindLive(): boolean;
  /** "Back to live": to the live position, playing at normal speed (live-catch-up.ts). */
  goLive(): void;
}

/**
 * Plays `url` in `video`: an MP4 or other file directly; an HLS playlist with the HLS playback
 * code (hls-playback.ts, with hls.js: ~117 KB gzip together, so loaded only for HLS shows and
 * kept out of the widget's first load). `live` picks the live settings.
 */
export async function attachSource(
  video: HTMLVideoElement,
  url: string,
  options: { live: boolean },
): Promise<AttachedStream> {
  if (isHlsSource(url)) {
    const { attachHls } = await import('./hls-playback.ts');
    return attachHls(video, url, options.live);
  }
  video.src = url;
  return {
    release() {
      video.removeAttribute('src');
      video.load();
    },
    playingDate: () => null,
    livePosition: () => null,
    behindLive: () => false,
    goLive: () => undefined,
  };
}
