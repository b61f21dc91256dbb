import type { LiveQueryDocuments, LiveQueryName, LiveQueryParamsOf } from '@vitrine/protocol';
import { useMemo, useSyncExternalStore } from 'react';
import { createLiveQueryStore, type LiveQueryState } from '../../lib/realtime/realtime-client.ts';
import { getRealtimeClient } from '../../lib/realtime/use-live-query.ts';
import { subscriptionKey } from '../../lib/realtime/wire.ts';

const WAITING: LiveQueryState<never> = Object.freeze({ status: 'CONNECTING', docs: [] });
const idle = {
  subscribe: () => () => undefined,
  getSnapshot: () => WAITING,
};

/**
 * useLiveQuery for queries that need something not known yet (the viewer's uid before the
 * session exists): with null params nothing is subscribed and the state stays CONNECTING.
 */
export function useOptionalLiveQuery<N extends LiveQueryName>(
  query: N,
  params: LiveQueryParamsOf<N> | null,
): LiveQueryState<LiveQueryDocuments[N]> {
  const key = params ? subscriptionKey(query, params) : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for query and params
  const store = useMemo(
    () => (params ? createLiveQueryStore<LiveQueryDocuments[N]>(getRealtimeClient(), query, params) : idle),
    [key],
  );
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot) as LiveQueryState<
    LiveQueryDocuments[N]
  >;
}
