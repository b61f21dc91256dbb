import { useEffect, useRef, useState } from 'react';
import { useStudioTranslation } from '../studio-i18n.ts';

/** How often the measured delay is refreshed. */
const DELAY_SAMPLE_MS = 1000;

/**
 * What viewers will see: the show's live playlist, played with hls.js (loaded only here) as the
 * player does, and the delay they have, measured as now − the program date-time of the frame
 * on screen (`playingDate`). It plays before Go live, while viewers still see the pre-show screen.
 */
export function ViewerPreview({ url, onDelay }: { url: string; onDelay: (delayMs: number | null) => void }) {
  const { t } = useStudioTranslation('studio-live');
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  const report = useRef(onDelay);
  report.current = onDelay;

  useEffect(() => {
    const element = video.current;
    if (!element) return;
    let release = () => {};
    let cancelled = false;
    void import('hls.js/light').then(({ default: Hls }) => {
      if (cancelled) return;
      if (!Hls.isSupported()) {
        element.src = url;
        release = () => element.removeAttribute('src');
        return;
      }
      const hls = new Hls({ liveSyncDurationCount: 2, manifestLoadingMaxRetry: 30 });
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (!data.fatal) return;
        setFailed(true);
        // The stream may not have its first segments yet: try again from the playlist.
        if (data.type === Hls.ErrorTypes.NETWORK_ERROR) hls.startLoad();
        else if (data.type === Hls.ErrorTypes.MEDIA_ERROR) hls.recoverMediaError();
      });
      hls.on(Hls.Events.FRAG_BUFFERED, () => setFailed(false));
      hls.loadSource(url);
      hls.attachMedia(element);
      const sampler = setInterval(() => {
        const playing = hls.playingDate;
        report.current(playing && !element.paused ? Math.max(0, Date.now() - playing.getTime()) : null);
      }, DELAY_SAMPLE_MS);
      release = () => {
        clearInterval(sampler);
        hls.destroy();
      };
    });
    return () => {
      cancelled = true;
      release();
      report.current(null);
    };
  }, [url]);

  return (
    <div className="live-viewer">
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
