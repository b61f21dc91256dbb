import {
  EMAIL_MAX_LENGTH,
  type OidcProvidersResponse,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USER_NAME_MAX_LENGTH,
} from '@vitrine/protocol';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { logFailure } from '../../lib/debug.ts';
import { logout } from '../../lib/session.ts';
import {
  ACCOUNT_REQUEST_SLOW_MS,
  ACCOUNT_REQUEST_TIMEOUT_MS,
  awaitPatiently,
  RequestTimedOut,
} from '../../lib/slow-request.ts';
import {
  completeOidc,
  OIDC_CALLBACK_MESSAGE,
  OIDC_RETURN_KEY,
  oidcProviders,
  signInWithPassword,
  signUp,
  startOidc,
} from './accounts-api.ts';
import { setUserName } from './interaction-api.ts';
import { useInteractionTranslation } from './interaction-i18n.ts';
import { useViewer } from './use-viewer.ts';

/** How long a sign-in answer may follow its window's closing (ms): see signInWith. */
const POPUP_CLOSED_GRACE_MS = 2000;

/** Which form the account dialog shows (spec §2 "Login and create-user dialog", §6 roles). */
export type AccountMode = 'name' | 'signIn' | 'signUp' | 'rename' | 'account';

export interface AccountFormsProps {
  initialMode: AccountMode;
  /** The viewer has what they came for (a name, a sign-in, a rename): true; logged out: false. */
  onDone(done: boolean): void;
  /** Logging out unloads the cart (spec §4); the player leaves the checkout route. */
  onLoggedOut?(): void;
  pageUid?: string;
  campaignUid?: string;
  /** The context forces anonymous use (spec §1): a name only, no sign-in, sign-up or social buttons. */
  anonymousOnly?: boolean;
}

type Problem = { key: string; values?: Record<string, unknown> } | null;

function problemFor(error: unknown): Problem {
  if (!(error instanceof ApiError)) return { key: 'interaction.account.errors.failed' };
  switch (error.code) {
    case 'unauthenticated':
      return { key: 'interaction.account.errors.wrongPassword' };
    case 'email_in_use':
      return { key: 'interaction.account.errors.emailInUse' };
    case 'weak_password':
      return { key: 'interaction.account.errors.commonPassword' };
    case 'server_busy':
      return { key: 'interaction.account.errors.busy' };
    case 'rate_limited': {
      const retryAfterMs = (error.body as { retryAfterMs?: number } | null)?.retryAfterMs ?? 1000;
      return {
        key: 'interaction.account.errors.rateLimited',
        values: { count: Math.ceil(retryAfterMs / 1000) },
      };
    }
    case 'invalid_request':
      return { key: 'interaction.account.errors.invalid' };
    default:
      return { key: 'interaction.account.errors.failed' };
  }
}

function Field({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="account-field">
      <label htmlFor={id}>{label}</label>
      {children(id)}
    </div>
  );
}

/**
 * Social sign-in through the configured OpenID Connect providers. The provider's page opens in
 * a popup (opened at the click, so it is not blocked, and pointed at the provider once the
 * server answers); its callback page posts the redirect URL back here. Without a popup the
 * whole window goes and the callback page finishes the sign-in and returns.
 */
