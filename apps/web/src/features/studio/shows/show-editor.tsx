import { zodResolver } from '@hookform/resolvers/zod';
import { DEFAULT_STORE_TIME_ZONE, type Show, ShowInput } from '@vitrine/protocol';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { staffCall, uploadFile } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { FormField } from '../ui/form-field.tsx';
import { ProgressBar } from '../ui/progress-bar.tsx';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { useUpload } from '../ui/use-upload.ts';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';
import { ClipsPanel } from './clips-panel.tsx';
import { CompetitionsPanel } from './competitions-panel.tsx';
import { LineupEditor } from './lineup-editor.tsx';
import { PremierePanel } from './premiere-panel.tsx';
import { SharePanel } from './share-panel.tsx';
import { formatShowTime, knownTimeZones, localInputValue } from './show-time.ts';

type FormInput = z.input<typeof ShowInput>;
type FormOutput = z.output<typeof ShowInput>;

const DAY_MS = 86_400_000;

/** Tomorrow at 19:00 in the zone: a sensible first guess for a new show's start. */
function tomorrowEvening(timeZone: string): string {
  return `${localInputValue(Date.now() + DAY_MS, timeZone).slice(0, 10)}T19:00`;
}

/** `/studio/:pageUid/shows/new` and `/studio/:pageUid/shows/:showUid`: a new show's form, or a show's editor. */
export function ShowEditorPage() {
  const { showUid } = useParams();
  return showUid ? <ExistingShow showUid={showUid} /> : <NewShow />;
}

function ExistingShow({ showUid }: { showUid: string }) {
  const store = useStudioStore();
  const { t } = useStudioTranslation('studio-shows');
  const loaded = useStaffQuery('getShow', { params: { pageUid: store.pageUid, showUid } });
  const [show, setShow] = useState<Show | null>(null);
  useEffect(() => setShow(loaded.data), [loaded.data]);

  if (loaded.error && !show)
    return (
      <StudioPage title={t('editor.title')}>
        <ErrorNotice message={refusalText(loaded.error, t('editor.loadFailed'))} />
        <Link to=".." className="studio-button">
          {t('editor.back')}
        </Link>
      </StudioPage>
    );
  if (!show) return <StudioLoading />;
  return <ShowEditor show={show} onChange={setShow} />;
}

function NewShow() {
  const store = useStudioStore();
  // The list's answer carries the store's time zone, where a new show is scheduled by default.
  const list = useStaffQuery('listShows', { params: { pageUid: store.pageUid }, query: { limit: 1 } });
  if (!list.data && !list.error) return <StudioLoading />;
  return <NewShowForm timeZone={list.data?.timeZone ?? DEFAULT_STORE_TIME_ZONE} />;
}

function NewShowForm({ timeZone }: { timeZone: string }) {
  const { t } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const navigate = useNavigate();
  return (
    <StudioPage title={t('editor.newTitle')}>
      <div className="studio-card shows-card">
        <ShowDetailsForm
          defaults={{
            name: '',
            startsAt: tomorrowEvening(timeZone),
            timeZone,
            deadline: null,
          }}
          submitLabel={t('editor.create')}
          onSubmit={async (values) => {
            const created = await staffCall('createShow', {
              params: { pageUid: store.pageUid },
              body: { ...values, visibility: 'draft' },
            });
            await navigate(`../${encodeURIComponent(created.uid)}`, { replace: true });
          }}
        />
      </div>
    </StudioPage>
  );
}

