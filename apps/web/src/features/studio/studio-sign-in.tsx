import { zodResolver } from '@hookform/resolvers/zod';
import { SignInWithPasswordRequest } from '@vitrine/protocol';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { call } from '../../lib/api.ts';
import { adoptSession } from '../../lib/session.ts';
import { useStudioTranslation } from './studio-i18n.ts';
import { FormField } from './ui/form-field.tsx';
import { refusalText } from './use-staff-query.ts';

type SignInInput = { email: string; password: string };

/** The studio's sign-in: e-mail and password of a staff account (checked with the server's schema). */
export function StudioSignIn() {
  const { t } = useStudioTranslation();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<SignInInput>({ resolver: zodResolver(SignInWithPasswordRequest), mode: 'onTouched' });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (input) => {
    setFailure(null);
    try {
      adoptSession(await call('signInWithPassword', input));
    } catch (error) {
      setFailure(refusalText(error, t('signIn.failed')));
    }
  });

  return (
    <main className="studio-centre">
      <form className="studio-card studio-card--narrow" onSubmit={submit} noValidate>
        <h1>{t('signIn.title')}</h1>
        <p className="studio-muted">{t('signIn.intro')}</p>
        <FormField label={t('signIn.email')} error={errors.email?.message}>
          {(props) => <input {...props} type="email" autoComplete="username" {...form.register('email')} />}
        </FormField>
        <FormField label={t('signIn.password')} error={errors.password?.message}>
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="current-password"
              {...form.register('password')}
            />
          )}
        </FormField>
        {failure && (
          <p role="alert" className="studio-notice studio-notice--error">
            {failure}
          </p>
        )}
        <button type="submit" className="studio-button studio-button--primary" disabled={isSubmitting}>
          {t('signIn.submit')}
        </button>
        <p className="studio-muted studio-small">{t('signIn.linkHelp')}</p>
      </form>
    </main>
  );
}
