import { zodResolver } from '@hookform/resolvers/zod';
import { ChangePasswordRequest } from '@vitrine/protocol';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { staffCall } from './studio-api.ts';
import { useStudioSession } from './studio-context.ts';
import { useStudioTranslation } from './studio-i18n.ts';
import { FormField } from './ui/form-field.tsx';
import { refusalText } from './use-staff-query.ts';

/**
 * /studio/account: the member's own account. An owner whom a studio link signed in sets a
 * password here, so they can sign in again without a new link.
 */
export function StudioAccount() {
  const { t } = useStudioTranslation();
  const { session } = useStudioSession();
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const form = useForm<ChangePasswordRequest>({
    resolver: zodResolver(ChangePasswordRequest),
    mode: 'onTouched',
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (input) => {
    setOutcome(null);
    try {
      await staffCall('changePassword', {
        body: {
          newPassword: input.newPassword,
          ...(input.currentPassword ? { currentPassword: input.currentPassword } : {}),
        },
      });
      form.reset();
      setOutcome({ ok: true, text: t('account.saved') });
    } catch (error) {
      setOutcome({ ok: false, text: refusalText(error, t('account.failed')) });
    }
  });

  return (
    <main className="studio-centre">
      <form className="studio-card studio-card--narrow" onSubmit={submit} noValidate>
        <h1>{t('account.title')}</h1>
        <p>
          {session.user.name && <strong>{session.user.name} · </strong>}
          {session.user.email}
        </p>
        <h2 className="studio-subtitle">{t('account.passwordTitle')}</h2>
        <FormField
          label={t('account.currentPassword')}
          hint={t('account.currentHint')}
          error={errors.currentPassword?.message}
        >
          {(props) => (
            <input
              {...props}
              type="password"
              autoComplete="current-password"
              {...form.register('currentPassword')}
            />
          )}
        </FormField>
        <FormField label={t('account.newPassword')} error={errors.newPassword?.message}>
          {(props) => (
            <input {...props} type="password" autoComplete="new-password" {...form.register('newPassword')} />
          )}
        </FormField>
        {outcome && (
          <p
            role={outcome.ok ? 'status' : 'alert'}
            className={`studio-notice ${outcome.ok ? 'studio-notice--success' : 'studio-notice--error'}`}
          >
            {outcome.text}
          </p>
        )}
        <button type="submit" className="studio-button studio-button--primary" disabled={isSubmitting}>
          {t('account.submit')}
        </button>
        <Link to="/studio" className="studio-button studio-button--quiet">
          {t('layout.yourStores')}
        </Link>
      </form>
    </main>
  );
}
