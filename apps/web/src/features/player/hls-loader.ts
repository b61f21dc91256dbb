import { afterFirstPaint } from '../../lib/after-next-paint.ts';
import type { AttachedStream } from '../../lib/live-clock.ts';
import { isHlsSource } from './hls-config.ts';

/**
 * Plays `url` in `video`: an MP4 or other file directly; an HLS playlist with the HLS playback
 * code (hls-playback.ts, with hls.js: ~117 KB gzip together, so loaded only for HLS shows and
 * kept out of the widget's first load), asked for once the player's first view (its poster, the
 * page's largest paint) is on screen: on a phone's slow line it no longer comes before that
 * picture, and the stream, which needs seconds there, starts a frame or two later. `live` picks
 * the live settings.
 */
export async function attachSource(
  video: HTMLVideoElement,
  url: string,
  options: { live: boolean },
): Promise<AttachedStream> {
  if (isHlsSource(url)) {
    await afterFirstPaint();
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