function SocialButtons({ onSignedIn, onProblem }: { onSignedIn(): void; onProblem(problem: Problem): void }) {
  const { t } = useInteractionTranslation();
  const [providers, setProviders] = useState<OidcProvidersResponse['providers']>([]);
  useEffect(() => {
    let live = true;
    oidcProviders().then(
      (list) => live && setProviders(list),
      (error: unknown) => logFailure('loading social sign-in providers failed', error),
    );
    return () => {
      live = false;
    };
  }, []);
  if (providers.length === 0) return null;

  const signInWith = async (providerId: string) => {
    onProblem(null);
    const popup = window.open('', 'vitrine-social-sign-in', 'popup,width=480,height=680');
    try {
      const { authorizationUrl } = await startOidc(providerId);
      if (!popup) {
        try {
          sessionStorage.setItem(OIDC_RETURN_KEY, window.location.href);
        } catch {
          // Without storage the callback page returns to the front page.
        }
        window.location.assign(authorizationUrl);
        return;
      }
      popup.location.href = authorizationUrl;
      const callbackUrl = await new Promise<string>((resolve, reject) => {
        let closedGrace: ReturnType<typeof setTimeout> | undefined;
        const closedCheck = setInterval(() => {
          if (!popup.closed || closedGrace !== undefined) return;
          // The callback page posts its answer and then closes itself: on a busy device the window
          // can be seen closed before that message is delivered, so closing counts as giving up
          // only when no answer follows within a moment.
          closedGrace = setTimeout(() => {
            cleanup();
            reject(new Error('the sign-in window was closed'));
          }, POPUP_CLOSED_GRACE_MS);
        }, 500);
        const onMessage = (event: MessageEvent) => {
          // Only our own callback page, in the window we opened, may answer.
          if (event.origin !== window.location.origin || event.source !== popup) return;
          const data = event.data as { type?: unknown; url?: unknown } | null;
          if (data?.type !== OIDC_CALLBACK_MESSAGE || typeof data.url !== 'string') return;
          cleanup();
          resolve(data.url);
        };
        const cleanup = () => {
          clearInterval(closedCheck);
          clearTimeout(closedGrace);
          window.removeEventListener('message', onMessage);
        };
        window.addEventListener('message', onMessage);
      });
      popup.close();
      await completeOidc(callbackUrl);
      onSignedIn();
    } catch (error) {
      popup?.close();
      // Spec §8: social sign-in failures are logged; the viewer is told only that it did not work.
      logFailure('social sign-in failed', error);
      onProblem({ key: 'interaction.account.errors.socialFailed' });
    }
  };

  return (
    <div className="account-social">
      <p className="account-divider">
        <span>{t('interaction.account.or')}</span>
      </p>
      {providers.map((provider) => (
        <button
          key={provider.id}
          type="button"
          className="button button--secondary account-social__button"
          onClick={() => void signInWith(provider.id)}
        >
          {t('interaction.account.continueWith', { provider: provider.name })}
        </button>
      ))}
    </div>
  );
}

/**
 * The forms of the login and create-user dialog, also shown on the /login page: a name for an
 * anonymous participant, e-mail + password sign-in and sign-up, social sign-in, rename and
 * logout. Names are plain text; the server rejects control characters and overlong ones.
 */
