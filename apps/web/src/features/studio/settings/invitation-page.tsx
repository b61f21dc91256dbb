import { zodResolver } from '@hookform/resolvers/zod';
import { SignUpRequest, type StaffRole } from '@vitrine/protocol';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { call } from '../../../lib/api.ts';
import { adoptSession, currentSession, logout, onSessionChange } from '../../../lib/session.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { publicStudioCall, staffCall } from '../studio-api.ts';
import { useStudioTranslation } from '../studio-i18n.ts';
import { FormField } from '../ui/form-field.tsx';
import { StudioLoading } from '../ui/studio-loading.tsx';
import { refusalText } from '../use-staff-query.ts';
import './settings.css';

interface InvitationFacts {
  storeName: string;
  role: StaffRole;
  email: string;
  expiresAt: number;
}

/** The signed-in account, unless it is an anonymous viewer's (who must sign in or up first). */
const signedInUser = () => {
  const session = currentSession();
  return session && !session.user.isAnonymous ? session.user : null;
};

/**
 * /studio/invitation#<token>: what the invitation is for (store, role, address), then accepting
 * it as the signed-in account, or signing in or creating an account first. The token stays in
 * the fragment, so it never reaches a server log.
 */
export default function InvitationPage() {
  const { t } = useStudioTranslation('studio-settings');
  const navigate = useNavigate();
  const { dateTime } = useLocale();
  const [token] = useState(() => decodeURIComponent(window.location.hash.slice(1)));
  const [facts, setFacts] = useState<InvitationFacts | null>(null);
  const [failure, setFailure] = useState<string | null>(token ? null : t('invitation.missing'));
  const [user, setUser] = useState(signedInUser);
  const [busy, setBusy] = useState(false);

  useEffect(() => onSessionChange(() => setUser(signedInUser())), []);
  useEffect(() => {
    if (!token) return;
    publicStudioCall('invitationInfo', { body: { token } }).then(setFacts, (error: unknown) =>
      setFailure(refusalText(error, t('invitation.invalid'))),
    );
  }, [token, t]);

  const accept = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const store = await staffCall('acceptInvitation', { body: { token } });
      navigate(`/studio/${encodeURIComponent(store.pageUid)}`, { replace: true });
    } catch (error) {
      setFailure(refusalText(error, t('invitation.failed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="studio-centre">
      <div className="studio-card studio-card--narrow">
        <h1>{t('invitation.title')}</h1>
        {failure && (
          <p role="alert" className="studio-notice studio-notice--error">
            {failure}
          </p>
        )}
        {!facts && !failure && <StudioLoading />}
        {facts && (
          <>
            <p>{t('invitation.intro', { store: facts.storeName, role: t(`studio:roles.${facts.role}`) })}</p>
            <dl className="invitation-facts">
              <dt>{t('invitation.store')}</dt>
              <dd>{facts.storeName}</dd>
              <dt>{t('invitation.role')}</dt>
              <dd>{t(`studio:roles.${facts.role}`)}</dd>
              <dt>{t('invitation.sentTo')}</dt>
              <dd>{facts.email}</dd>
              <dt>{t('invitation.expires')}</dt>
              <dd>{dateTime(facts.expiresAt)}</dd>
            </dl>
            {user ? (
              <>
                <button
                  type="button"
                  className="studio-button studio-button--primary"
                  onClick={() => void accept()}
                  disabled={busy}
                >
                  {t('invitation.accept', { name: user.name || facts.email })}
                </button>
                <button
                  type="button"
                  className="studio-button studio-button--quiet"
                  onClick={() => void logout()}
                >
                  {t('invitation.otherAccount')}
                </button>
              </>
            ) : (
              <AccountStep email={facts.email} />
            )}
          </>
        )}
      </div>
    </main>
  );
}

type Mode = 'signUp' | 'signIn';
type AccountInput = z.input<typeof SignUpRequest>;

/** Signing in, or creating the account, before accepting (checked with the server's schemas). */
function AccountStep({ email }: { email: string }) {
  const { t } = useStudioTranslation('studio-settings');
  const [mode, setMode] = useState<Mode>('signUp');
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AccountInput, unknown, z.output<typeof SignUpRequest>>({
    resolver: zodResolver(SignUpRequest),
    defaultValues: { email, password: '', name: '' },
    mode: 'onTouched',
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (input) => {
    setFailure(null);
    try {
      if (mode === 'signUp') {
        const name = input.name?.trim();
        adoptSession(
          await call('signUp', { email: input.email, password: input.password, ...(name ? { name } : {}) }),
        );
      } else {
        adoptSession(await call('signInWithPassword', { email: input.email, password: input.password }));
      }
    } catch (error) {
      setFailure(refusalText(error, t('invitation.accountFailed')));
    }
  });
  return (
    <form onSubmit={submit} noValidate className="settings-card__fields">
      <p className="studio-muted">
        {mode === 'signUp' ? t('invitation.signUpIntro') : t('invitation.signInIntro')}
      </p>
      {mode === 'signUp' && (
        <FormField label={t('invitation.name')} error={errors.name?.message}>
          {(props) => (
            <input {...props} autoComplete="name" className="studio-input" {...form.register('name')} />
          )}
        </FormField>
      )}
      <FormField label={t('invitation.email')} error={errors.email?.message}>
        {(props) => (
          <input
            {...props}
            type="email"
            autoComplete="username"
            className="studio-input"
            {...form.register('email')}
          />
        )}
      </FormField>
      <FormField label={t('invitation.password')} error={errors.password?.message}>
        {(props) => (
          <input
            {...props}
            type="password"
            autoComplete={mode === 'signUp' ? 'new-password' : 'current-password'}
            className="studio-input"
            {...form.register('password')}
          />
        )}
      </FormField>
      {failure && (
        <p role="alert" className="studio-notice studio-notice--error">
          {failure}
        </p>
      )}
      <button
        type="submit"
        className="studio-button studio-button--primary"
        disabled={form.formState.isSubmitting}
      >
        {mode === 'signUp' ? t('invitation.signUp') : t('invitation.signIn')}
      </button>
      <button
        type="button"
        className="studio-button studio-button--quiet"
        onClick={() => {
          setFailure(null);
          setMode(mode === 'signUp' ? 'signIn' : 'signUp');
        }}
      >
        {mode === 'signUp' ? t('invitation.haveAccount') : t('invitation.needAccount')}
      </button>
    </form>
  );
}
