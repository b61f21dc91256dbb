import type { ErrorBody, ReadName, ReadParams, ReadResult, StoreInfo } from '@vitrine/protocol';
import { debugLog } from './debug.ts';
import { runtimeConfig } from './runtime-config.ts';

/** A call that reached the server and was refused; `status` is the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function post<T>(baseUrl: string, path: string, body: unknown): Promise<T> {
  debugLog(`POST ${path}`, body);
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (payload ?? {}) as Partial<ErrorBody>;
    throw new ApiError(response.status, error.error ?? 'http_error', error.message ?? response.statusText);
  }
  debugLog(`answer ${path}`, payload);
  return payload as T;
}

/** The main connection: /functions/… calls. */
export const callMain = <T>(path: `/functions/${string}`, body: unknown) =>
  post<T>(runtimeConfig.mainUrl, path, body);
/** The shop connection: /shopapiv2/… calls. */
export const callShop = <T>(path: `/shopapiv2/${string}`, body: unknown) =>
  post<T>(runtimeConfig.shopUrl, path, body);

/** A one-shot snapshot of a named read of the catalogue (spec §7 "Realtime reads"). */
export const read = <N extends ReadName>(name: N, params: ReadParams<N>) =>
  post<ReadResult<N>>(runtimeConfig.mainUrl, `/reads/${name}`, params);

export const loadStoreInfo = (pageUid: string) =>
  callMain<StoreInfo>('/functions/customerpage/storeInfo', { pageUid });
