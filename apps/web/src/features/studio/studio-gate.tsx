import type { StudioSession } from '@vitrine/protocol';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Outlet } from 'react-router';
import { ApiError } from '../../lib/api.ts';
import { currentSession, onSessionChange } from '../../lib/session.ts';
import { staffCall } from './studio-api.ts';
import { StudioSessionContext } from './studio-context.ts';
import { useStudioTranslation } from './studio-i18n.ts';
import { StudioSignIn } from './studio-sign-in.tsx';
import { StudioLoading } from './ui/studio-loading.tsx';

/** Whether the browser holds a signed-in (not anonymous) session. */
const signedIn = () => {
  const session = currentSession();
  return session !== null && !session.user.isAnonymous;
};

/**
 * The studio's door: a sign-in form until a staff account is signed in, then the member's
 * stores (studioSession) for the pages inside.
 */
export function StudioGate() {
  const { t } = useStudioTranslation();
  const [isSignedIn, setSignedIn] = useState(signedIn);
  const [session, setSession] = useState<StudioSession | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => onSessionChange(() => setSignedIn(signedIn())), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `generation` asks again on reloadSession.
  useEffect(() => {
    if (!isSignedIn) {
      setSession(null);
      return;
    }
    let current = true;
    setFailure(null);
    staffCall('studioSession').then(
      (answer) => current && setSession(answer),
      (error: unknown) => {
        if (!current) return;
        if (error instanceof ApiError && error.status === 401) setSignedIn(false);
        else setFailure(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      current = false;
    };
  }, [isSignedIn, generation]);

  const reloadSession = useCallback(() => setGeneration((value) => value + 1), []);
  const context = useMemo(() => (session ? { session, reloadSession } : null), [session, reloadSession]);

  if (!isSignedIn) return <StudioSignIn />;
  if (failure)
    return (
      <main className="studio-centre">
        <p role="alert" className="studio-notice studio-notice--error">
          {t('gate.failed', { message: failure })}
        </p>
      </main>
    );
  if (!context) return <StudioLoading />;
  return (
    <StudioSessionContext.Provider value={context}>
      <Outlet />
    </StudioSessionContext.Provider>
  );
}
