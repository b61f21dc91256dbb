import {
  type CallBody,
  CallCatalogue,
  type CallDefinition,
  type CallName,
  type CallParams,
  type CallQuery,
  type CallResponse,
  type StaffRole,
} from '@vitrine/protocol';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AuthenticatedUser, RequestAuthenticator, StaffCaller, StaffGate } from './caller.ts';
import { HttpError, parseInput } from './errors.ts';

/**
 * What a call does with an answer that does not fit the catalogue's response schema (the setting
 * VITRINE_CHECK_RESPONSES): `fail` (tests, development) makes the drift a 500 a test sees; `warn`
 * logs it and answers as is; `off` (production's default) skips the second parse of every answer,
 * so a drift never turns a shopper's answer into a 500.
 */
export type ResponseChecking = 'fail' | 'warn' | 'off';

declare module 'fastify' {
  interface FastifyInstance {
    /** Set once on the root server by the composition (setResponseChecking); children inherit it. */
    vitrineResponseChecking?: ResponseChecking;
  }
}

/** Chooses, for every call registered on this server afterwards, what a response drift does. */
export function setResponseChecking(app: FastifyInstance, checking: ResponseChecking): void {
  app.decorate('vitrineResponseChecking', checking);
}

/** What registering a call needs besides its handler. */
export interface CallDeps {
  /** Who the caller is: needed by viewer and optional-viewer calls. */
  auth?: RequestAuthenticator;
  /** The admin-key check: needed by admin calls. */
  requireAdmin?: onRequestHookHandler;
  /** The 401 message of a viewer call without a bearer (says what signing in is needed for). */
  signInMessage?: string;
  /** Admits staff and keeps the audit log: needed by studio (`{ staff }`) calls. */
  staffGate?: StaffGate;
}

type AuthOf<N extends CallName> = (typeof CallCatalogue)[N]['auth'];
/** The caller a handler gets: a user for viewer calls, a user or null for optional-viewer ones. */
export type CallerOf<N extends CallName> =
  AuthOf<N> extends 'viewer'
    ? AuthenticatedUser
    : AuthOf<N> extends 'optional-viewer'
      ? AuthenticatedUser | null
      : AuthOf<N> extends { staff: string }
        ? StaffCaller
        : null;

export interface CallContext<N extends CallName> {
  caller: CallerOf<N>;
  params: CallParams<N>;
  query: CallQuery<N>;
  /** For what only the transport knows: client address, own origin, headers, the logger. */
  request: FastifyRequest;
}

export type CallHandler<N extends CallName> = (
  body: CallBody<N>,
  context: CallContext<N>,
) => Promise<CallResponse<N> extends undefined ? void : CallResponse<N>>;

/**
 * Serves call `name` of the CallCatalogue at its method and path: checks who may call (as its
 * `auth` says), parses path parameters, query and body with its schemas (a 400 naming each bad
 * field), answers `cache-control: no-store` with its status, and hands the handler typed input.
 * A studio call that changes something (any method but GET) is written to the store's audit log
 * once its handler succeeded, so no feature can forget to.
 */
export function registerCall<N extends CallName>(
  app: FastifyInstance,
  name: N,
  handler: CallHandler<N>,
  deps: CallDeps = {},
): void {
  const call: CallDefinition = CallCatalogue[name];
  const { auth } = call;
  // A server built without the composition (a unit test's bare Fastify) checks strictly.
  const checking = app.vitrineResponseChecking ?? 'fail';
  const staffGate = deps.staffGate;
  if (typeof auth === 'object' && !(staffGate && call.path.includes('/:pageUid/')))
    throw new Error(`${name}: a staff call needs the staff gate and a :pageUid in its path`);
  if (call.binaryBody) acceptBinaryBodies(app, call.binaryBody.mediaTypes, call.binaryBody.streamed === true);
  if (auth === 'admin' && !deps.requireAdmin) throw new Error(`${name}: an admin call needs requireAdmin`);
  const authService = deps.auth;
  if ((auth === 'viewer' || auth === 'optional-viewer') && !authService)
    throw new Error(`${name}: a viewer call needs the auth service`);

  app.route({
    method: call.method,
    url: call.path,
    ...(auth === 'admin' && deps.requireAdmin ? { onRequest: deps.requireAdmin } : {}),
    ...(typeof auth === 'object' && staffGate
      ? // Before the body is read, as for the admin key: nobody outside the store uploads anything.
        {
          onRequest: async (request: FastifyRequest) =>
            void (await admitStaff(staffGate, request, auth.staff)),
        }
      : {}),
    ...(call.binaryBody && !call.binaryBody.streamed ? { bodyLimit: call.binaryBody.maxBytes } : {}),
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const caller =
        auth === 'viewer'
          ? await authService?.requireUser(request, deps.signInMessage)
          : auth === 'optional-viewer'
            ? await authService?.authenticateRequest(request)
            : typeof auth === 'object'
              ? staffCallerOf(request)
              : null;
      const params = call.params ? parseInput(call.params, request.params) : undefined;
      const query = call.query ? parseInput(call.query, request.query) : undefined;
      const body = readBody(call, request.body, request);
      const context = { caller, params, query, request } as CallContext<N>;
      const result = await handler(body as CallBody<N>, context);
      if (checking !== 'off') {
        const drift = responseDrift(name, call, result);
        if (drift && checking === 'fail') throw new Error(drift);
        if (drift) request.log.warn({ call: name }, drift);
      }
      if (staffGate && caller && 'role' in caller && call.method !== 'GET')
        await recordStaffAction(staffGate, request, { name, caller, params, body });
      if (call.status) reply.status(call.status);
      return call.response === null ? reply.send() : result;
    },
  });
}

