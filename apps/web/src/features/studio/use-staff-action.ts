import { useState } from 'react';
import { refusalText } from './use-staff-query.ts';

/**
 * A staff action's run: busy while it goes (its buttons disabled), and what went wrong when it
 * fails, the server's refusal or else `failedText`. `run` answers whether the action went through.
 */
export function useStaffAction(failedText: string) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (work: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setFailure(null);
    try {
      await work();
      return true;
    } catch (error) {
      setFailure(refusalText(error, failedText));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, run };
}
