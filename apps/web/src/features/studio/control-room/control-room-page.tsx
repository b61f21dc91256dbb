import { formatDuration } from '@vitrine/domain';
import type { ControlRoom, ControlRoomPresentations } from '@vitrine/protocol';
import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { StreamActions, useStreamCall } from '../live/stream-actions.tsx';
import { ViewerPreview } from '../live/viewer-preview.tsx';
import { LineupEditor } from '../shows/lineup-editor.tsx';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { BackLink } from '../ui/back-link.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { HighlightButton } from './highlight-button.tsx';
import { ModerationPanel } from './moderation-panel.tsx';
import { ProductRail } from './product-rail.tsx';
import { RoomCompetitions } from './room-competitions.tsx';
import { elapsedSeconds } from './room-figures.ts';
import { RoomFlashDeals } from './room-flash-deals.tsx';
import { RoomNumbers } from './room-numbers.tsx';
import { useRoomStats } from './use-room-stats.ts';
import '../live/live.css';
import './control-room.css';

/**
 * `/studio/:pageUid/shows/:showUid/control-room`: one page for a live show, for the host and the
 * moderators at once: what viewers see and the show's state and timer, Go live / End (hosts), the
 * line-up to present, competitions, the chat's moderation and the room's numbers. Every person's
 * page listens to the same `controlRoom` live query, which pushes what changed (issue 33 §10), so
 * what one does the other sees within a second; after a network drop one read restores the page.
 */
