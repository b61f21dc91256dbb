import { zodResolver } from '@hookform/resolvers/zod';
import { Password } from '@vitrine/protocol';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { adoptSession } from '../../lib/session.ts';
import { publicStudioCall } from './studio-api.ts';
import { useStudioTranslation } from './studio-i18n.ts';
import { ErrorNotice } from './ui/error-notice.tsx';
import { FormField } from './ui/form-field.tsx';
import { refusalText } from './use-staff-query.ts';

const NewPasswordInput = z.object({ newPassword: Password });
type NewPasswordInput = z.infer<typeof NewPasswordInput>;

/**
 * /studio/reset-password#<token>: the page a password reset mail leads to. The token travels in
 * the fragment (never in a server log or a Referer); saving spends it and signs in.
 */
export function ResetPasswordPage() {
  const { t } = useStudioTranslation();
  const navigate = useNavigate();
  const [token] = useState(() => window.location.hash.slice(1));
  const [failure, setFailure] = useState<string | null>(token ? null : t('reset.missing'));
  const form = useForm<NewPasswordInput>({ resolver: zodResolver(NewPasswordInput), mode: 'onTouched' });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ newPassword }) => {
    setFailure(null);
    try {
      adoptSession(await publicStudioCall('resetPassword', { body: { token, newPassword } }));
      void navigate('/studio', { replace: true });
    } catch (error) {
      setFailure(refusalText(error, t('reset.failed')));
    }
  });

  return (
    <main className="studio-centre">
      <form className="studio-card studio-card--narrow" onSubmit={submit} noValidate>
        <h1>{t('reset.title')}</h1>
        <p className="studio-muted">{t('reset.intro')}</p>
        <FormField label={t('reset.newPassword')} error={errors.newPassword?.message}>
          {(props) => (
            <input {...props} type="password" autoComplete="new-password" {...form.register('newPassword')} />
          )}
        </FormField>
        <ErrorNotice message={failure} />
        <button
          type="submit"
          className="studio-button studio-button--primary"
          disabled={isSubmitting || !token}
        >
          {t('reset.submit')}
        </button>
        <Link to="/studio" className="studio-button studio-button--quiet">
          {t('reset.again')}
        </Link>
      </form>
    </main>
  );
}
