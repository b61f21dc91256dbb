import {
  type CallRequest,
  type CallResponse,
  type ClientCallName,
  type ErrorBody,
  FIRST_ANSWERS_ELEMENT_ID,
  type FirstAnswerCall,
  firstAnswerKey,
  PLAYER_CALL_ROUTES,
  type ReadName,
  type ReadParams,
  type ReadResult,
} from '@vitrine/protocol';
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

/**
 * Sends one request and answers its JSON. The answer's type is the caller's to state: `call` and
 * `read` state it from the protocol's catalogues, whose schemas the server checks its answers
 * against in development and tests.
 */
async function send<T>(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<T> {
  debugLog(`POST ${path}`, body);
  return answer<T>(
    path,
    await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
  );
}

/** The JSON of a response, or the ApiError of a refusal. */
async function answer<T>(path: string, response: Response): Promise<T> {
  const text = await response.text();
  if (!response.ok) {
    const refusal = errorBody(text);
    throw new ApiError(
      response.status,
      refusal.error ?? 'http_error',
      refusal.message ?? response.statusText,
      refusal.body,
    );
  }
  const payload: T = JSON.parse(text || 'null');
  debugLog(`answer ${path}`, payload);
  return payload;
}

/** A refusal's JSON body (null when there is none: proxies may answer HTML) and its error fields. */
function errorBody(text: string): { body: unknown; error?: string; message?: string } {
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    return { body: null };
  }
  const field = (key: keyof ErrorBody) => {
    const value: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, key) : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  return { body, error: field('error'), message: field('message') };
}

/** The connection a call goes to: /shopapiv2/… calls to the shop connection, the others to the main one. */
export const callUrl = (name: ClientCallName) => {
  const { path } = PLAYER_CALL_ROUTES[name];
  return { baseUrl: path.startsWith('/shopapiv2/') ? runtimeConfig.shopUrl : runtimeConfig.mainUrl, path };
};

/**
 * Makes call `name` of the protocol's call catalogue; the body and answer types come from it.
 * Calls needing the viewer's id token go through `callAsViewer` (session.ts).
 */
export function call<N extends ClientCallName>(
  name: N,
  input: CallRequest<N>,
  headers?: Record<string, string>,
): Promise<CallResponse<N>> {
  const { baseUrl, path } = callUrl(name);
  return send<CallResponse<N>>(baseUrl, path, input, headers);
}

/**
 * A one-shot snapshot of a named read of the catalogue (spec §7 "Realtime reads"). A plain GET:
 * the browser revalidates it with its ETag (an unchanged read is a 304 without a body), and a
 * cross-origin embed sends it without a CORS preflight.
 */
export async function read<N extends ReadName>(name: N, params: ReadParams<N>): Promise<ReadResult<N>> {
  const first = takeFirstAnswer(name, params);
  if (first) return first.answer as ReadResult<N>;
  const path = `/reads/${name}?params=${encodeURIComponent(JSON.stringify(params))}`;
  debugLog(`GET ${path}`);
  return answer<ReadResult<N>>(path, await fetch(`${runtimeConfig.mainUrl}${path}`));
}

/**
 * A call a public page makes before it paints (protocol FIRST_ANSWER_CALLS): the server's answer
 * in the page when it gave one, else the call.
 */
export function firstCall<N extends FirstAnswerCall>(
  name: N,
  input: CallRequest<N>,
): Promise<CallResponse<N>> {
  const first = takeFirstAnswer(name, input);
  if (first) return Promise.resolve(first.answer as CallResponse<N>);
  return call(name, input);
}

export const loadStoreInfo = (pageUid: string) => firstCall('storeInfo', { pageUid });

/** The answers the server put in the page (protocol first-answers.ts), read once; empty elsewhere. */
let firstAnswers: Map<string, unknown> | null = null;

/**
 * The server's answer in the page to this very request, if it gave one, taken once: the page's
 * first paint needs no round trip, and any later read of the same thing asks the server afresh.
 */
function takeFirstAnswer(name: string, params: unknown): { answer: unknown } | null {
  if (firstAnswers === null) {
    firstAnswers = new Map();
    const text =
      typeof document === 'undefined' ? null : document.getElementById(FIRST_ANSWERS_ELEMENT_ID)?.textContent;
    try {
      if (text) firstAnswers = new Map(Object.entries(JSON.parse(text) as Record<string, unknown>));
    } catch {
      // Unreadable answers (never written so by the server): the app asks the server for everything.
    }
  }
  const key = firstAnswerKey(name, params);
  if (!firstAnswers.has(key)) return null;
  const answer = firstAnswers.get(key);
  firstAnswers.delete(key);
  debugLog(`answer ${name} (in the page)`, answer);
  return { answer };
}
