import {
  type CallBody,
  CallCatalogue,
  type CallDefinition,
  type CallName,
  type CallParams,
  type CallQuery,
  type CallResponse,
} from '@vitrine/protocol';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AuthenticatedUser, RequestAuthenticator } from './caller.ts';
import { parseInput } from './errors.ts';

/**
 * Answers are checked against the catalogue's response schema outside production: the tests
 * (and development) catch a handler that drifts from what the web is typed to receive, while a
 * production server does not pay for a second parse of every answer.
 */
const CHECK_RESPONSES = process.env.NODE_ENV !== 'production';

/** What registering a call needs besides its handler. */
export interface CallDeps {
  /** Who the caller is: needed by viewer and optional-viewer calls. */
  auth?: RequestAuthenticator;
  /** The admin-key check: needed by admin calls. */
  requireAdmin?: onRequestHookHandler;
  /** The 401 message of a viewer call without a bearer (says what signing in is needed for). */
  signInMessage?: string;
}

type AuthOf<N extends CallName> = (typeof CallCatalogue)[N]['auth'];
/** The caller a handler gets: a user for viewer calls, a user or null for optional-viewer ones. */
export type CallerOf<N extends CallName> =
  AuthOf<N> extends 'viewer'
    ? AuthenticatedUser
    : AuthOf<N> extends 'optional-viewer'
      ? AuthenticatedUser | null
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
 */
export function registerCall<N extends CallName>(
  app: FastifyInstance,
  name: N,
  handler: CallHandler<N>,
  deps: CallDeps = {},
): void {
  const call: CallDefinition = CallCatalogue[name];
  const { auth } = call;
  if (typeof auth === 'object') throw new Error(`${name}: staff calls are not served yet`);
  if (auth === 'admin' && !deps.requireAdmin) throw new Error(`${name}: an admin call needs requireAdmin`);
  const authService = deps.auth;
  if ((auth === 'viewer' || auth === 'optional-viewer') && !authService)
    throw new Error(`${name}: a viewer call needs the auth service`);

  app.route({
    method: call.method,
    url: call.path,
    ...(auth === 'admin' && deps.requireAdmin ? { onRequest: deps.requireAdmin } : {}),
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const caller =
        auth === 'viewer'
          ? await authService?.requireUser(request, deps.signInMessage)
          : auth === 'optional-viewer'
            ? await authService?.authenticateRequest(request)
            : null;
      const params = call.params ? parseInput(call.params, request.params) : undefined;
      const query = call.query ? parseInput(call.query, request.query) : undefined;
      const body = readBody(call, request.body);
      const context = { caller, params, query, request } as CallContext<N>;
      const result = await handler(body as CallBody<N>, context);
      if (CHECK_RESPONSES) checkResponse(name, call, result);
      if (call.status) reply.status(call.status);
      return call.response === null ? reply.send() : result;
    },
  });
}

function readBody(call: CallDefinition, raw: unknown): unknown {
  if (call.rawBody) return typeof raw === 'string' ? raw : '';
  if (!call.request) return undefined;
  const body = raw === undefined && call.bodyOptional ? {} : raw;
  return parseInput(call.pickRequest?.(body) ?? call.request, body);
}

/** Throws (a 500, logged) when an answer, as JSON, does not fit the call's response schema. */
function checkResponse(name: CallName, call: CallDefinition, result: unknown): void {
  if (call.response === null) return;
  const sent: unknown = result === undefined ? undefined : JSON.parse(JSON.stringify(result));
  const checked = call.response.safeParse(sent);
  if (!checked.success) {
    const issues = checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`The answer of ${name} does not fit its response schema: ${issues.join('; ')}`);
  }
}
