import type { UserDoc } from '@vitrine/protocol';
import { useEffect, useSyncExternalStore } from 'react';
import { currentSession, ensureSession, onSessionChange } from '../../lib/session.ts';
import { useOptionalLiveQuery } from './use-optional-live-query.ts';

/** Who is watching: the session's user, with the user record's name once it has loaded. */
export interface Viewer {
  uid: string;
  name: string;
  isAnonymous: boolean;
  email: string | null;
  competitionsParticipated: readonly string[];
  competitionsDismissed: readonly string[];
}

/**
 * The session's user as last announced by onSessionChange (announced once the realtime socket
 * holds the new token, so subscriptions made for this user are authorized).
 */
let announcedUser = currentSession()?.user ?? null;
onSessionChange((session) => {
  announcedUser = session?.user ?? null;
});

export function useSessionUser() {
  return useSyncExternalStore(
    onSessionChange,
    () => announcedUser,
    () => null,
  );
}

/**
 * The viewer, signing in anonymously on first use (spec §4: anonymous sign-in happens
 * automatically when no user exists). Null until a session exists. The user live query keeps
 * name, e-mail and competition state current (a rename or a participation elsewhere shows here).
 */
export function useViewer(): Viewer | null {
  const user = useSessionUser();
  useEffect(() => {
    if (!user) void ensureSession().catch(() => undefined);
  }, [user]);
  const record = useOptionalLiveQuery('user', user ? { userUid: user.uid } : null);
  if (!user) return null;
  const doc: UserDoc | undefined = record.docs.find((candidate) => candidate.uid === user.uid);
  return {
    uid: user.uid,
    name: doc?.name ?? user.name,
    isAnonymous: doc?.isAnonymous ?? user.isAnonymous,
    email: doc?.email ?? null,
    competitionsParticipated: doc?.competitionsParticipated ?? [],
    competitionsDismissed: doc?.competitionsDismissed ?? [],
  };
}