export default function ControlRoomPage() {
  const { t } = useStudioTranslation('studio-control-room');
  const store = useStudioStore();
  const { showUid = '' } = useParams();
  const params = { pageUid: store.pageUid, showUid };
  const roomQuery = useStaffQuery('getControlRoom', { params });
  const [room, setRoom] = useState<ControlRoom | null>(null);
  // The figures listen once the room says whether this member sees revenue (issue 33 §10).
  const live = useRoomStats(store.pageUid, showUid, room ? room.can.seeRevenue : null);
  const [previewDelayMs, setPreviewDelayMs] = useState<number | null>(null);
  const streamCall = useStreamCall('studio-control-room');
  const [editingLineup, setEditingLineup] = useState(false);

  useEffect(() => {
    if (roomQuery.data) setRoom(roomQuery.data);
  }, [roomQuery.data]);
  const stats = live.stats;
  // Another person changed the line-up or the stream moved on: read the room again.
  const { reload } = roomQuery;
  const lineupKey = stats?.lineupKey;
  const streamState = stats?.streamState;
  const { reconnects } = live;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the keys stand for the room's state on the server.
  useEffect(() => {
    if (lineupKey !== undefined || reconnects > 0) reload();
  }, [lineupKey, streamState, reconnects, reload]);

  const presented = useMemo(
    () => new Set((stats?.presented ?? room?.presented ?? []).map((presentation) => presentation.uid)),
    [stats, room],
  );
  const soldOut = useMemo(
    () =>
      new Set(stats?.soldOut ?? room?.lineup.filter((item) => item.soldOut).map((item) => item.uid) ?? []),
    [stats, room],
  );

  if (!room)
    return (
      <StudioPage title={t('page.title')}>
        {roomQuery.error ? (
          <ErrorNotice message={refusalText(roomQuery.error, t('page.loadFailed'))} />
        ) : (
          <StudioLoading />
        )}
      </StudioPage>
    );

  const state = stats?.streamState ?? room.stream.state;
  const elapsed = stats ? elapsedSeconds(stats, live.serverNow) : null;

  const runStream = (name: 'goLive' | 'endLive') =>
    streamCall.run(async () => {
      await staffCall(name, { params });
      live.refresh();
      reload();
    }, name === 'endLive');
  const onPresentations = (next: ControlRoomPresentations) => {
    setRoom((current) => (current ? { ...current, ...next } : current));
    live.refresh();
  };

  return (
    <StudioPage
      title={
        <>
          {room.name} <span className="room-title-suffix">· {t('page.title')}</span>
        </>
      }
      actions={<BackLink to="../..">{t('page.back')}</BackLink>}
    >
      <div className="room-status" role="status" aria-live="polite">
        <span className={`studio-badge live-state live-state--${state}`} data-state={state}>
          {t(`state.${state}`)}
        </span>
        {elapsed !== null && (
          <span className="room-timer" data-room-timer>
            {formatDuration(Math.max(0, Math.floor(elapsed)))}
          </span>
        )}
        {!live.connected && (
          <span className="studio-badge room-badge--offline">
            {stats ? t('page.reconnecting') : t('page.connecting')}
          </span>
        )}
      </div>
      {room.can.runStream && (
        <StreamActions
          namespace="studio-control-room"
          state={state}
          error={streamCall.error}
          showGoLive={state === 'receiving'}
          onGoLive={() => runStream('goLive')}
          onEnd={() => runStream('endLive')}
        >
          {(state === 'idle' || state === 'ended') && (
            <Link className="studio-button" to={`../../../live/${showUid}`} relative="path">
              {t('actions.goLivePage')}
            </Link>
          )}
        </StreamActions>
      )}
      {room.can.runStream && state === 'live' && (
        <HighlightButton pageUid={store.pageUid} showUid={showUid} />
      )}

      <div className="room-grid">
        <section className="studio-card room-grid__program" aria-labelledby="room-program-title">
          <h2 id="room-program-title" className="room-card__title">
            {t('program.title')}
          </h2>
          {state === 'idle' || state === 'ended' ? (
            <p className="studio-notice">{t(`program.${state}`)}</p>
          ) : (
            <ViewerPreview url={room.stream.previewUrl} onDelay={setPreviewDelayMs} />
          )}
          {previewDelayMs !== null && (
            <p className="studio-small studio-muted" data-preview-delay-ms={previewDelayMs}>
              {t('program.delay', { seconds: (previewDelayMs / 1000).toFixed(1) })}
            </p>
          )}
        </section>

        <section className="studio-card room-grid__numbers" aria-labelledby="room-numbers-title">
          <h2 id="room-numbers-title" className="room-card__title">
            {t('numbers.title')}
          </h2>
          {stats ? <RoomNumbers stats={stats} lineup={room.lineup} /> : <StudioLoading />}
        </section>

        <section className="studio-card room-grid__rail" aria-labelledby="room-rail-title">
          <div className="room-card__head">
            <h2 id="room-rail-title" className="room-card__title">
              {t('rail.title')}
            </h2>
            {room.can.present && (
              <button
                type="button"
                className="studio-button studio-button--quiet"
                aria-expanded={editingLineup}
                onClick={() => setEditingLineup((open) => !open)}
              >
                {editingLineup ? t('rail.doneEditing') : t('rail.editLineup')}
              </button>
            )}
          </div>
          {editingLineup ? (
            <RoomLineupEditor pageUid={store.pageUid} showUid={showUid} onChange={reload} />
          ) : (
            <ProductRail
              pageUid={store.pageUid}
              showUid={showUid}
              lineup={room.lineup}
              presented={presented}
              soldOut={soldOut}
              canPresent={room.can.present}
              onPresentations={onPresentations}
              onSoldOut={() => {
                reload();
                live.refresh();
              }}
            />
          )}
          {/* Flash deals hook (issue 30 §3): hosts prepare, start and end the show's deals beside its products. */}
          {room.can.present && !editingLineup && (
            <RoomFlashDeals
              pageUid={store.pageUid}
              showUid={showUid}
              lineup={room.lineup}
              live={state === 'live'}
            />
          )}
        </section>

        <section className="studio-card room-grid__competitions" aria-labelledby="room-competitions-title">
          <h2 id="room-competitions-title" className="room-card__title">
            {t('competitions.title')}
          </h2>
          <RoomCompetitions pageUid={store.pageUid} showUid={showUid} stats={stats} />
        </section>

        <section className="studio-card room-grid__moderation" aria-labelledby="room-moderation-title">
          <h2 id="room-moderation-title" className="room-card__title">
            {t('moderation.title')}
          </h2>
          <ModerationPanel
            storeId={store.pageUid}
            showId={showUid}
            changeKey={live.boardKey === null ? null : `${live.boardKey} ${live.reconnects}`}
          />
        </section>
      </div>
    </StudioPage>
  );
}

/** The show's line-up editor (add a product mid-show, reorder), as the show editor has it. */
function RoomLineupEditor({
  pageUid,
  showUid,
  onChange,
}: {
  pageUid: string;
  showUid: string;
  onChange: () => void;
}) {
  const { t } = useStudioTranslation('studio-control-room');
  const show = useStaffQuery('getShow', { params: { pageUid, showUid } });
  if (show.error) return <ErrorNotice message={refusalText(show.error, t('page.loadFailed'))} />;
  return show.data ? <LineupEditor show={show.data} onChange={onChange} /> : <StudioLoading />;
}