const STAFF_CALLER = Symbol('staffCaller');
type AdmittedRequest = FastifyRequest & { [STAFF_CALLER]?: StaffCaller };

async function admitStaff(gate: StaffGate, request: FastifyRequest, required: StaffRole): Promise<void> {
  const { pageUid } = request.params as { pageUid?: unknown };
  if (typeof pageUid !== 'string' || pageUid === '')
    throw new HttpError(400, 'invalid_request', 'pageUid: required');
  (request as AdmittedRequest)[STAFF_CALLER] = await gate.admit(request, pageUid, required);
}

function staffCallerOf(request: FastifyRequest): StaffCaller {
  const caller = (request as AdmittedRequest)[STAFF_CALLER];
  if (!caller) throw new Error('a staff call reached its handler without being admitted');
  return caller;
}

/**
 * Accepts request bodies of these media types as raw bytes (image uploads), once per server; a
 * streamed type's body is left unread for the handler (videos are not held in memory).
 */
function acceptBinaryBodies(app: FastifyInstance, mediaTypes: readonly string[], streamed: boolean): void {
  for (const mediaType of mediaTypes) {
    if (app.hasContentTypeParser(mediaType)) continue;
    if (streamed) app.addContentTypeParser(mediaType, (_request, payload, done) => done(null, payload));
    else
      app.addContentTypeParser(mediaType, { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  }
}

const isByteStream = (value: unknown): value is AsyncIterable<Uint8Array> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

/** The bytes of a streamed body as they arrive, failing with a 413 past `maxBytes`. */
export async function* limitedBytes(
  body: AsyncIterable<Uint8Array>,
  maxBytes: number,
): AsyncGenerator<Uint8Array, void, undefined> {
  let received = 0;
  for await (const chunk of body) {
    received += chunk.byteLength;
    if (received > maxBytes) throw tooLarge(maxBytes);
    yield chunk;
  }
}

const tooLarge = (maxBytes: number) =>
  new HttpError(413, 'payload_too_large', `The file is larger than ${Math.floor(maxBytes / 1024 ** 2)} MiB.`);

/** The largest `details` kept per audit entry; a larger body is summarised by its fields' names. */
const AUDIT_DETAILS_MAX_CHARS = 4_000;
/** Fields never written to the audit log, whatever call sends them. */
const SECRET_FIELD = /password|token|secret|credential|apiKey|streamKey/i;

async function recordStaffAction(
  gate: StaffGate,
  request: FastifyRequest,
  change: { name: string; caller: StaffCaller; params: unknown; body: unknown },
): Promise<void> {
  const { pageUid: _store, ...target } = (change.params ?? {}) as Record<string, string>;
  try {
    await gate.recordAction({
      caller: change.caller,
      action: change.name,
      target,
      details: auditDetails(change.body),
    });
  } catch (error) {
    // The change itself is committed; failing the answer now would invite a repeat of it.
    request.log.error({ err: error, action: change.name }, 'writing the audit log failed');
  }
}

/** What of a call's body goes to the audit log: secrets dropped, files and bulk summarised. */
export function auditDetails(body: unknown): unknown {
  if (body === undefined || body === null) return null;
  if (body instanceof Uint8Array) return { bytes: body.byteLength };
  if (isByteStream(body)) return { file: 'streamed' };
  if (typeof body === 'string')
    return body.length > AUDIT_DETAILS_MAX_CHARS ? { characters: body.length } : body;
  const redacted = JSON.parse(
    JSON.stringify(body, (key, value) => (key && SECRET_FIELD.test(key) ? '[redacted]' : value)),
  );
  if (JSON.stringify(redacted).length <= AUDIT_DETAILS_MAX_CHARS) return redacted;
  return typeof redacted === 'object' && !Array.isArray(redacted)
    ? { fields: Object.keys(redacted), truncated: true }
    : { truncated: true };
}

function readBody(call: CallDefinition, raw: unknown, request: FastifyRequest): unknown {
  if (call.rawBody) return typeof raw === 'string' ? raw : '';
  if (call.binaryBody?.streamed) {
    if (!isByteStream(raw))
      throw new HttpError(
        415,
        'unsupported_media_type',
        `Send the file's bytes as the body, with its type as content-type (${call.binaryBody.mediaTypes.join(', ')}).`,
      );
    // A declared length over the limit is refused before a byte is read.
    if (Number(request.headers['content-length'] ?? 0) > call.binaryBody.maxBytes)
      throw tooLarge(call.binaryBody.maxBytes);
    return limitedBytes(raw, call.binaryBody.maxBytes);
  }
  if (call.binaryBody) {
    if (Buffer.isBuffer(raw) && raw.byteLength > 0) return raw;
    throw new HttpError(
      415,
      'unsupported_media_type',
      `Send the file's bytes as the body, with its type as content-type (${call.binaryBody.mediaTypes.join(', ')}).`,
    );
  }
  if (!call.request) return undefined;
  const body = raw === undefined && call.bodyOptional ? {} : raw;
  return parseInput(call.pickRequest?.(body) ?? call.request, body);
}

/** Throws (a 500, logged) when an answer, as JSON, does not fit the call's response schema. */
function responseDrift(name: CallName, call: CallDefinition, result: unknown): string | undefined {
  if (call.response === null) return undefined;
  const sent: unknown = result === undefined ? undefined : JSON.parse(JSON.stringify(result));
  const checked = call.response.safeParse(sent);
  if (checked.success) return undefined;
  const issues = checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  return `The answer of ${name} does not fit its response schema: ${issues.join('; ')}`;
}
