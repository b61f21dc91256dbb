import type { LiveStreamView } from '@vitrine/protocol';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { RestreamPanel } from '../restream/restream-panel.tsx';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useReloadEvery, useStaffQuery } from '../use-staff-query.ts';
import { CameraPublisher } from './camera-publisher.tsx';
import { EncoderSettings } from './encoder-settings.tsx';
import { StreamActions, useStreamCall } from './stream-actions.tsx';
import { type PlayersDelay, StreamHealth } from './stream-health.tsx';
import { ViewerPreview } from './viewer-preview.tsx';

/** How often the stream's state and health are asked for while the page is open. */
const POLL_MS = 2000;
/** The players report their delay with each 30 s heartbeat: a look every 5 s follows them. */
const PLAYERS_DELAY_POLL_MS = 5000;

/**
 * A show's go-live page: the browser or an external encoder publishes; the studio shows the
 * stream arriving (receiving), its health and what viewers will see; Go live opens it to viewers;
 * End makes the recording the replay.
 */
export function GoLivePage() {
  const { t } = useStudioTranslation('studio-live');
  const { t: tRestream } = useStudioTranslation('studio-restream');
  const store = useStudioStore();
  const { showUid = '' } = useParams();
  const params = { pageUid: store.pageUid, showUid };
  const query = useStaffQuery('getLiveStream', { params });
  const [stream, setStream] = useState<LiveStreamView | null>(null);
  const [viewerDelayMs, setViewerDelayMs] = useState<number | null>(null);
  const [playersDelay, setPlayersDelay] = useState<PlayersDelay | null>(null);
  const streamCall = useStreamCall('studio-live');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (query.data) setStream(query.data);
  }, [query.data]);
  useReloadEvery(query.reload, POLL_MS);
  // The viewers' delay as their players report it: the control room's median of their reports.
  const { pageUid } = store;
  useEffect(() => {
    let stopped = false;
    const ask = () =>
      staffCall('getControlRoomStats', { params: { pageUid, showUid } }).then(
        (stats) => {
          if (!stopped)
            setPlayersDelay({ medianDelayMs: stats.medianDelayMs, delayReports: stats.delayReports });
        },
        () => {},
      );
    void ask();
    const timer = setInterval(() => void ask(), PLAYERS_DELAY_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [pageUid, showUid]);

  const act = (name: 'goLive' | 'endLive' | 'rotateStreamKey') =>
    streamCall.run(async () => {
      setBusy(true);
      try {
        setStream(await staffCall(name, { params }));
      } finally {
        setBusy(false);
      }
    }, name !== 'goLive');

  if (!stream)
    return (
      <StudioPage title={t('page.title')}>
        {query.error ? (
          <p role="alert" className="studio-notice studio-notice--error">
            {refusalText(query.error, t('page.loadFailed'))}
          </p>
        ) : (
          <StudioLoading />
        )}
      </StudioPage>
    );

  const onAir = stream.state === 'live' || stream.state === 'reconnecting';
  return (
    <StudioPage
      title={t('page.title')}
      actions={
        <>
          <Link to={`../../shows/${showUid}/control-room`} relative="path" className="studio-button">
            {t('page.controlRoom')}
          </Link>
          <Link to=".." relative="path" className="studio-button">
            {t('page.back')}
          </Link>
        </>
      }
    >
      <div className="live-status" role="status" aria-live="polite">
        <span className={`studio-badge live-state live-state--${stream.state}`} data-state={stream.state}>
          {t(`state.${stream.state}`)}
        </span>
        <span className="studio-small">{t(`stateHint.${stream.state}`)}</span>
      </div>
      {!stream.packager.available && (
        <ErrorNotice message={t('page.noPackager', { missing: stream.packager.missing ?? 'ffmpeg' })} />
      )}
      {stream.disk.low && <ErrorNotice message={t('page.diskLow')} />}
      <StreamActions
        namespace="studio-live"
        state={stream.state}
        error={streamCall.error}
        showGoLive={stream.state !== 'ended' && !onAir}
        busy={busy}
        onGoLive={() => act('goLive')}
        onEnd={() => act('endLive')}
      >
        {stream.state === 'ended' && (
          <a className="studio-button" href={stream.replayUrl} target="_blank" rel="noreferrer">
            {t('actions.replay')}
          </a>
        )}
      </StreamActions>
      <div className="live-grid">
        <section className="studio-card live-grid__camera" aria-labelledby="live-camera-title">
          <h2 id="live-camera-title" className="live-card__title">
            {t('camera.title')}
          </h2>
          <CameraPublisher
            whipUrl={stream.whipUrl}
            streamKey={stream.streamKey}
            disabled={stream.state === 'ended' || !stream.packager.available}
          />
        </section>
        <section className="studio-card live-grid__viewer" aria-labelledby="live-viewer-title">
          <h2 id="live-viewer-title" className="live-card__title">
            {t('preview.title')}
          </h2>
          {stream.state === 'idle' || stream.state === 'ended' ? (
            <p className="studio-notice">{t(`preview.${stream.state}`)}</p>
          ) : (
            <ViewerPreview url={stream.previewUrl} onDelay={setViewerDelayMs} />
          )}
          <h3 className="studio-small live-subtitle">{t('health.title')}</h3>
          <StreamHealth stream={stream} viewerDelayMs={viewerDelayMs} playersDelay={playersDelay} />
        </section>
        <section className="studio-card live-grid__encoder" aria-labelledby="live-encoder-title">
          <h2 id="live-encoder-title" className="live-card__title">
            {t('encoder.title')}
          </h2>
          <EncoderSettings stream={stream} onRotate={() => act('rotateStreamKey')} />
        </section>
        <section className="studio-card live-grid__encoder" aria-labelledby="live-restream-title">
          <h2 id="live-restream-title" className="live-card__title">
            {tRestream('title')}
          </h2>
          <RestreamPanel pageUid={store.pageUid} showUid={showUid} streamState={stream.state} />
        </section>
      </div>
    </StudioPage>
  );
}