export function AccountForms({
  initialMode,
  onDone,
  onLoggedOut,
  pageUid,
  campaignUid,
  anonymousOnly = false,
}: AccountFormsProps) {
  const { t } = useInteractionTranslation();
  const viewer = useViewer();
  const [mode, setMode] = useState<AccountMode>(initialMode);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [slow, setSlow] = useState(false);
  const [problem, setProblem] = useState<Problem>(null);
  // An empty name is answered in the form itself (the browser's own bubble is easy to miss and
  // absent in some embeds), and the focus goes to the field to fix.
  const [nameMissing, setNameMissing] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const nameErrorId = useId();

  useEffect(() => {
    if (mode === 'rename' && viewer?.name && !name) setName(viewer.name);
  }, [mode, viewer?.name, name]);

  const run = async (work: () => Promise<unknown>, what: string, done = true) => {
    setBusy(true);
    setSlow(false);
    setProblem(null);
    try {
      // A busy server is said to be busy, and a wait that is too long ends with a retry.
      await awaitPatiently(work(), {
        slowMs: ACCOUNT_REQUEST_SLOW_MS,
        timeoutMs: ACCOUNT_REQUEST_TIMEOUT_MS,
        onSlow: () => setSlow(true),
      });
      onDone(done);
    } catch (error) {
      logFailure(`${what} failed`, error);
      const next =
        error instanceof RequestTimedOut ? { key: 'interaction.account.errors.timedOut' } : problemFor(error);
      setProblem(next);
      if (error instanceof ApiError && error.code === 'email_in_use') setMode('signIn');
    } finally {
      setBusy(false);
      setSlow(false);
    }
  };
  const where = { ...(pageUid ? { pageUid } : {}), ...(campaignUid ? { campaignUid } : {}) };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    switch (mode) {
      case 'name':
      case 'rename':
        if (!name.trim()) {
          setNameMissing(true);
          nameRef.current?.focus();
          return;
        }
        if (!viewer) return;
        return void run(() => setUserName(viewer.uid, name, where), 'setting the name');
      case 'signIn':
        return void run(() => signInWithPassword({ email, password }), 'signing in');
      case 'signUp':
        return void run(
          () => signUp({ email, password, ...(name.trim() ? { name: name.trim() } : {}) }),
          'creating the account',
        );
      case 'account':
        return;
    }
  };

  const doLogout = () =>
    void run(
      async () => {
        await logout();
        onLoggedOut?.();
      },
      'logging out',
      false,
    );

  const switchTo = (next: AccountMode) => {
    setProblem(null);
    setMode(next);
  };
  const heading = t(`interaction.account.heading.${mode}`);
  const signedIn = viewer !== null && !viewer.isAnonymous;

  return (
    <div className="account-forms" data-mode={mode}>
      <h2 className="account-forms__title">{heading}</h2>
      {mode === 'account' ? (
        <div className="account-summary">
          <p>
            {signedIn
              ? t('interaction.account.signedInAs', { name: viewer.name || viewer.email || '' })
              : t('interaction.account.anonymousAs', { name: viewer?.name || t('player.anonymousViewer') })}
          </p>
          {viewer?.email && <p className="account-summary__email">{viewer.email}</p>}
          <div className="account-actions">
            <button type="button" className="button button--secondary" onClick={() => switchTo('rename')}>
              {t('interaction.account.rename')}
            </button>
            {signedIn ? (
              <button type="button" className="button" disabled={busy} onClick={doLogout}>
                {t('interaction.account.logout')}
              </button>
            ) : (
              <button type="button" className="button" onClick={() => switchTo('signIn')}>
                {t('interaction.account.signIn')}
              </button>
            )}
          </div>
        </div>
      ) : (
        <form className="account-form" onSubmit={submit} noValidate={false}>
          {mode === 'name' && (
            <p className="account-forms__lead">
              {/* No "create an account later" where the context forces anonymous use. */}
              {t(anonymousOnly ? 'interaction.account.nameLeadAnonymous' : 'interaction.account.nameLead')}
            </p>
          )}
          {(mode === 'name' || mode === 'rename' || mode === 'signUp') && (
            <Field label={t('interaction.account.name')}>
              {(id) => (
                <input
                  id={id}
                  ref={nameRef}
                  name="name"
                  autoComplete="nickname"
                  aria-required={mode !== 'signUp'}
                  aria-invalid={(nameMissing && mode !== 'signUp') || undefined}
                  aria-describedby={nameMissing && mode !== 'signUp' ? nameErrorId : undefined}
                  maxLength={USER_NAME_MAX_LENGTH}
                  value={name}
                  onChange={(event) => {
                    setName(event.target.value);
                    if (event.target.value.trim()) setNameMissing(false);
                  }}
                />
              )}
            </Field>
          )}
          {nameMissing && mode !== 'signUp' && (
            <p id={nameErrorId} className="chat-problem" role="alert" data-problem="name-missing">
              {t('interaction.account.nameMissing')}
            </p>
          )}
          {(mode === 'signIn' || mode === 'signUp') && (
            <>
              <Field label={t('interaction.account.email')}>
                {(id) => (
                  <input
                    id={id}
                    name="email"
                    type="email"
                    autoComplete="email"
                    required
                    maxLength={EMAIL_MAX_LENGTH}
                    value={email}
                    onChange={(event) => setEmail(event.target.value)}
                  />
                )}
              </Field>
              <Field label={t('interaction.account.password')}>
                {(id) => (
                  <input
                    id={id}
                    name="password"
                    type="password"
                    autoComplete={mode === 'signUp' ? 'new-password' : 'current-password'}
                    required
                    minLength={mode === 'signUp' ? PASSWORD_MIN_LENGTH : 1}
                    maxLength={PASSWORD_MAX_LENGTH}
                    value={password}
                    onChange={(event) => setPassword(event.target.value)}
                  />
                )}
              </Field>
              {mode === 'signUp' && (
                <p className="account-hint">
                  {t('interaction.account.passwordHint', { min: PASSWORD_MIN_LENGTH })}
                </p>
              )}
            </>
          )}
          {problem && (
            <p className="chat-problem" role="alert">
              {t(problem.key, problem.values)}
            </p>
          )}
          <button type="submit" className="button account-form__submit" disabled={busy} aria-busy={busy}>
            {t(`interaction.account.submit.${mode}`)}
          </button>
          <p
            className="account-progress"
            role="status"
            data-progress={busy ? (slow ? 'slow' : 'working') : 'idle'}
          >
            {busy ? t(slow ? 'interaction.account.stillWorking' : 'interaction.account.working') : ''}
          </p>
          {mode !== 'rename' && !anonymousOnly && (
            <div className="account-switch">
              {mode !== 'signIn' && (
                <button type="button" className="link-button" onClick={() => switchTo('signIn')}>
                  {t('interaction.account.haveAccount')}
                </button>
              )}
              {mode !== 'signUp' && (
                <button type="button" className="link-button" onClick={() => switchTo('signUp')}>
                  {t('interaction.account.createAccount')}
                </button>
              )}
              {mode !== 'name' && !signedIn && (
                <button type="button" className="link-button" onClick={() => switchTo('name')}>
                  {t('interaction.account.justName')}
                </button>
              )}
            </div>
          )}
          {(mode === 'signIn' || mode === 'signUp' || mode === 'name') && !anonymousOnly && (
            <SocialButtons onSignedIn={() => onDone(true)} onProblem={setProblem} />
          )}
        </form>
      )}
    </div>
  );
}
