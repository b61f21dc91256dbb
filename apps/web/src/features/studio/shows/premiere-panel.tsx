import type { PremiereInfo, PremiereView, Show } from '@vitrine/protocol';
import { useEffect, useId, useState } from 'react';
import { staffCall, uploadFile } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { ProgressBar } from '../ui/progress-bar.tsx';
import { useUpload } from '../ui/use-upload.ts';
import { useStaffAction } from '../use-staff-action.ts';
import { refusalText, useReloadEvery, useStaffQuery } from '../use-staff-query.ts';
import { formatShowTime, localInputValue } from './show-time.ts';

/** How often the panel asks again while a premiere waits for its time or plays. */
const POLL_MS = 2000;

/** `m:ss` or `h:mm:ss` of a length in seconds. */
function clock(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** The `<input type="datetime-local" step="1">` value of an instant in a zone, to the second. */
const localSecondsValue = (instant: number, timeZone: string) =>
  `${localInputValue(instant, timeZone)}:${String(new Date(instant).getUTCSeconds()).padStart(2, '0')}`;

/**
 * The show's premiere: upload a recorded video (with progress), see what the server read of it,
 * schedule it in the show's time zone, and follow it as it plays as live and becomes the replay.
 */
export function PremierePanel({ show, onShowChange }: { show: Show; onShowChange: (show: Show) => void }) {
  const { t } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const params = { pageUid: store.pageUid, showUid: show.uid };
  const query = useStaffQuery('getPremiere', { params });
  const [info, setInfo] = useState<PremiereInfo | null>(null);
  useEffect(() => setInfo(query.data), [query.data]);
  const state = info?.premiere?.state;
  useReloadEvery(query.reload, POLL_MS, state === 'scheduled' || state === 'playing');

  if (!info)
    return query.error ? (
      <ErrorNotice message={refusalText(query.error, t('premiere.loadFailed'))} />
    ) : (
      <p className="studio-muted">{t('premiere.loading')}</p>
    );
  if (!info.available)
    return (
      <p role="status" className="studio-notice">
        {t('premiere.unavailable', { missing: info.missing ?? '' })}
      </p>
    );
  const premiere = info.premiere;
  return (
    <div className="shows-premiere">
      <p className="studio-muted">{t('premiere.intro')}</p>
      {premiere && <PremiereFacts premiere={premiere} timeZone={show.timeZone} />}
      {(!premiere || (premiere.state !== 'playing' && premiere.state !== 'ended')) && (
        <PremiereUpload info={info} showUid={show.uid} onUploaded={setInfo} />
      )}
      {premiere && (premiere.state === 'ready' || premiere.state === 'scheduled') && (
        <PremiereSchedule
          premiere={premiere}
          show={show}
          onScheduled={async (next) => {
            setInfo(next);
            // The show's start moved with it.
            onShowChange(await staffCall('getShow', { params }));
          }}
        />
      )}
    </div>
  );
}

function PremiereFacts({ premiere, timeZone }: { premiere: PremiereView; timeZone: string }) {
  const { t, i18n } = useStudioTranslation('studio-shows');
  const { media } = premiere;
  return (
    <>
      <p role="status" className="shows-premiere__state">
        <span className={`studio-badge shows-premiere__badge--${premiere.state}`}>
          {t(`premiere.state.${premiere.state}`)}
        </span>{' '}
        {premiere.state === 'scheduled' && premiere.startsAt !== null && (
          <span>
            {t('premiere.scheduledFor', { time: formatShowTime(premiere.startsAt, timeZone, i18n.language) })}
          </span>
        )}
        {premiere.state === 'playing' && premiere.position !== null && (
          <span>
            {t('premiere.position', {
              position: clock(premiere.position),
              duration: clock(media.durationSeconds),
            })}
          </span>
        )}
        {premiere.state === 'ended' && <span>{t('premiere.endedHint')}</span>}
      </p>
      <ErrorNotice message={premiere.error} />
      <dl className="shows-premiere__facts">
        <div>
          <dt>{t('premiere.file')}</dt>
          <dd className="shows-premiere__file">{media.fileName}</dd>
        </div>
        <div>
          <dt>{t('premiere.duration')}</dt>
          <dd>{clock(media.durationSeconds)}</dd>
        </div>
        <div>
          <dt>{t('premiere.picture')}</dt>
          <dd>
            {media.width}×{media.height}
          </dd>
        </div>
        <div>
          <dt>{t('premiere.codecs')}</dt>
          <dd>
            {media.videoCodec} / {media.audioCodec ?? t('premiere.noSound')}
          </dd>
        </div>
        <div>
          <dt>{t('premiere.size')}</dt>
          <dd>{t('premiere.megabytes', { size: (media.sizeBytes / 1024 ** 2).toFixed(1) })}</dd>
        </div>
      </dl>
    </>
  );
}

function PremiereUpload({
  info,
  showUid,
  onUploaded,
}: {
  info: PremiereInfo;
  showUid: string;
  onUploaded: (info: PremiereInfo) => void;
}) {
  const { t } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const { progress, failure, setFailure, run } = useUpload();

  const upload = async (file: File) => {
    if (file.size > info.maxBytes) {
      setFailure(t('premiere.tooBig', { size: info.maxBytes / 1024 ** 2 }));
      return;
    }
    await run(t('premiere.uploadFailed'), async (onProgress) =>
      onUploaded(
        await uploadFile('uploadPremiere', { pageUid: store.pageUid, showUid }, file, onProgress, {
          fileName: file.name,
        }),
      ),
    );
  };

  return (
    <>
      <label className="studio-field">
        <span className="studio-field__label">
          {info.premiere ? t('premiere.replace') : t('premiere.choose')}
        </span>
        <input
          type="file"
          accept={info.mediaTypes.join(',')}
          disabled={progress !== null}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void upload(file);
          }}
        />
        <span className="studio-field__hint">
          {t('premiere.hint', { size: info.maxBytes / 1024 ** 2, hours: info.maxSeconds / 3600 })}
        </span>
      </label>
      {progress !== null && <ProgressBar value={progress} label={t('premiere.uploading')} />}
      {progress === 1 && <p className="studio-muted">{t('premiere.checking')}</p>}
      <ErrorNotice message={failure} />
    </>
  );
}

