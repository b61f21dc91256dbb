import { zodResolver } from '@hookform/resolvers/zod';
import type { LiveStreamState } from '@vitrine/domain';
import { type RestreamDestination, RestreamDestinationInput } from '@vitrine/protocol';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { staffCall } from '../studio-api.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { FormField } from '../ui/form-field.tsx';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { useStaffAction } from '../use-staff-action.ts';
import { refusalText, useReloadEvery, useStaffQuery } from '../use-staff-query.ts';
import './restream.css';
import { ErrorNotice } from '../ui/error-notice.tsx';

/** How often the destinations' health is asked for while the panel is open. */
const POLL_MS = 2000;

type FormInput = z.input<typeof RestreamDestinationInput>;
/** The show whose destinations the panel runs. */
interface ShowParams {
  pageUid: string;
  showUid: string;
}

/** "1.2 MB", "840 kB" in the language's own words. */
function formatBytes(bytes: number, language: string): string {
  const [value, unit] =
    bytes >= 1e9
      ? [bytes / 1e9, 'gigabyte']
      : bytes >= 1e6
        ? [bytes / 1e6, 'megabyte']
        : [bytes / 1e3, 'kilobyte'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, maximumFractionDigits: 1 }).format(value);
}

function Destination({
  show,
  destination,
  onChange,
  onRemoved,
}: {
  show: ShowParams;
  destination: RestreamDestination;
  onChange: (next: RestreamDestination) => void;
  onRemoved: () => void;
}) {
  const { t, i18n } = useStudioTranslation('studio-restream');
  const { state } = destination;
  const time = (at: number) =>
    new Intl.DateTimeFormat(i18n.language, { timeStyle: 'medium' }).format(new Date(at));
  const titleId = `restream-${destination.id}`;
  return (
    <li className="restream-destination" aria-labelledby={titleId} data-testid="restream-destination">
      <div className="restream-destination__head">
        <h3 id={titleId} className="restream-destination__label">
          {destination.label}
        </h3>
        <span className={`studio-badge restream-state restream-state--${state}`} data-state={state}>
          {t(`state.${state}`)}
        </span>
      </div>
      <p className="restream-destination__target studio-small">
        <span className="restream-destination__url">{destination.serverUrl}</span>
        <span className="studio-muted">
          {' · '}
          {t('list.key', { masked: destination.streamKeyMasked })}
        </span>
      </p>
      <dl className="restream-health studio-small">
        <div>
          <dt>{t('list.since')}</dt>
          <dd>{destination.since === null ? '—' : time(destination.since)}</dd>
        </div>
        <div>
          <dt>{t('list.sent')}</dt>
          <dd>{destination.bytesSent > 0 ? formatBytes(destination.bytesSent, i18n.language) : '—'}</dd>
        </div>
        <div>
          <dt>{t('list.bitrate')}</dt>
          <dd>
            {destination.bitrateKbps === null
              ? '—'
              : t('list.kbps', { value: Math.round(destination.bitrateKbps) })}
          </dd>
        </div>
      </dl>
      {state === 'failed' && destination.reason && (
        <p className="studio-notice studio-notice--error restream-destination__reason">
          <span className="restream-destination__why">
            {t('list.failed', { reason: destination.reason })}
          </span>{' '}
          {destination.started && t('list.retrying')}
        </p>
      )}
      {state === 'stopped' && destination.reason && (
        <p className="studio-small studio-muted">{destination.reason}</p>
      )}
      <DestinationActions show={show} destination={destination} onChange={onChange} onRemoved={onRemoved} />
    </li>
  );
}

function DestinationActions({
  show,
  destination,
  onChange,
  onRemoved,
}: {
  show: ShowParams;
  destination: RestreamDestination;
  onChange: (next: RestreamDestination) => void;
  onRemoved: () => void;
}) {
  const { t } = useStudioTranslation('studio-restream');
  const { busy, failure, run } = useStaffAction(t('list.actionFailed'));
  const params = { ...show, destinationId: destination.id };
  const toggle = () =>
    run(async () =>
      onChange(await staffCall(destination.started ? 'stopRestream' : 'startRestream', { params })),
    );
  return (
    <>
      <ErrorNotice message={failure} />
      <div className="restream-destination__actions">
        <button
          type="button"
          className={`studio-button${destination.started ? '' : ' studio-button--primary'}`}
          disabled={busy}
          onClick={() => void toggle()}
          aria-label={t(destination.started ? 'list.stopLabel' : 'list.startLabel', {
            label: destination.label,
          })}
        >
          {t(destination.started ? 'list.stop' : 'list.start')}
        </button>
        <ConfirmButton
          title={t('list.removeTitle')}
          message={t('list.removeMessage', { label: destination.label })}
          confirmLabel={t('list.removeConfirm')}
          onConfirm={async () => {
            await staffCall('removeRestream', { params });
            onRemoved();
          }}
        >
          {t('list.remove')}
        </ConfirmButton>
      </div>
    </>
  );
}

