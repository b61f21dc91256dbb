import { roleIncludes } from '@vitrine/domain';
import type { StaffRole, StaffStore, StudioSession } from '@vitrine/protocol';
import { createContext, useContext } from 'react';

export interface StudioContextValue {
  session: StudioSession;
  /** Reads the memberships again (after accepting an invitation, or a store was renamed). */
  reloadSession: () => void;
}

export const StudioSessionContext = createContext<StudioContextValue | null>(null);
export const StudioStoreContext = createContext<StaffStore | null>(null);

/** The signed-in staff member and their stores. */
export function useStudioSession(): StudioContextValue {
  const value = useContext(StudioSessionContext);
  if (!value) throw new Error('useStudioSession is used outside the studio');
  return value;
}

/** The store the studio is showing (`/studio/:pageUid/…`) and the member's role in it. */
export function useStudioStore(): StaffStore {
  const store = useContext(StudioStoreContext);
  if (!store) throw new Error('useStudioStore is used outside a store of the studio');
  return store;
}

/** Whether the member's role in the current store includes `role` (hides what the server would refuse). */
export function useRoleIncludes(role: StaffRole): boolean {
  return roleIncludes(useStudioStore().role, role);
}
