import { zodResolver } from '@hookform/resolvers/zod';
import { type CompetitionAdminView, CreateCompetitionRequest } from '@vitrine/protocol';
import { type ReactNode, useEffect, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import type { z } from 'zod';
import { staffCall } from '../studio-api.ts';
import { useStudioStore } from '../studio-context.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { BackLink } from '../ui/back-link.tsx';
import { ConfirmButton } from '../ui/confirm-button.tsx';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { FormField } from '../ui/form-field.tsx';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { StudioPage } from '../ui/studio-page.tsx';
import { refusalText, useStaffQuery } from '../use-staff-query.ts';

type FormInput = z.input<typeof CreateCompetitionRequest>;
type FormOutput = z.output<typeof CreateCompetitionRequest>;

/** `/studio/:pageUid/shows/:showUid/competitions`: a show's competitions alone (what a moderator opens). */
export function CompetitionsPage() {
  const { showUid = '' } = useParams();
  const { t } = useStudioTranslation('studio-shows');
  return (
    <StudioPage title={t('competitions.title')} actions={<BackLink to="../..">{t('editor.back')}</BackLink>}>
      <div className="studio-card shows-card">
        <CompetitionsPanel showUid={showUid} />
      </div>
    </StudioPage>
  );
}

/** The raffles, quizzes and polls prepared for a show, and a form to prepare another. */
export function CompetitionsPanel({ showUid }: { showUid: string }) {
  const { t } = useStudioTranslation('studio-shows');
  return (
    <CompetitionList
      showUid={showUid}
      namespace="studio-shows"
      block="shows-competitions"
      intro={<p className="studio-muted studio-small">{t('competitions.help')}</p>}
    >
      {(competition, reload) => (
        <CompetitionRow
          key={competition.uid}
          competition={competition}
          showUid={showUid}
          onChanged={reload}
        />
      )}
    </CompetitionList>
  );
}

/**
 * A show's competitions and the form to prepare another, as the show editor and the control room
 * both list them: each says it in its own words (`namespace`), with its own look (`block`, the
 * CSS block of the list and its `__list`) and its own item per competition (`children`).
 */
export function CompetitionList({
  showUid,
  namespace,
  block,
  intro,
  reloadKey,
  children: item,
}: {
  showUid: string;
  namespace: 'studio-shows' | 'studio-control-room';
  block: 'shows-competitions' | 'room-competitions';
  intro?: ReactNode;
  /** Stands for what the list shows (the room's live figures): when it changes, the list is read again. */
  reloadKey?: string;
  children: (competition: CompetitionAdminView, reload: () => void) => ReactNode;
}) {
  const { t } = useStudioTranslation(namespace);
  const store = useStudioStore();
  const list = useStaffQuery('listShowCompetitions', { params: { pageUid: store.pageUid, showUid } });
  const [adding, setAdding] = useState(false);
  const { reload } = list;
  // The live figures moved (an entry, a close, a draw): read the list again.
  useEffect(() => {
    if (reloadKey !== undefined) reload();
  }, [reloadKey, reload]);

  return (
    <div className={block}>
      {intro}
      {list.error && <ErrorNotice message={refusalText(list.error, t('competitions.failed'))} />}
      {!list.data ? (
        list.loading && <StudioLoading />
      ) : list.data.competitions.length === 0 ? (
        <p className="studio-notice">{t('competitions.empty')}</p>
      ) : (
        <ul className={`${block}__list`}>
          {list.data.competitions.map((competition) => item(competition, reload))}
        </ul>
      )}
      {adding ? (
        <CompetitionForm
          showUid={showUid}
          onDone={() => {
            setAdding(false);
            reload();
          }}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <button type="button" className="studio-button" onClick={() => setAdding(true)}>
          {t('competitions.add')}
        </button>
      )}
    </div>
  );
}

function CompetitionRow({
  competition,
  showUid,
  onChanged,
}: {
  competition: CompetitionAdminView;
  showUid: string;
  onChanged: () => void;
}) {
  const { t } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const params = { pageUid: store.pageUid, showUid, competitionUid: competition.uid };
  return (
    <li className="shows-competitions__item">
      <div>
        <span className="studio-badge">{t(`competitions.types.${competition.type}`)}</span>{' '}
        <strong>{competition.name}</strong>
        {competition.options.length > 0 && (
          <ul className="shows-competitions__options">
            {competition.options.map((option) => (
              <li key={option.id}>
                {option.text}
                {competition.correctOptionId === option.id && (
                  <span className="studio-muted"> ({t('competitions.correct')})</span>
                )}
              </li>
            ))}
          </ul>
        )}
        <p className="studio-muted studio-small">
          {t('competitions.entries', { count: competition.participantCount })} ·{' '}
          {competition.openForParticipation ? t('competitions.open') : t('competitions.closed')}
        </p>
      </div>
      {competition.participantCount === 0 && (
        <ConfirmButton
          title={t('competitions.deleteTitle')}
          message={t('competitions.deleteMessage', { name: competition.name })}
          confirmLabel={t('competitions.deleteConfirm')}
          onConfirm={async () => {
            await staffCall('deleteShowCompetition', { params });
            onChanged();
          }}
        >
          {t('competitions.delete')}
          <span className="visually-hidden"> {competition.name}</span>
        </ConfirmButton>
      )}
    </li>
  );
}

/** Prepares a competition, checked with the server's schema (a poll or quiz needs two options). */
export function CompetitionForm({
  showUid,
  onDone,
  onCancel,
}: {
  showUid: string;
  onDone: () => void;
  onCancel: () => void;
}) {
  const { t } = useStudioTranslation('studio-shows');
  const store = useStudioStore();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(CreateCompetitionRequest),
    defaultValues: {
      type: 'raffle',
      name: '',
      presentationPrimaryText: '',
      options: [],
      correctOptionId: null,
    },
    mode: 'onTouched',
  });
  const options = useFieldArray({ control: form.control, name: 'options' });
  const type = form.watch('type');
  const watchedOptions = form.watch('options') ?? [];
  const { errors, isSubmitting } = form.formState;
  const [nextOption, setNextOption] = useState(1);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await staffCall('createShowCompetition', {
        params: { pageUid: store.pageUid, showUid },
        body: {
          ...values,
          options: values.type === 'raffle' ? [] : values.options,
          correctOptionId: values.type === 'quiz' ? values.correctOptionId : null,
        },
      });
      onDone();
    } catch (error) {
      setFailure(refusalText(error, t('competitions.saveFailed')));
    }
  });

  return (
    <form className="shows-competitions__form" onSubmit={(event) => void submit(event)} noValidate>
      <h3>{t('competitions.newTitle')}</h3>
      <div className="studio-form-grid">
        <FormField label={t('competitions.type')} error={errors.type?.message}>
          {(props) => (
            <select
              {...props}
              className="studio-input"
              {...form.register('type', {
                onChange: (event: { target: { value: string } }) => {
                  if (event.target.value !== 'raffle' && options.fields.length < 2) {
                    const missing = 2 - options.fields.length;
                    for (let index = 0; index < missing; index++)
                      options.append(
                        { id: `option-${nextOption + index}`, text: '' },
                        { shouldFocus: false },
                      );
                    setNextOption((value) => value + missing);
                  }
                },
              })}
            >
              <option value="raffle">{t('competitions.types.raffle')}</option>
              <option value="quiz">{t('competitions.types.quiz')}</option>
              <option value="poll">{t('competitions.types.poll')}</option>
            </select>
          )}
        </FormField>
        <FormField label={t('competitions.name')} error={errors.name?.message}>
          {(props) => (
            <input {...props} className="studio-input" autoComplete="off" {...form.register('name')} />
          )}
        </FormField>
        <FormField
          label={t('competitions.text')}
          hint={t('competitions.textHint')}
          error={errors.presentationPrimaryText?.message}
          className="shows-field--wide"
        >
          {(props) => (
            <textarea
              {...props}
              className="studio-input"
              rows={2}
              {...form.register('presentationPrimaryText')}
            />
          )}
        </FormField>
      </div>
      {type !== 'raffle' && (
        <fieldset className="shows-competitions__choices">
          <legend>{t('competitions.options')}</legend>
          {options.fields.map((field, index) => (
            <div key={field.id} className="shows-competitions__choice">
              <FormField
                label={t('competitions.option', { number: index + 1 })}
                error={errors.options?.[index]?.text?.message}
              >
                {(props) => (
                  <input
                    {...props}
                    className="studio-input"
                    autoComplete="off"
                    {...form.register(`options.${index}.text`)}
                  />
                )}
              </FormField>
              {type === 'quiz' && (
                <label className="shows-competitions__correct">
                  <input
                    type="radio"
                    value={watchedOptions[index]?.id}
                    {...form.register('correctOptionId')}
                  />
                  {t('competitions.correct')}
                </label>
              )}
              <button
                type="button"
                className="studio-button studio-button--quiet"
                onClick={() => options.remove(index)}
              >
                {t('competitions.removeOption')}
                <span className="visually-hidden"> {index + 1}</span>
              </button>
            </div>
          ))}
          {errors.options?.message && (
            <p className="studio-field__error" role="alert">
              {errors.options.message}
            </p>
          )}
          <button
            type="button"
            className="studio-button"
            onClick={() => {
              options.append({ id: `option-${nextOption}`, text: '' });
              setNextOption((value) => value + 1);
            }}
          >
            {t('competitions.addOption')}
          </button>
        </fieldset>
      )}
      <ErrorNotice message={failure} />
      <div className="shows-form-actions">
        <button type="button" className="studio-button" onClick={onCancel}>
          {t('competitions.cancel')}
        </button>
        <button type="submit" className="studio-button studio-button--primary" disabled={isSubmitting}>
          {t('competitions.save')}
        </button>
      </div>
    </form>
  );
}
