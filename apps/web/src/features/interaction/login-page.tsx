import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { currentSession } from '../../lib/session.ts';
import { AccountForms } from './account-forms.tsx';
import { safeReturnPath } from './return-paths.ts';
import './interaction.css';

/**
 * The /login page (spec §2): the login and create-user forms as a page. `?next=/path` returns
 * there once signed in; otherwise the page shows the account.
 */
export function LoginPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [round, setRound] = useState(0);
  const signedIn = currentSession()?.user.isAnonymous === false;
  return (
    <main className="text-page account-page">
      <AccountForms
        key={round}
        initialMode={signedIn ? 'account' : 'signIn'}
        onDone={() => {
          const next = safeReturnPath(params.get('next'));
          if (next) void navigate(next);
          else setRound((value) => value + 1);
        }}
        onLoggedOut={() => setRound((value) => value + 1)}
      />
    </main>
  );
}
