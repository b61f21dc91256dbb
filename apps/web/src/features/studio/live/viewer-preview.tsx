import { LIVE_DELAY_SAMPLE_MS, liveDelayMs } from '@vitrine/domain';
import { useEffect, useRef, useState } from 'react';
import { HLS_WORKER_URL } from '../../player/hls-config.ts';
import { useStudioTranslation } from '../studio-i18n.ts';

/**
 * What viewers will see: the show's live playlist, played with hls.js (loaded only here) as the
 * player does, and the delay they have, measured as now − the program date-time of the frame
 * on screen (`playingDate`). It plays before Go live, while viewers still see the pre-show screen.
 */
export function ViewerPreview({ url, onDelay }: { url: string; onDelay: (delayMs: number | null) => void }) {
  const { t } = useStudioTranslation('studio-live');
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  // The frame takes the stream's shape (portrait from a phone or the portrait formats).
  const [aspect, setAspect] = useState<string | null>(null);
  const report = useRef(onDelay);
  report.current = onDelay;

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    let release = () => {};
    let cancelled = false;
    const onResize = () => {
      if (element.videoWidth && element.videoHeight)
        setAspect(`${element.videoWidth} / ${element.videoHeight}`);
    };
    element.addEventListener('resize', onResize);
    void import('hls.js/light').then(({ default: Hls }) => {
      if (cancelled) return;
      if (!Hls.isSupported()) {
        element.src = url;
        release = () => element.removeAttribute('src');
        return;
      }
      const hls = new Hls({
        workerPath: HLS_WORKER_URL,
        liveSyncDurationCount: 2,
        manifestLoadingMaxRetry: 30,
      });
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (!data.fatal) return;
        setFailed(true);
        // The stream may not have its first segments yet: try again from the playlist.
        if (data.type === Hls.ErrorTypes.NETWORK_ERROR) hls.startLoad();
        else if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
      });
      hls.on(Hls.Events.FRAG_BUFFERED, () => {
        setFailed(false);
        // The autoplay attribute does not start a media-source stream reliably: start it (muted).
        if (element.paused) {
          element.muted = true;
          void element.play().catch(() => {});
        }
      });
      hls.loadSource(url);
      hls.attachMedia(element);
      const sampler = setInterval(() => {
        const playing = hls.playingDate;
        report.current(playing && !element.paused ? liveDelayMs(playing.getTime(), Date.now()) : null);
      }, LIVE_DELAY_SAMPLE_MS);
      release = () => {
        clearInterval(sampler);
        hls.destroy();
      };
    });
    return () => {
      cancelled = true;
      element.removeEventListener('resize', onResize);
      release();
      report.current(null);
    };
  }, [url]);

  return (
    <div className="live-viewer" style={aspect ? { aspectRatio: aspect } : undefined}>
      <video
        ref={video}
        className="live-viewer__video"
        autoPlay
        muted
        playsInline
        aria-label={t('preview.label')}
      />
      {failed && <p className="studio-small studio-muted">{t('preview.waiting')}</p>}
    </div>
  );
}
