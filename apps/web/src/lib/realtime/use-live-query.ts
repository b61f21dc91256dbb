import type { LiveQueryDocuments, LiveQueryName, LiveQueryParamsOf } from '@vitrine/protocol';
import { useMemo, useSyncExternalStore } from 'react';
import { runtimeConfig } from '../runtime-config.ts';
import {
  createLiveQueryStore,
  createRealtimeClient,
  type LiveQueryState,
  type RealtimeClient,
  realtimeSocketUrl,
  type SubscribeOptions,
} from './realtime-client.ts';
import { subscriptionKey } from './wire.ts';

let client: RealtimeClient | null = null;
let tokenProvider: (() => Promise<string | null>) | null = null;

/** The app's one realtime connection, on the main connection's origin (runtime config). */
export function getRealtimeClient(): RealtimeClient {
  client ??= createRealtimeClient({
    url: realtimeSocketUrl(runtimeConfig.mainUrl, window.location.href),
    getToken: () => (tokenProvider ? tokenProvider() : Promise.resolve(null)),
  });
  return client;
}

/** Where the connection gets its id token; called on every (re)connect and now, when connected. */
export function setRealtimeTokenProvider(provider: (() => Promise<string | null>) | null): void {
  tokenProvider = provider;
  if (client) void client.refreshAuth();
}

/**
 * A live query's current records and status. Params are compared by value (their subscription
 * key), so an inline object does not resubscribe on every render. A catalogue name types the
 * params and the records.
 */
export function useLiveQuery<N extends LiveQueryName>(
  query: N,
  params: LiveQueryParamsOf<N>,
  options?: SubscribeOptions,
): LiveQueryState<LiveQueryDocuments[N]>;
export function useLiveQuery<T>(
  query: string,
  params: unknown,
  options?: SubscribeOptions,
): LiveQueryState<T>;
export function useLiveQuery(
  query: string,
  params: unknown,
  options: SubscribeOptions = {},
): LiveQueryState<unknown> {
  const realtime = getRealtimeClient();
  const key = subscriptionKey(query, params);
  const suppressRemoval = options.suppressRemoval === true;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the key stands for query and params
  const store = useMemo(
    () => createLiveQueryStore(realtime, query, params, { suppressRemoval }),
    [realtime, key, suppressRemoval],
  );
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