function ShowEditor({ show, onChange }: { show: Show; onChange: (show: Show) => void }) {
  const { t, i18n } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const navigate = useNavigate();
  const params = { pageUid: store.pageUid, showUid: show.uid };
  const setVisibility = async (visibility: 'draft' | 'public') =>
    onChange(await staffCall('updateShow', { params, body: { visibility } }));

  return (
    <StudioPage
      title={
        <>
          {show.name}{' '}
          <span className={`studio-badge shows-badge--${show.group}`}>{t(`status.${show.group}`)}</span>
        </>
      }
      actions={
        <>
          <Link to=".." className="studio-button studio-button--quiet">
            {t('editor.back')}
          </Link>
          <Link to="preview" className="studio-button">
            {t('editor.preview')}
          </Link>
          {(show.group === 'upcoming' || show.group === 'live') && (
            <Link to={`../../live/${show.uid}`} relative="path" className="studio-button">
              {t('studio:nav.live')}
            </Link>
          )}
          {show.visibility === 'draft' ? (
            <ConfirmButton
              danger={false}
              className="studio-button--primary"
              title={t('publish.title')}
              message={t('publish.message', {
                name: show.name,
                time: formatShowTime(show.startsAt, show.timeZone, i18n.language),
              })}
              confirmLabel={t('publish.confirm')}
              onConfirm={() => setVisibility('public')}
            >
              {t('publish.button')}
            </ConfirmButton>
          ) : (
            show.unpublishable && (
              <ConfirmButton
                title={t('unpublish.title')}
                message={t('unpublish.message', { name: show.name })}
                confirmLabel={t('unpublish.confirm')}
                onConfirm={() => setVisibility('draft')}
              >
                {t('unpublish.button')}
              </ConfirmButton>
            )
          )}
          {show.deletable && (
            <ConfirmButton
              title={t('delete.title')}
              message={t('delete.message', { name: show.name })}
              confirmLabel={t('delete.confirm')}
              onConfirm={async () => {
                await staffCall('deleteShow', { params });
                await navigate('..', { replace: true });
              }}
            >
              {t('delete.button')}
            </ConfirmButton>
          )}
        </>
      }
    >
      {show.visibility === 'draft' && <p className="studio-notice">{t('editor.draftNotice')}</p>}
      <div className="shows-editor">
        <div className="shows-editor__main">
          <section className="studio-card shows-card" aria-labelledby="show-details">
            <h2 id="show-details">{t('editor.details')}</h2>
            <ShowDetailsForm
              key={`${show.uid}:${show.startsAt}:${show.deadline}:${show.name}:${show.timeZone}`}
              defaults={{
                name: show.name,
                startsAt: localInputValue(show.startsAt, show.timeZone),
                timeZone: show.timeZone,
                deadline: show.deadline === null ? null : localInputValue(show.deadline, show.timeZone),
              }}
              submitLabel={t('editor.save')}
              onSubmit={async ({ name, startsAt, timeZone, deadline }) =>
                onChange(
                  await staffCall('updateShow', { params, body: { name, startsAt, timeZone, deadline } }),
                )
              }
            />
          </section>
          <section className="studio-card shows-card" aria-labelledby="show-lineup">
            <h2 id="show-lineup">{t('lineup.title')}</h2>
            <LineupEditor show={show} onChange={onChange} />
          </section>
          <section className="studio-card shows-card" aria-labelledby="show-competitions">
            <h2 id="show-competitions">{t('competitions.title')}</h2>
            <CompetitionsPanel showUid={show.uid} />
          </section>
          <section className="studio-card shows-card" aria-labelledby="show-clips">
            <h2 id="show-clips">{t('clips.title')}</h2>
            <ClipsPanel show={show} />
          </section>
        </div>
        <div className="shows-editor__side">
          <section className="studio-card shows-card" aria-labelledby="show-cover">
            <h2 id="show-cover">{t('cover.title')}</h2>
            <CoverUpload show={show} onChange={onChange} />
          </section>
          <section className="studio-card shows-card" aria-labelledby="show-premiere">
            <h2 id="show-premiere">{t('premiere.title')}</h2>
            <PremierePanel show={show} onShowChange={onChange} />
          </section>
          <section className="studio-card shows-card" aria-labelledby="show-share">
            <h2 id="show-share">{t('share.title')}</h2>
            <SharePanel show={show} />
          </section>
        </div>
      </div>
    </StudioPage>
  );
}

type Details = Omit<FormOutput, 'visibility'>;

