import type { CallName, CallResponse } from '@vitrine/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { answerIsNewer } from './newer-answer.ts';
import { type StaffCallInput, staffCall } from './studio-api.ts';

export interface StaffQuery<T> {
  data: T | null;
  /** The last refusal or failure; cleared by the next success. */
  error: ApiError | Error | null;
  loading: boolean;
  /** Asks again (after a change), keeping the shown data until the answer arrives. */
  reload: () => void;
}

/**
 * Reads a GET studio call and keeps its answer, asking again whenever the input changes (compared
 * by value) or `reload` is called. A slower earlier answer never overwrites a newer one.
 */
export function useStaffQuery<N extends CallName>(
  name: N,
  input: StaffCallInput<N>,
): StaffQuery<CallResponse<N>> {
  const key = JSON.stringify(input);
  const [state, setState] = useState<{ data: CallResponse<N> | null; error: ApiError | Error | null }>({
    data: null,
    error: null,
  });
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  const shown = useRef(0);
  /** The input asked for last, and the number of its first request. */
  const currentInput = useRef({ query: '', first: 0 });

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `input`, compared by value.
  useEffect(() => {
    const request = ++latest.current;
    const query = `${name} ${key}`;
    if (currentInput.current.query !== query) currentInput.current = { query, first: request };
    setLoading(true);
    (staffCall as (name: N, input: StaffCallInput<N>) => Promise<CallResponse<N>>)(name, input).then(
      (data) => {
        if (!answerIsNewer(request, shown.current, currentInput.current.first)) return;
        shown.current = request;
        setState({ data, error: null });
        if (request === latest.current) setLoading(false);
      },
      (error: unknown) => {
        if (request !== latest.current) return;
        setState((previous) => ({
          data: previous.data,
          error: error instanceof Error ? error : new Error(String(error)),
        }));
        setLoading(false);
      },
    );
  }, [name, key, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...state, loading, reload };
}

/** The message to show for a failed studio call: the server's own text, which names the field. */
export function refusalText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message ? error.message : fallback;
}

/**
 * Calls `reload` every `everyMs` while `active` (what is shown changes on the server alone: a
 * stream's health, a premiere playing, clips being cut), and stops when the page leaves.
 */
export function useReloadEvery(reload: () => void, everyMs: number, active = true): void {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(reload, everyMs);
    return () => clearInterval(timer);
  }, [reload, everyMs, active]);
}
