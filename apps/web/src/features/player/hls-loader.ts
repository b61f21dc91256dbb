import { logFailure } from '../../lib/debug.ts';

/** Whether this URL is an HLS playlist. */
export const isHlsSource = (url: string) => /\.m3u8(\?|#|$)/i.test(url);

/**
 * Plays an HLS source in `video`: natively where the browser can (Safari, and Debian's Chromium),
 * else with hls.js, which is loaded only then (it is ~117 KB gzip, kept out of the initial
 * bundle). Returns a function that releases what was attached.
 */
export async function attachSource(video: HTMLVideoElement, url: string): Promise<() => void> {
  if (!isHlsSource(url) || video.canPlayType('application/vnd.apple.mpegurl')) {
    video.src = url;
    return () => {
      video.removeAttribute('src');
      video.load();
    };
  }
  const { default: Hls } = await import('hls.js/light');
  if (!Hls.isSupported()) {
    video.src = url;
    return () => video.removeAttribute('src');
  }
  const hls = new Hls({ lowLatencyMode: true });
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) logFailure('video stream failed', data.details);
  });
  hls.loadSource(url);
  hls.attachMedia(video);
  return () => hls.destroy();
}
