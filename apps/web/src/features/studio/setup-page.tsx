import { zodResolver } from '@hookform/resolvers/zod';
import { CompleteSetupRequest } from '@vitrine/protocol';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import type { z } from 'zod';
import { adoptSession } from '../../lib/session.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { publicStudioCall } from './studio-api.ts';
import { useStudioTranslation } from './studio-i18n.ts';
import { ErrorNotice } from './ui/error-notice.tsx';
import { FormField } from './ui/form-field.tsx';
import { StudioLoading } from './ui/studio-loading.tsx';
import { refusalText } from './use-staff-query.ts';

const SetupInput = CompleteSetupRequest.omit({ storeId: true, language: true });
type SetupInput = z.input<typeof SetupInput>;

/**
 * /setup (where `/` leads while the server has no store): makes the first store and its owner
 * with the one-time setup code of the server's log (in the link's fragment, or typed in), then
 * lands in the studio signed in. Once a store exists it only points to the studio and the shop.
 */
export function SetupPage() {
  const { t } = useStudioTranslation();
  const { locale } = useLocale();
  const [needed, setNeeded] = useState<boolean | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The link's fragment: also when the page was open already (a hash change remounts nothing).
  const linkToken = useLocation().hash.slice(1);
  const form = useForm<SetupInput>({
    resolver: zodResolver(SetupInput),
    mode: 'onTouched',
    defaultValues: { token: linkToken },
  });
  const { errors, isSubmitting } = form.formState;
  useEffect(() => {
    if (linkToken) form.setValue('token', linkToken);
  }, [form, linkToken]);

  useEffect(() => {
    publicStudioCall('setupStatus').then(
      (status) => setNeeded(status.needed),
      (error: unknown) => {
        setNeeded(true);
        setFailure(refusalText(error, t('setup.failed')));
      },
    );
  }, [t]);

  const submit = form.handleSubmit(async (input) => {
    setFailure(null);
    try {
      const { pageUid, session } = await publicStudioCall('completeSetup', {
        body: { ...input, language: locale },
      });
      adoptSession(session);
      // A full load: the site's default store is the new one from now on.
      window.location.assign(`/studio/${encodeURIComponent(pageUid)}`);
    } catch (error) {
      setFailure(refusalText(error, t('setup.failed')));
    }
  });

  if (needed === null) return <StudioLoading />;
  if (!needed)
    return (
      <main className="studio-centre">
        <div className="studio-card studio-card--narrow">
          <h1>{t('setup.done')}</h1>
          <Link to="/studio" className="studio-button studio-button--primary">
            {t('setup.openStudio')}
          </Link>
          <button type="button" className="studio-button" onClick={() => window.location.assign('/')}>
            {t('setup.openShop')}
          </button>
        </div>
      </main>
    );
  return (
    <main className="studio-centre">
      <form className="studio-card studio-card--narrow" onSubmit={submit} noValidate>
        <h1>{t('setup.title')}</h1>
        <p className="studio-muted">{t('setup.intro')}</p>
        {/* The link carries the code; typed in only when the page was opened without it. */}
        {linkToken ? (
          <input type="hidden" {...form.register('token')} />
        ) : (
          <FormField label={t('setup.token')} hint={t('setup.tokenHint')} error={errors.token?.message}>
            {(props) => (
              <input {...props} autoComplete="off" spellCheck={false} {...form.register('token')} />
            )}
          </FormField>
        )}
        <FormField label={t('setup.storeName')} error={errors.storeName?.message}>
          {(props) => <input {...props} autoComplete="organization" {...form.register('storeName')} />}
        </FormField>
        <FormField label={t('setup.ownerName')} error={errors.ownerName?.message}>
          {(props) => <input {...props} autoComplete="name" {...form.register('ownerName')} />}
        </FormField>
        <FormField label={t('setup.email')} error={errors.email?.message}>
          {(props) => <input {...props} type="email" autoComplete="username" {...form.register('email')} />}
        </FormField>
        <FormField
          label={t('setup.password')}
          hint={t('setup.passwordHint')}
          error={errors.password?.message}
        >
          {(props) => (
            <input {...props} type="password" autoComplete="new-password" {...form.register('password')} />
          )}
        </FormField>
        <ErrorNotice message={failure} />
        <button type="submit" className="studio-button studio-button--primary" disabled={isSubmitting}>
          {t('setup.submit')}
        </button>
      </form>
    </main>
  );
}
