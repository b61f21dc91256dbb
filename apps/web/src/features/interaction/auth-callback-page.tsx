import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { logFailure } from '../../lib/debug.ts';
import { completeOidc, OIDC_CALLBACK_MESSAGE, OIDC_RETURN_KEY } from './accounts-api.ts';
import { useInteractionTranslation } from './interaction-i18n.ts';
import './interaction.css';

function returnUrl(): string {
  try {
    const stored = sessionStorage.getItem(OIDC_RETURN_KEY);
    sessionStorage.removeItem(OIDC_RETURN_KEY);
    if (stored && new URL(stored).origin === window.location.origin) return stored;
  } catch {
    // No storage or a malformed value: go to the front page.
  }
  return '/';
}

/**
 * Where a social sign-in provider sends the viewer back (/auth/callback). In the popup the
 * player opened, it hands the URL to that player (same origin only) and closes; after a
 * same-window sign-in it finishes the sign-in itself and returns to where the viewer was.
 */
export function AuthCallbackPage() {
  const { t } = useInteractionTranslation();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const opener = window.opener as Window | null;
    let sameOriginOpener = false;
    try {
      sameOriginOpener = opener !== null && opener.location.origin === window.location.origin;
    } catch {
      // A cross-origin opener throws on .location: it gets nothing.
    }
    if (opener && sameOriginOpener) {
      opener.postMessage({ type: OIDC_CALLBACK_MESSAGE, url: window.location.href }, window.location.origin);
      window.close();
      return;
    }
    completeOidc(window.location.href).then(
      () => window.location.replace(returnUrl()),
      (error: unknown) => {
        logFailure('social sign-in failed', error);
        setFailed(true);
      },
    );
  }, []);
  return (
    <main className="text-page account-page" aria-busy={!failed}>
      <p>{failed ? t('interaction.account.errors.socialFailed') : t('interaction.account.callback')}</p>
      {failed && <Link to="/login">{t('interaction.account.tryAgain')}</Link>}
    </main>
  );
}