/** Name, start, time zone and deadline, checked with the server's own schema before sending. */
function ShowDetailsForm({
  defaults,
  submitLabel,
  onSubmit,
}: {
  defaults: Omit<FormInput, 'visibility'>;
  submitLabel: string;
  onSubmit: (values: Details) => Promise<void>;
}) {
  const { t } = useStudioTranslation('studio-shows');
  const zonesId = useId();
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(ShowInput),
    defaultValues: { ...defaults, visibility: 'draft' },
    mode: 'onTouched',
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const { errors, isSubmitting } = form.formState;
  const timeZone = form.watch('timeZone');

  const submit = form.handleSubmit(async ({ visibility: _visibility, ...values }) => {
    setFailure(null);
    setSaved(false);
    try {
      await onSubmit(values);
      setSaved(true);
    } catch (error) {
      setFailure(refusalText(error, t('editor.saveFailed')));
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <div className="studio-form-grid">
        <FormField label={t('fields.name')} error={errors.name?.message} className="shows-field--wide">
          {(props) => (
            <input {...props} className="studio-input" autoComplete="off" {...form.register('name')} />
          )}
        </FormField>
        <FormField
          label={t('fields.startsAt')}
          hint={t('fields.inZone', { zone: timeZone })}
          error={errors.startsAt?.message}
        >
          {(props) => (
            <input {...props} type="datetime-local" className="studio-input" {...form.register('startsAt')} />
          )}
        </FormField>
        <FormField
          label={t('fields.timeZone')}
          hint={t('fields.timeZoneHint')}
          error={errors.timeZone?.message}
        >
          {(props) => (
            <>
              <input
                {...props}
                className="studio-input"
                list={zonesId}
                autoComplete="off"
                {...form.register('timeZone')}
              />
              <datalist id={zonesId}>
                {knownTimeZones().map((zone) => (
                  <option key={zone} value={zone} />
                ))}
              </datalist>
            </>
          )}
        </FormField>
        <FormField
          label={t('fields.deadline')}
          hint={t('fields.deadlineHint')}
          error={errors.deadline?.message}
        >
          {(props) => (
            <input
              {...props}
              type="datetime-local"
              className="studio-input"
              {...form.register('deadline', { setValueAs: (value: string | null) => (value ? value : null) })}
            />
          )}
        </FormField>
      </div>
      <ErrorNotice message={failure} />
      {saved && !form.formState.isDirty && (
        <p role="status" className="studio-notice studio-notice--success">
          {t('editor.saved')}
        </p>
      )}
      <div className="shows-form-actions">
        <button
          type="submit"
          className="studio-button studio-button--primary"
          disabled={isSubmitting}
          aria-busy={isSubmitting}
        >
          {submitLabel}
        </button>
      </div>
    </form>
  );
}

/** The cover image: the current one and an upload with progress (the server resizes it). */
function CoverUpload({ show, onChange }: { show: Show; onChange: (show: Show) => void }) {
  const { t } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const { progress, failure, run } = useUpload();

  const upload = (file: File) =>
    run(t('cover.failed'), async (onProgress) =>
      onChange(
        await uploadFile('uploadShowCover', { pageUid: store.pageUid, showUid: show.uid }, file, onProgress),
      ),
    );

  return (
    <div className="shows-cover">
      {show.coverUrl ? (
        <img className="shows-cover__image" src={show.coverUrl} alt={t('cover.alt', { name: show.name })} />
      ) : (
        <p className="studio-muted">{t('cover.none')}</p>
      )}
      <label className="studio-field">
        <span className="studio-field__label">{show.coverUrl ? t('cover.replace') : t('cover.choose')}</span>
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
          disabled={progress !== null}
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void upload(file);
          }}
        />
        <span className="studio-field__hint">{t('cover.hint')}</span>
      </label>
      {progress !== null && <ProgressBar value={progress} label={t('cover.uploading')} />}
      <ErrorNotice message={failure} />
    </div>
  );
}
