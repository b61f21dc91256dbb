import { lazy, type ReactNode, useCallback, useRef, useState } from 'react';
import type { AccountFormsProps, AccountMode } from './account-forms.tsx';
import { LazyPart } from './lazy-part.tsx';

const AccountDialog = lazy(() => import('./account-dialog.tsx'));

/**
 * The player's login and rename prompts (spec §2 widget layout flags "login and rename
 * prompts"): `open(mode)` shows the dialog and resolves true when the viewer finished (named,
 * signed in, renamed) or false when they closed it.
 */
export function useAccountPrompt(
  options: Pick<AccountFormsProps, 'onLoggedOut' | 'pageUid' | 'campaignUid' | 'anonymousOnly'>,
): { open(mode: AccountMode): Promise<boolean>; mode: AccountMode | null; element: ReactNode } {
  const [mode, setMode] = useState<AccountMode | null>(null);
  const resolveRef = useRef<((done: boolean) => void) | null>(null);
  const open = useCallback((next: AccountMode) => {
    resolveRef.current?.(false);
    setMode(next);
    return new Promise<boolean>((resolve) => {
      resolveRef.current = resolve;
    });
  }, []);
  const finish = (done: boolean) => {
    resolveRef.current?.(done);
    resolveRef.current = null;
    setMode(null);
  };
  const element = mode ? (
    <LazyPart name="the account dialog">
      <AccountDialog key={mode} initialMode={mode} onDone={finish} {...options} />
    </LazyPart>
  ) : null;
  return { open, mode, element };
}