function AddDestinationForm({
  show,
  onAdded,
}: {
  show: ShowParams;
  onAdded: (added: RestreamDestination) => void;
}) {
  const { t } = useStudioTranslation('studio-restream');
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, RestreamDestinationInput>({
    resolver: zodResolver(RestreamDestinationInput),
    defaultValues: { label: '', serverUrl: '', streamKey: '' },
    mode: 'onTouched',
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (input) => {
    setFailure(null);
    try {
      onAdded(await staffCall('addRestream', { params: show, body: input }));
      form.reset();
    } catch (error) {
      setFailure(refusalText(error, t('add.failed')));
    }
  });
  return (
    <form className="restream-add" onSubmit={(event) => void submit(event)} noValidate>
      <h3 className="restream-add__title">{t('add.title')}</h3>
      <div className="restream-add__fields">
        <FormField label={t('add.label')} error={errors.label?.message}>
          {(props) => (
            <input
              {...props}
              className="studio-input"
              placeholder={t('add.labelPlaceholder')}
              {...form.register('label')}
            />
          )}
        </FormField>
        <FormField label={t('add.serverUrl')} hint={t('add.serverUrlHint')} error={errors.serverUrl?.message}>
          {(props) => (
            <input
              {...props}
              className="studio-input"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="rtmps://…"
              {...form.register('serverUrl')}
            />
          )}
        </FormField>
        <FormField label={t('add.streamKey')} hint={t('add.streamKeyHint')} error={errors.streamKey?.message}>
          {(props) => (
            <input
              {...props}
              className="studio-input"
              type="password"
              autoComplete="off"
              spellCheck={false}
              {...form.register('streamKey')}
            />
          )}
        </FormField>
      </div>
      <ErrorNotice message={failure} />
      <button type="submit" className="studio-button" disabled={form.formState.isSubmitting}>
        {t('add.submit')}
      </button>
    </form>
  );
}

/**
 * The go-live page's Restream section: the show sent on to other platforms (YouTube, Facebook,
 * TikTok, Twitch…) over RTMP or RTMPS, each destination started and stopped on its own, with
 * its health (connecting, live, failed and why; what it sent, since when). A saved stream key is
 * never shown again, only its last characters.
 */
export function RestreamPanel({
  pageUid,
  showUid,
  streamState,
}: {
  pageUid: string;
  showUid: string;
  streamState: LiveStreamState;
}) {
  const { t } = useStudioTranslation('studio-restream');
  const show = { pageUid, showUid };
  const query = useStaffQuery('listRestreams', { params: show });
  const [destinations, setDestinations] = useState<RestreamDestination[] | null>(null);
  useEffect(() => {
    if (query.data) setDestinations(query.data.destinations);
  }, [query.data]);
  useReloadEvery(query.reload, POLL_MS);

  if (!destinations || !query.data)
    return query.error ? (
      <ErrorNotice message={refusalText(query.error, t('list.loadFailed'))} />
    ) : (
      <StudioLoading />
    );
  const { max, available, missing } = query.data;
  const replace = (next: RestreamDestination) =>
    setDestinations((list) => (list ?? []).map((entry) => (entry.id === next.id ? next : entry)));
  const onAir = streamState === 'live' || streamState === 'reconnecting';
  return (
    <div className="restream">
      <p className="studio-muted studio-small">{t('intro')}</p>
      {!available && <ErrorNotice message={t('unavailable', { missing: missing ?? 'ffmpeg' })} />}
      {streamState !== 'ended' && !onAir && destinations.some((entry) => entry.started) && (
        <p className="studio-notice">{t('waitingForLive')}</p>
      )}
      {destinations.length === 0 ? (
        <p className="studio-notice">{t('list.empty')}</p>
      ) : (
        <ul className="restream-list">
          {destinations.map((destination) => (
            <Destination
              key={destination.id}
              show={show}
              destination={destination}
              onChange={replace}
              onRemoved={() =>
                setDestinations((list) => (list ?? []).filter((entry) => entry.id !== destination.id))
              }
            />
          ))}
        </ul>
      )}
      {streamState === 'ended' ? null : destinations.length >= max ? (
        <p className="studio-small studio-muted">{t('add.full', { max })}</p>
      ) : (
        <AddDestinationForm
          show={show}
          onAdded={(added) => setDestinations((list) => [...(list ?? []), added])}
        />
      )}
    </div>
  );
}
