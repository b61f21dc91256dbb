import { useState } from 'react';
import { refusalText } from '../use-staff-query.ts';

/**
 * An upload's state for a studio form: its progress (null while none runs) and why the last one
 * failed. `run` starts one: `send` gets the progress callback; a refusal becomes the failure, in
 * the server's words or `failed` when it gives none.
 */
export function useUpload() {
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const run = async (failed: string, send: (onProgress: (fraction: number) => void) => Promise<void>) => {
    setFailure(null);
    setProgress(0);
    try {
      await send(setProgress);
    } catch (error) {
      setFailure(refusalText(error, failed));
    } finally {
      setProgress(null);
    }
  };
  return { progress, failure, setFailure, run };
}
