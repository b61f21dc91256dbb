import {
  CALL_ROUTES,
  type CallName,
  type CallParams,
  type CallRequest,
  type CallResponse,
  callPath,
} from '@vitrine/protocol';
import { ApiError } from '../../lib/api.ts';
import { debugLog } from '../../lib/debug.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { sendAsViewer } from '../../lib/session.ts';

/** What a query string value may be; undefined and empty values are left out. */
export type QueryValue = string | number | boolean | undefined | null;

/** The parts of a studio call: its path parameters, its query (GET) and its JSON body. */
export type StaffCallInput<N extends CallName> = (CallParams<N> extends undefined
  ? { params?: undefined }
  : { params: CallParams<N> }) &
  (CallRequest<N> extends undefined ? { body?: undefined } : { body: CallRequest<N> }) & {
    query?: Record<string, QueryValue>;
  };

function urlOf(name: CallName, params: unknown, query: Record<string, QueryValue> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const path = callPath(name, (params ?? {}) as Record<string, string>);
  return `${runtimeConfig.mainUrl}${path}${search.size ? `?${search}` : ''}`;
}

async function refusal(response: Response): Promise<ApiError> {
  const text = await response.text();
  let body: { error?: unknown; message?: unknown } | null = null;
  try {
    body = JSON.parse(text);
  } catch {
    // A proxy's HTML error page: the status says enough.
  }
  return new ApiError(
    response.status,
    typeof body?.error === 'string' ? body.error : 'http_error',
    typeof body?.message === 'string' ? body.message : response.statusText,
    body,
  );
}

type StaffCallArgs<N extends CallName> =
  StaffCallInput<N> extends { params?: undefined; body?: undefined }
    ? [input?: StaffCallInput<N>]
    : [input: StaffCallInput<N>];

async function send<N extends CallName>(
  name: N,
  input: StaffCallInput<N> | undefined,
  headers: Record<string, string>,
): Promise<CallResponse<N>> {
  const { method } = CALL_ROUTES[name];
  const url = urlOf(name, input?.params, input?.query);
  debugLog(`${method} ${url}`, input?.body);
  const response = await fetch(url, {
    method,
    headers: input?.body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: input?.body === undefined ? undefined : JSON.stringify(input.body),
  });
  if (!response.ok) throw await refusal(response);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as CallResponse<N>;
}

/**
 * Makes a call of the catalogue as the signed-in staff member (their id token as bearer; a 401
 * refreshes the session once). Studio calls are typed by name like the player's `call`; their
 * routes load with the studio, never with the player.
 */
export function staffCall<N extends CallName>(
  name: N,
  ...[input]: StaffCallArgs<N>
): Promise<CallResponse<N>> {
  return sendAsViewer(name, (authorization) => send(name, input, authorization));
}

/** A studio call that needs no session (redeeming a studio link, reading an invitation). */
export function publicStudioCall<N extends CallName>(
  name: N,
  ...[input]: StaffCallArgs<N>
): Promise<CallResponse<N>> {
  return send(name, input, {});
}

/**
 * Uploads a file as the body of a studio call (image uploads), reporting progress from 0 to 1:
 * fetch cannot report upload progress, XMLHttpRequest can.
 */
export function uploadFile<N extends CallName>(
  name: N,
  params: CallParams<N>,
  file: Blob,
  onProgress: (fraction: number) => void = () => {},
  /** The call's query, e.g. an import's confirmation. */
  query: Record<string, QueryValue> = {},
): Promise<CallResponse<N>> {
  const { method } = CALL_ROUTES[name];
  const url = urlOf(name, params, query);
  return sendAsViewer(
    name,
    (authorization) =>
      new Promise<CallResponse<N>>((resolve, reject) => {
        const request = new XMLHttpRequest();
        request.open(method, url);
        request.setRequestHeader('authorization', authorization.authorization);
        request.setRequestHeader('content-type', file.type || 'application/octet-stream');
        request.upload.onprogress = (event) => {
          if (event.lengthComputable) onProgress(event.loaded / event.total);
        };
        request.onerror = () =>
          reject(new ApiError(0, 'network_error', 'The upload did not reach the server.'));
        request.onload = () => {
          onProgress(1);
          const response = new Response(request.responseText || null, { status: request.status });
          if (request.status >= 200 && request.status < 300)
            resolve((request.responseText ? JSON.parse(request.responseText) : undefined) as CallResponse<N>);
          else void refusal(response).then(reject);
        };
        request.send(file);
      }),
  );
}

/** Downloads what a GET studio call answers as a file (CSV exports), named `fileName`. */
export async function downloadFile(
  name: CallName,
  params: Record<string, string>,
  query: Record<string, QueryValue>,
  fileName: string,
): Promise<void> {
  const url = urlOf(name, params, query);
  const blob = await sendAsViewer(name, async (authorization) => {
    const response = await fetch(url, { headers: authorization });
    if (!response.ok) throw await refusal(response);
    return response.blob();
  });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}
