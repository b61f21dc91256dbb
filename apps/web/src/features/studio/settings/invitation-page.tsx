import { zodResolver } from '@hookform/resolvers/zod';
import { SignInWithPasswordRequest, SignUpRequest, type StaffRole } from '@vitrine/protocol';
import { useEffect, useState } from 'react';
import { type UseFormRegisterReturn, useForm } from 'react-hook-form';
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
import { ErrorNotice } from '../ui/error-notice.tsx';

interface InvitationFacts {
  storeName: string;
  role: StaffRole;
  /** The invited address, masked by the server: the link may have reached someone else. */
  emailHint: string;
  expiresAt: number;
}

/** The signed-in account, unless it is an anonymous viewer's (who must sign in or up first). */
const signedInUser = () => {
  const session = currentSession();
  return session && !session.user.isAnonymous ? session.user : null;
};

/**
 * /studio/invitation#<token>: what the invitation is for (store, role, the address masked), then
 * accepting it as the signed-in account, or signing in or creating an account first; only an
 * account with the invited address may accept. The token stays in the fragment, so it never
 * reaches a server log.
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
        <ErrorNotice message={failure} />
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
              <dd>{facts.emailHint}</dd>
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
                  {user.name ? t('invitation.accept', { name: user.name }) : t('invitation.acceptUnnamed')}
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
              <AccountStep emailHint={facts.emailHint} />
            )}
          </>
        )}
      </div>
    </main>
  );
}

type Mode = 'signUp' | 'signIn';

/**
 * Signing in, or creating the account, before accepting. Each mode has its own form checked with
 * its own call's schema: signing in with the sign-up schema failed on the hidden, empty name.
 */
function AccountStep({ emailHint }: { emailHint: string }) {
  const { t } = useStudioTranslation('studio-settings');
  const [mode, setMode] = useState<Mode>('signUp');
  const switchMode = () => setMode(mode === 'signUp' ? 'signIn' : 'signUp');
  return (
    <>
      <p className="studio-muted">{t('invitation.useInvitedAddress', { hint: emailHint })}</p>
      {mode === 'signUp' ? <SignUpForm onSwitch={switchMode} /> : <SignInForm onSwitch={switchMode} />}
    </>
  );
}

type SignUpInput = z.input<typeof SignUpRequest>;
type SignInInput = z.input<typeof SignInWithPasswordRequest>;

/** An empty optional field is left out rather than sent as "" (which the schema refuses). */
const emptyAsUndefined = (value: string) => (value.trim() === '' ? undefined : value);

function SignUpForm({ onSwitch }: { onSwitch: () => void }) {
  const { t } = useStudioTranslation('studio-settings');
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<SignUpInput, unknown, z.output<typeof SignUpRequest>>({
    resolver: zodResolver(SignUpRequest),
    defaultValues: { email: '', password: '' },
    mode: 'onTouched',
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit(async (input) => {
    setFailure(null);
    try {
      adoptSession(await call('signUp', input));
    } catch (error) {
      setFailure(refusalText(error, t('invitation.accountFailed')));
    }
  });
  return (
    <form onSubmit={submit} noValidate className="settings-card__fields">
      <p className="studio-muted">{t('invitation.signUpIntro')}</p>
      <FormField label={t('invitation.name')} error={errors.name?.message}>
        {(props) => (
          <input
            {...props}
            autoComplete="name"
            className="studio-input"
            {...form.register('name', { setValueAs: emptyAsUndefined })}
          />
        )}
      </FormField>
      <CredentialFields
        email={form.register('email')}
        password={form.register('password')}
        errors={errors}
        newPassword
      />
      <FormFooter
        failure={failure}
        busy={form.formState.isSubmitting}
        submitLabel={t('invitation.signUp')}
        switchLabel={t('invitation.haveAccount')}
        onSwitch={onSwitch}
      />
    </form>
  );
}

function SignInForm({ onSwitch }: { onSwitch: () => void }) {
  const { t } = useStudioTranslation('studio-settings');
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<SignInInput, unknown, z.output<typeof SignInWithPasswordRequest>>({
    resolver: zodResolver(SignInWithPasswordRequest),
    defaultValues: { email: '', password: '' },
    mode: 'onTouched',
  });
  const submit = form.handleSubmit(async (input) => {
    setFailure(null);
    try {
      adoptSession(await call('signInWithPassword', input));
    } catch (error) {
      setFailure(refusalText(error, t('invitation.accountFailed')));
    }
  });
  return (
    <form onSubmit={submit} noValidate className="settings-card__fields">
      <p className="studio-muted">{t('invitation.signInIntro')}</p>
      <CredentialFields
        email={form.register('email')}
        password={form.register('password')}
        errors={form.formState.errors}
        newPassword={false}
      />
      <FormFooter
        failure={failure}
        busy={form.formState.isSubmitting}
        submitLabel={t('invitation.signIn')}
        switchLabel={t('invitation.needAccount')}
        onSwitch={onSwitch}
      />
    </form>
  );
}

/** The e-mail and password fields both forms share. */
function CredentialFields({
  email,
  password,
  errors,
  newPassword,
}: {
  email: UseFormRegisterReturn;
  password: UseFormRegisterReturn;
  errors: { email?: { message?: string }; password?: { message?: string } };
  newPassword: boolean;
}) {
  const { t } = useStudioTranslation('studio-settings');
  return (
    <>
      <FormField label={t('invitation.email')} error={errors.email?.message}>
        {(props) => (
          <input {...props} type="email" autoComplete="username" className="studio-input" {...email} />
        )}
      </FormField>
      <FormField label={t('invitation.password')} error={errors.password?.message}>
        {(props) => (
          <input
            {...props}
            type="password"
            autoComplete={newPassword ? 'new-password' : 'current-password'}
            className="studio-input"
            {...password}
          />
        )}
      </FormField>
    </>
  );
}

function FormFooter(props: {
  failure: string | null;
  busy: boolean;
  submitLabel: string;
  switchLabel: string;
  onSwitch: () => void;
}) {
  return (
    <>
      <ErrorNotice message={props.failure} />
      <button type="submit" className="studio-button studio-button--primary" disabled={props.busy}>
        {props.submitLabel}
      </button>
      <button type="button" className="studio-button studio-button--quiet" onClick={props.onSwitch}>
        {props.switchLabel}
      </button>
    </>
  );
}
