import { zodResolver } from '@hookform/resolvers/zod';
import { Email, SignInWithPasswordRequest } from '@vitrine/protocol';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { call } from '../../lib/api.ts';
import { adoptSession } from '../../lib/session.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { publicStudioCall } from './studio-api.ts';
import { useStudioTranslation } from './studio-i18n.ts';
import { ErrorNotice } from './ui/error-notice.tsx';
import { FormField } from './ui/form-field.tsx';
import { refusalText } from './use-staff-query.ts';

type SignInInput = { email: string; password: string };
/** What was asked for by e-mail, to say what is on its way. */
type Requested = 'signInLink' | 'passwordReset';

/**
 * The studio's sign-in: e-mail and password of a staff account (checked with the server's
 * schema), or a one-time sign-in link or a password reset mailed to the address. The answer to a
 * mail request is the same for every address, so the page never says whether an account exists.
 */
export function StudioSignIn() {
  const { t } = useStudioTranslation();
  const { locale } = useLocale();
  const [failure, setFailure] = useState<string | null>(null);
  const [requested, setRequested] = useState<Requested | null>(null);
  const [mailing, setMailing] = useState(false);
  const form = useForm<SignInInput>({ resolver: zodResolver(SignInWithPasswordRequest), mode: 'onTouched' });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (input) => {
    setFailure(null);
    setRequested(null);
    try {
      adoptSession(await call('signInWithPassword', input));
    } catch (error) {
      setFailure(refusalText(error, t('signIn.failed')));
    }
  });

  /** Mails a sign-in link or a reset link to the address typed in the e-mail field. */
  const mailMe = async (what: Requested) => {
    setFailure(null);
    setRequested(null);
    const email = Email.safeParse(form.getValues('email'));
    if (!email.success) {
      form.setError('email', { message: t('signIn.emailFirst') });
      form.setFocus('email');
      return;
    }
    form.clearErrors('email');
    setMailing(true);
    try {
      await publicStudioCall(what === 'signInLink' ? 'requestSignInLink' : 'requestPasswordReset', {
        body: { email: email.data, language: locale },
      });
      setRequested(what);
    } catch (error) {
      setFailure(refusalText(error, t('signIn.mailFailed')));
    } finally {
      setMailing(false);
    }
  };

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
        <ErrorNotice message={failure} />
        <button type="submit" className="studio-button studio-button--primary" disabled={isSubmitting}>
          {t('signIn.submit')}
        </button>
        <div className="studio-sign-in__recovery">
          <button
            type="button"
            className="studio-button"
            disabled={mailing}
            onClick={() => void mailMe('signInLink')}
          >
            {t('signIn.emailLink')}
          </button>
          <button
            type="button"
            className="studio-button studio-button--quiet"
            disabled={mailing}
            onClick={() => void mailMe('passwordReset')}
          >
            {t('signIn.forgotPassword')}
          </button>
        </div>
        <div aria-live="polite">
          {requested && (
            <p className="studio-notice studio-notice--success">
              {t(requested === 'signInLink' ? 'signIn.linkSent' : 'signIn.resetSent')}
            </p>
          )}
        </div>
        <p className="studio-muted studio-small">{t('signIn.help')}</p>
      </form>
    </main>
  );
}
