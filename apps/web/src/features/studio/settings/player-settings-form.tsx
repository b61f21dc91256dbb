import { zodResolver } from '@hookform/resolvers/zod';
import { IMAGE_UPLOAD_MEDIA_TYPES } from '@vitrine/domain';
import { type PlayerSettings, PlayerSettingsInput } from '@vitrine/protocol';
import { useRef } from 'react';
import { useForm } from 'react-hook-form';
import { staffCall, uploadFile } from '../studio-api.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { ErrorNotice } from '../ui/error-notice.tsx';
import { FormField } from '../ui/form-field.tsx';
import { ProgressBar } from '../ui/progress-bar.tsx';
import { useUpload } from '../ui/use-upload.ts';
import { refusalText } from '../use-staff-query.ts';
import { PlayerPreview } from './player-preview.tsx';
import { SettingsCard } from './settings-card.tsx';
import type { SettingsFormProps } from './store-info-forms.tsx';
import { useSave } from './use-save.ts';

const SWITCHES = [
  'showPopularityBadges',
  'showPurchaseBadges',
  'hidePrices',
  'allowCommentsOnPrelive',
  'allowCommentsOnLive',
  'productOverlayInvisible',
  'showVitrineBranding',
  'minimizedPlayer',
] as const satisfies readonly (keyof PlayerSettings)[];

/**
 * Branding and every player setting of spec §3 (defaults shown as stored values), beside a
 * preview that follows each edit before it is saved. The logo uploads at once, with progress.
 */
export function PlayerSettingsForm({ pageUid, settings, onSaved, canSave }: SettingsFormProps) {
  const { t } = useStudioTranslation('studio-settings');
  const { state, busy, save } = useSave(onSaved);
  const form = useForm<PlayerSettings>({
    resolver: zodResolver(PlayerSettingsInput.required()),
    defaultValues: settings.player,
    mode: 'onChange',
  });
  const errors = form.formState.errors;
  const watched = form.watch();
  // The preview shows the last valid colour while a typed one is incomplete.
  const colourOr = (value: string, fallback: string) => (/^#[0-9a-f]{6}$/i.test(value) ? value : fallback);
  const preview: PlayerSettings = {
    ...settings.player,
    ...watched,
    primaryColor: colourOr(watched.primaryColor, settings.player.primaryColor),
    secondaryColor: colourOr(watched.secondaryColor, settings.player.secondaryColor),
  };
  const submit = form.handleSubmit((body) =>
    save(() => staffCall('putStorePlayerSettings', { params: { pageUid }, body })),
  );

  const colour = (name: 'primaryColor' | 'secondaryColor') => (
    <FormField label={t(`player.${name}`)} error={errors[name]?.message} className="settings-colour">
      {(props) => (
        <span className="settings-colour__pair">
          <input
            type="color"
            aria-label={t('player.pick', { name: t(`player.${name}`) })}
            value={colourOr(watched[name], settings.player[name])}
            onChange={(event) =>
              form.setValue(name, event.target.value.toUpperCase(), { shouldValidate: true })
            }
          />
          <input {...props} className="studio-input settings-mono" maxLength={7} {...form.register(name)} />
        </span>
      )}
    </FormField>
  );
  const choice = (
    name:
      | 'productOverlayPosition'
      | 'minimizedHorizontalPosition'
      | 'minimizedVerticalPosition'
      | 'navigation',
    options: readonly string[],
  ) => (
    <FormField label={t(`player.${name}`)} error={errors[name]?.message}>
      {(props) => (
        <select {...props} className="studio-input" {...form.register(name)}>
          {options.map((option) => (
            <option key={option} value={option}>
              {t(`player.options.${option}`)}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
  const margin = (name: 'minimizedHorizontalMargin' | 'minimizedVerticalMargin') => (
    <FormField label={t(`player.${name}`)} error={errors[name]?.message}>
      {(props) => (
        <input
          {...props}
          type="number"
          min={0}
          max={500}
          className="studio-input"
          {...form.register(name, { valueAsNumber: true })}
        />
      )}
    </FormField>
  );

  return (
    <div className="settings-branding">
      <div className="settings-branding__forms">
        <LogoCard pageUid={pageUid} logo={settings.logo} onSaved={onSaved} />
        <SettingsCard
          id="player"
          title={t('player.title')}
          description={t('player.description')}
          onSubmit={submit}
          busy={busy}
          state={state}
          canSave={canSave}
        >
          <div className="studio-form-grid">
            {colour('primaryColor')}
            {colour('secondaryColor')}
          </div>
          <fieldset className="settings-choices">
            <legend>{t('player.shown')}</legend>
            {SWITCHES.map((name) => (
              <label key={name} className="settings-check">
                <input type="checkbox" {...form.register(name)} />
                {t(`player.${name}`)}
              </label>
            ))}
          </fieldset>
          <div className="studio-form-grid">
            {choice('productOverlayPosition', ['left', 'right'])}
            {choice('navigation', ['NEW_TAB', 'SAME_TAB'])}
            {choice('minimizedHorizontalPosition', ['left', 'right'])}
            {choice('minimizedVerticalPosition', ['top', 'bottom'])}
            {margin('minimizedHorizontalMargin')}
            {margin('minimizedVerticalMargin')}
          </div>
        </SettingsCard>
      </div>
      <div className="settings-branding__preview">
        <PlayerPreview settings={preview} logo={settings.logo} storeName={settings.info.name} />
      </div>
    </div>
  );
}

function LogoCard({
  pageUid,
  logo,
  onSaved,
}: Pick<SettingsFormProps, 'pageUid' | 'onSaved'> & { logo: string | null }) {
  const { t } = useStudioTranslation('studio-settings');
  const input = useRef<HTMLInputElement>(null);
  const { progress, failure, setFailure, run } = useUpload();
  const upload = async (file: File) => {
    await run(t('logo.failed'), async (onProgress) =>
      onSaved(await uploadFile('putStoreLogo', { pageUid }, file, onProgress)),
    );
    // The same file may be chosen again (after a failure, or to undo a removal).
    if (input.current) input.current.value = '';
  };
  const remove = async () => {
    setFailure(null);
    try {
      onSaved(await staffCall('deleteStoreLogo', { params: { pageUid } }));
    } catch (error) {
      setFailure(refusalText(error, t('logo.failed')));
    }
  };
  return (
    <section className="studio-card settings-card" aria-labelledby="logo-title" id="branding">
      <h2 id="logo-title" className="settings-card__title">
        {t('logo.title')}
      </h2>
      <div className="settings-logo">
        {logo ? (
          <img className="settings-logo__image" src={logo} alt={t('logo.current')} />
        ) : (
          <p className="studio-muted">{t('logo.none')}</p>
        )}
        <div className="settings-logo__actions">
          <FormField label={t('logo.upload')} hint={t('logo.hint')}>
            {(props) => (
              <input
                {...props}
                ref={input}
                type="file"
                accept={IMAGE_UPLOAD_MEDIA_TYPES.join(',')}
                disabled={progress !== null}
                onChange={(event) => {
                  const file = event.target.files?.[0];
                  if (file) void upload(file);
                }}
              />
            )}
          </FormField>
          {logo && (
            <button
              type="button"
              className="studio-button studio-button--quiet"
              onClick={() => void remove()}
            >
              {t('logo.remove')}
            </button>
          )}
        </div>
      </div>
      {progress !== null && <ProgressBar value={progress} label={t('logo.uploading')} />}
      <ErrorNotice message={failure} />
    </section>
  );
}