function PremiereSchedule({
  premiere,
  show,
  onScheduled,
}: {
  premiere: PremiereView;
  show: Show;
  onScheduled: (info: PremiereInfo) => Promise<void>;
}) {
  const { t } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const inputId = useId();
  const hintId = useId();
  const [startsAt, setStartsAt] = useState(() =>
    localSecondsValue(premiere.startsAt ?? Math.max(show.startsAt, Date.now() + 3_600_000), show.timeZone),
  );
  const { busy, failure, run } = useStaffAction(t('premiere.scheduleFailed'));

  const submit = () =>
    run(async () =>
      onScheduled(
        await staffCall('schedulePremiere', {
          params: { pageUid: store.pageUid, showUid: show.uid },
          body: { startsAt, timeZone: show.timeZone },
        }),
      ),
    );

  return (
    <form
      className="shows-premiere__schedule"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <div className="studio-field">
        <label className="studio-field__label" htmlFor={inputId}>
          {t('premiere.startsAt')}
        </label>
        <input
          id={inputId}
          type="datetime-local"
          step={1}
          required
          className="studio-input"
          value={startsAt}
          aria-describedby={hintId}
          onChange={(event) => setStartsAt(event.target.value)}
        />
        <span id={hintId} className="studio-field__hint">
          {t('fields.inZone', { zone: show.timeZone })}
        </span>
      </div>
      <ErrorNotice message={failure} />
      <button type="submit" className="studio-button studio-button--primary" disabled={busy} aria-busy={busy}>
        {premiere.state === 'scheduled' ? t('premiere.reschedule') : t('premiere.schedule')}
      </button>
    </form>
  );
}
