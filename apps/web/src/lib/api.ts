import type { ErrorBody, ReadName, ReadParams, ReadResult, StoreInfo } from '@vitrine/protocol';
import { debugLog } from './debug.ts';
import { runtimeConfig } from './runtime-config.ts';

/** A call that reached the server and was refused; `status` is the HTTP status, `body` the error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

async function post<T>(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  debugLog(`POST ${path}`, body);
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (payload ?? {}) as Partial<ErrorBody>;
    throw new ApiError(
      response.status,
      error.error ?? 'http_error',
      error.message ?? response.statusText,
      payload,
    );
  }
  debugLog(`answer ${path}`, payload);
  return payload as T;
}

/** The main connection: /functions/… calls. Signed-in calls go through `callAsViewer` (session.ts). */
export const callMain = <T>(path: `/functions/${string}`, body: unknown, headers?: Record<string, string>) =>
  post<T>(runtimeConfig.mainUrl, path, body, headers);
/** The shop connection: /shopapiv2/… calls. */
export const callShop = <T>(path: `/shopapiv2/${string}`, body: unknown, headers?: Record<string, string>) =>
  post<T>(runtimeConfig.shopUrl, path, body, headers);

/** A one-shot snapshot of a named read of the catalogue (spec §7 "Realtime reads"). */
export const read = <N extends ReadName>(name: N, params: ReadParams<N>) =>
  post<ReadResult<N>>(runtimeConfig.mainUrl, `/reads/${name}`, params);

export const loadStoreInfo = (pageUid: string) =>
  callMain<StoreInfo>('/functions/customerpage/storeInfo', { pageUid });
