import { zodResolver } from '@hookform/resolvers/zod';
import {
  EmbeddingSettings,
  SalesSettings,
  StoreInfoSettings,
  type StoreSettings,
  StoreTermsSettings,
  type StudioStoreSettings,
} from '@vitrine/protocol';
import { CURRENCIES, LOCALES } from '@vitrine/protocol/vocabulary';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { staffCall } from '../studio-api.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { FormField } from '../ui/form-field.tsx';
import { SettingsCard } from './settings-card.tsx';
import { useSave } from './use-save.ts';

/** What every settings form gets: the store, its settings as stored, and where the answer goes. */
export interface SettingsFormProps {
  pageUid: string;
  /** As the member's role reads them: a host's lack the owner's parts. */
  settings: StudioStoreSettings;
  onSaved: (settings: StudioStoreSettings) => void;
  /** Whether the member may change this section. */
  canSave: boolean;
}

/** The owner's forms (embedding, sales, shipping, pickup): shown only with the owner's parts. */
export type OwnerSettingsFormProps = Omit<SettingsFormProps, 'settings'> & { settings: StoreSettings };

type InfoInput = z.input<typeof StoreInfoSettings>;

export function StoreInfoForm({ pageUid, settings, onSaved, canSave }: SettingsFormProps) {
  const { t } = useStudioTranslation('studio-settings');
  const { state, busy, save } = useSave(onSaved);
  const form = useForm<InfoInput, unknown, z.output<typeof StoreInfoSettings>>({
    resolver: zodResolver(StoreInfoSettings),
    defaultValues: settings.info,
    mode: 'onTouched',
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit((info) =>
    save(() => staffCall('putStoreInfo', { params: { pageUid }, body: info })),
  );
  const text = (name: 'name' | 'cvr', label: string) => (
    <FormField label={label} error={errors[name]?.message}>
      {(props) => <input {...props} className="studio-input" {...form.register(name)} />}
    </FormField>
  );
  const address = (name: keyof InfoInput['address'], label: string, type = 'text', autoComplete = 'off') => (
    <FormField label={label} error={errors.address?.[name]?.message}>
      {(props) => (
        <input
          {...props}
          type={type}
          autoComplete={autoComplete}
          className="studio-input"
          {...form.register(`address.${name}`)}
        />
      )}
    </FormField>
  );
  return (
    <SettingsCard
      id="info"
      title={t('info.title')}
      description={t('info.description')}
      onSubmit={submit}
      busy={busy}
      state={state}
      canSave={canSave}
    >
      <div className="studio-form-grid">
        {text('name', t('info.name'))}
        {text('cvr', t('info.cvr'))}
        {address('name', t('info.company'))}
        {address('street', t('info.street'))}
        {address('postCode', t('info.postCode'))}
        {address('city', t('info.city'))}
        {address('email', t('info.email'), 'email', 'email')}
        {address('phone', t('info.phone'), 'tel', 'tel')}
      </div>
      <FormField label={t('info.storeDescription')} error={errors.description?.message}>
        {(props) => (
          <textarea {...props} rows={3} className="studio-input" {...form.register('description')} />
        )}
      </FormField>
      <input type="hidden" {...form.register('timeZone')} />
    </SettingsCard>
  );
}

/** Every IANA zone the browser knows, for the time zone picker. */
function timeZones(current: string): string[] {
  const known =
    (Intl as { supportedValuesOf?: (key: 'timeZone') => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return known.includes(current) ? known : [current, ...known];
}

export function TimeZoneForm({ pageUid, settings, onSaved, canSave }: SettingsFormProps) {
  const { t } = useStudioTranslation('studio-settings');
  const { state, busy, save } = useSave(onSaved);
  const form = useForm<InfoInput, unknown, z.output<typeof StoreInfoSettings>>({
    resolver: zodResolver(StoreInfoSettings),
    values: settings.info,
  });
  const submit = form.handleSubmit((info) =>
    save(() => staffCall('putStoreInfo', { params: { pageUid }, body: info })),
  );
  const zone = form.watch('timeZone');
  let now = '';
  try {
    now = new Intl.DateTimeFormat(undefined, {
      timeZone: zone,
      timeStyle: 'short',
      dateStyle: 'medium',
    }).format(Date.now());
  } catch {
    // An unknown zone is named by the field's message.
  }
  return (
    <SettingsCard
      id="time-zone"
      title={t('timeZone.title')}
      description={t('timeZone.description')}
      onSubmit={submit}
      busy={busy}
      state={state}
      canSave={canSave}
    >
      <FormField
        label={t('timeZone.label')}
        hint={now ? t('timeZone.now', { time: now }) : undefined}
        error={form.formState.errors.timeZone?.message}
      >
        {(props) => (
          <select {...props} className="studio-input" {...form.register('timeZone')}>
            {timeZones(settings.info.timeZone).map((name) => (
              <option key={name} value={name}>
                {name.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        )}
      </FormField>
    </SettingsCard>
  );
}

export function TermsForm({ pageUid, settings, onSaved, canSave }: SettingsFormProps) {
  const { t } = useStudioTranslation('studio-settings');
  const { state, busy, save } = useSave(onSaved);
  const form = useForm<z.input<typeof StoreTermsSettings>>({
    resolver: zodResolver(StoreTermsSettings),
    defaultValues: { terms: settings.terms },
  });
  const submit = form.handleSubmit((body) =>
    save(() => staffCall('putStoreTerms', { params: { pageUid }, body })),
  );
  return (
    <SettingsCard
      id="terms"
      title={t('terms.title')}
      description={t('terms.description')}
      onSubmit={submit}
      busy={busy}
      state={state}
      canSave={canSave}
    >
      <FormField label={t('terms.label')} hint={t('terms.hint')} error={form.formState.errors.terms?.message}>
        {(props) => <textarea {...props} rows={10} className="studio-input" {...form.register('terms')} />}
      </FormField>
      <p className="studio-small">
        <a href={termsLink(pageUid)} target="_blank" rel="noopener">
          {t('terms.view')}
        </a>
      </p>
    </SettingsCard>
  );
}

/** The storefront's terms page of a store (the same link the storefront and checkout use). */
const termsLink = (pageUid: string) => `/terms?${new URLSearchParams({ store: pageUid })}`;

export function EmbeddingForm({ pageUid, settings, onSaved, canSave }: OwnerSettingsFormProps) {
  const { t } = useStudioTranslation('studio-settings');
  const { state, busy, save } = useSave(onSaved);
  const [text, setText] = useState(settings.embedding.allowedOrigins.join('\n'));
  const [problem, setProblem] = useState<string | undefined>();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const lines = text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const parsed = EmbeddingSettings.safeParse({ allowedOrigins: lines });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const line = typeof issue?.path[1] === 'number' ? issue.path[1] : null;
      setProblem(
        line === null
          ? (issue?.message ?? '')
          : t('embedding.lineProblem', { line: line + 1, origin: lines[line], message: issue?.message }),
      );
      return;
    }
    setProblem(undefined);
    void save(async () => {
      const saved = await staffCall('putStoreEmbedding', { params: { pageUid }, body: parsed.data });
      setText((saved.embedding?.allowedOrigins ?? []).join('\n'));
      return saved;
    });
  };
  return (
    <SettingsCard
      id="embedding"
      title={t('embedding.title')}
      description={t('embedding.description')}
      onSubmit={submit}
      busy={busy}
      state={state}
      canSave={canSave}
    >
      <FormField label={t('embedding.label')} hint={t('embedding.hint')} error={problem}>
        {(props) => (
          <textarea
            {...props}
            rows={4}
            className="studio-input settings-mono"
            value={text}
            spellCheck={false}
            placeholder="https://shop.example"
            onChange={(event) => setText(event.target.value)}
          />
        )}
      </FormField>
    </SettingsCard>
  );
}

type SalesInput = z.input<typeof SalesSettings>;

export function SalesForm({ pageUid, settings, onSaved, canSave }: OwnerSettingsFormProps) {
  const { t } = useStudioTranslation('studio-settings');
  const { state, busy, save } = useSave(onSaved);
  const form = useForm<SalesInput, unknown, z.output<typeof SalesSettings>>({
    resolver: zodResolver(SalesSettings),
    defaultValues: settings.sales,
  });
  const errors = form.formState.errors;
  const languages = form.watch('languages');
  const currencies = form.watch('currencies');
  const submit = form.handleSubmit((body) =>
    save(() => staffCall('putStoreSales', { params: { pageUid }, body })),
  );
  const languageName = new Intl.DisplayNames(undefined, { type: 'language' });
  const currencyName = new Intl.DisplayNames(undefined, { type: 'currency' });
  /** A checkbox per code (the languages or currencies the store sells in), named and with its code. */
  const codeChoices = (
    field: 'languages' | 'currencies',
    legend: string,
    codes: readonly string[],
    name: (code: string) => string | undefined,
  ) => (
    <fieldset className="settings-choices">
      <legend>{legend}</legend>
      {codes.map((code) => (
        <label key={code} className="settings-check">
          <input type="checkbox" value={code} {...form.register(field)} />
          {name(code)} <span className="studio-muted">({code})</span>
        </label>
      ))}
      {errors[field] && <p className="studio-field__error">{errors[field].message}</p>}
    </fieldset>
  );
  return (
    <SettingsCard
      id="sales"
      title={t('sales.title')}
      description={t('sales.description')}
      onSubmit={submit}
      busy={busy}
      state={state}
      canSave={canSave}
    >
      <div className="settings-columns">
        {codeChoices('languages', t('sales.languages'), LOCALES, (code) =>
          languageName.of(code === 'no' ? 'nb' : code),
        )}
        {codeChoices('currencies', t('sales.currencies'), CURRENCIES, (code) => currencyName.of(code))}
      </div>
      <div className="studio-form-grid">
        <FormField label={t('sales.mainLanguage')} error={errors.language?.message}>
          {(props) => (
            <select {...props} className="studio-input" {...form.register('language')}>
              {(Array.isArray(languages) ? languages : []).map((code) => (
                <option key={code} value={code}>
                  {languageName.of(code === 'no' ? 'nb' : code)}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label={t('sales.mainCurrency')} error={errors.currency?.message}>
          {(props) => (
            <select {...props} className="studio-input" {...form.register('currency')}>
              {(Array.isArray(currencies) ? currencies : []).map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </div>
    </SettingsCard>
  );
}
