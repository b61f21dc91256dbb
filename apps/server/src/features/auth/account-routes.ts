import {
  LogoutRequest,
  OidcCompleteRequest,
  OidcStartRequest,
  SignInWithCredentialRequest,
  SignInWithPasswordRequest,
  SignUpRequest,
} from '@vitrine/protocol';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { parseInput } from '../../http/errors.ts';
import type { AccountService } from './account-service.ts';
import type { AuthService } from './auth-service.ts';
import type { OidcService } from './oidc.ts';

const EmptyBody = z.object({}).strict();

/** Sign-up, password and social sign-in, credential retry and logout (see protocol accounts.ts). */
export function registerAccountRoutes(
  app: FastifyInstance,
  services: { auth: AuthService; accounts: AccountService; oidc: OidcService },
): void {
  const { auth, accounts, oidc } = services;
  const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

  app.post('/functions/auth/signUp', async (request, reply) => {
    const caller = await auth.authenticateRequest(request);
    const input = parseInput(SignUpRequest, request.body);
    noStore(reply);
    return accounts.signUp(caller, input, request.ip);
  });

  app.post('/functions/auth/signInWithPassword', async (request, reply) => {
    const input = parseInput(SignInWithPasswordRequest, request.body);
    noStore(reply);
    return accounts.signInWithPassword(input, request.ip);
  });

  app.post('/functions/auth/signInWithCredential', async (request, reply) => {
    const { credential } = parseInput(SignInWithCredentialRequest, request.body);
    noStore(reply);
    return accounts.signInWithCredential(credential);
  });

  app.post('/functions/auth/logout', async (request, reply) => {
    const { refreshToken } = parseInput(LogoutRequest, request.body);
    noStore(reply);
    return accounts.logout(refreshToken, request.ip);
  });

  app.post('/functions/auth/oidc/providers', async (request) => {
    parseInput(EmptyBody, request.body ?? {});
    return { providers: oidc.providers() };
  });

  app.post('/functions/auth/oidc/start', async (request, reply) => {
    const caller = await auth.authenticateRequest(request);
    const { providerId } = parseInput(OidcStartRequest, request.body);
    noStore(reply);
    // This server's own origin (Host, or X-Forwarded-Host behind a trusted proxy), for providers
    // without a configured redirectUri; the caller's Origin header plays no part.
    return oidc.start(providerId, `${request.protocol}://${request.host}`, caller?.userUid ?? null);
  });

  app.post('/functions/auth/oidc/complete', async (request, reply) => {
    const caller = await auth.authenticateRequest(request);
    const { callbackUrl, flowSecret } = parseInput(OidcCompleteRequest, request.body);
    noStore(reply);
    const identity = await oidc.complete(callbackUrl, flowSecret, caller?.userUid ?? null);
    return accounts.signInWithIdentity(caller, identity);
  });
}
