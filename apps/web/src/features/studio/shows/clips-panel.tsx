import type { Show, StudioClip } from '@vitrine/protocol';
import { useEffect, useId, useState } from 'react';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { useStaffAction } from '../use-staff-action.ts';
import { refusalText, useReloadEvery, useStaffQuery } from '../use-staff-query.ts';

/** While a clip is being cut (the show just ended), the list is asked again this often. */
const POLL_MS = 3000;

/** Seconds with one decimal, as the trim fields show them. */
const seconds = (ms: number) => Math.round(ms / 100) / 10;

/**
 * The show's clips (issue 32 item 4): one per presented product, cut from the recording when the
 * show ends, and one per highlight marked in the control room. The host plays each, trims it
 * within its chapter (it is cut again), hides or shows it, and opens its public page.
 */
export function ClipsPanel({ show }: { show: Show }) {
  const { t } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const params = { pageUid: store.pageUid, showUid: show.uid };
  const query = useStaffQuery('listShowClips', { params });
  const [clips, setClips] = useState<StudioClip[] | null>(null);
  useEffect(() => setClips(query.data?.clips ?? null), [query.data]);
  const pending = clips?.some((clip) => clip.state === 'pending') ?? false;
  useReloadEvery(query.reload, POLL_MS, pending);

  if (!clips)
    return query.error ? (
      <ErrorNotice message={refusalText(query.error, t('clips.loadFailed'))} />
    ) : (
      <p className="studio-muted">{t('clips.loading')}</p>
    );
  if (clips.length === 0) return <p className="studio-muted">{t('clips.none')}</p>;
  const replace = (next: StudioClip) =>
    setClips((current) => current?.map((clip) => (clip.uid === next.uid ? next : clip)) ?? null);
  return (
    <ul className="shows-clips" data-show-clips>
      {clips.map((clip) => (
        <ClipItem key={clip.uid} clip={clip} showUid={show.uid} onChange={replace} />
      ))}
    </ul>
  );
}

function ClipItem({
  clip,
  showUid,
  onChange,
}: {
  clip: StudioClip;
  showUid: string;
  onChange: (clip: StudioClip) => void;
}) {
  const { t } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const params = { pageUid: store.pageUid, showUid, clipUid: clip.uid };
  const id = useId();
  const windowSeconds = seconds(clip.boundsEnd - clip.boundsStart);
  const [start, setStart] = useState(seconds(clip.startAt - clip.boundsStart));
  const [end, setEnd] = useState(seconds(clip.endAt - clip.boundsStart));
  const action = useStaffAction(t('clips.failed'));
  const { busy } = action;
  const run = (work: () => Promise<StudioClip>) => action.run(async () => onChange(await work()));

  const name = clip.productName ?? t('clips.highlight');
  return (
    <li className="shows-clips__item" data-clip={clip.uid}>
      <p className="shows-clips__head">
        <strong>{name}</strong> <span className="studio-badge">{t(`clips.state.${clip.state}`)}</span>{' '}
        {clip.kind === 'highlight' && <span className="studio-badge">{t('clips.highlight')}</span>}{' '}
        {clip.hidden && <span className="studio-badge">{t('clips.hiddenBadge')}</span>}
        {clip.durationSeconds !== null && (
          <span className="studio-muted">
            {' '}
            {t('clips.duration', { seconds: Math.round(clip.durationSeconds) })}
          </span>
        )}
      </p>
      {clip.videoUrl && !clip.hidden && (
        <video
          className="shows-clips__video"
          src={clip.videoUrl}
          poster={clip.posterUrl ?? undefined}
          controls
          preload="metadata"
          muted
        />
      )}
      <ErrorNotice message={clip.error} />
      <form
        className="shows-clips__trim"
        onSubmit={(event) => {
          event.preventDefault();
          void run(() =>
            staffCall('trimShowClip', {
              params,
              body: { startOffsetMs: Math.round(start * 1000), endOffsetMs: Math.round(end * 1000) },
            }),
          );
        }}
      >
        <label htmlFor={`${id}-start`}>{t('clips.start')}</label>
        <input
          id={`${id}-start`}
          type="number"
          min={0}
          max={windowSeconds}
          step={0.1}
          value={start}
          onChange={(event) => setStart(Number(event.target.value))}
        />
        <label htmlFor={`${id}-end`}>{t('clips.end')}</label>
        <input
          id={`${id}-end`}
          type="number"
          min={0}
          max={windowSeconds}
          step={0.1}
          value={end}
          onChange={(event) => setEnd(Number(event.target.value))}
        />
        <span className="studio-muted">{t('clips.window', { seconds: windowSeconds })}</span>
        <button type="submit" className="studio-button" disabled={busy}>
          {t('clips.trim')}
        </button>
      </form>
      <p className="shows-clips__actions">
        <button
          type="button"
          className="studio-button studio-button--secondary"
          disabled={busy}
          onClick={() =>
            void run(() => staffCall('setShowClipHidden', { params, body: { hidden: !clip.hidden } }))
          }
        >
          {clip.hidden ? t('clips.show') : t('clips.hide')}
        </button>{' '}
        {clip.state === 'ready' && !clip.hidden && (
          <a href={clip.pagePath} target="_blank" rel="noopener">
            {t('clips.open')}
          </a>
        )}
      </p>
      <ErrorNotice message={action.failure} />
    </li>
  );
}
