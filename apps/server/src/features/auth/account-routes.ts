import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { AccountService } from './account-service.ts';
import type { AuthService } from './auth-service.ts';
import type { OidcService } from './oidc.ts';

/** Sign-up, password and social sign-in, credential retry and logout (see protocol accounts.ts). */
export function registerAccountRoutes(
  app: FastifyInstance,
  services: { auth: AuthService; accounts: AccountService; oidc: OidcService },
): void {
  const { auth, accounts, oidc } = services;
  const deps = { auth };

  registerCall(
    app,
    'signUp',
    (input, { caller, request }) => accounts.signUp(caller, input, request.ip),
    deps,
  );
  registerCall(app, 'signInWithPassword', (input, { request }) =>
    accounts.signInWithPassword(input, request.ip),
  );
  registerCall(
    app,
    'changePassword',
    (input, { caller, request }) => accounts.changePassword(caller, input, request.ip),
    { auth, signInMessage: 'Sign in to change your password.' },
  );
  registerCall(app, 'signInWithCredential', ({ credential }) => accounts.signInWithCredential(credential));
  registerCall(app, 'logout', ({ refreshToken }, { request }) => accounts.logout(refreshToken, request.ip));
  registerCall(app, 'oidcProviders', async () => ({ providers: oidc.providers() }));

  // This server's own origin (Host, or X-Forwarded-Host behind a trusted proxy), for providers
  // without a configured redirectUri; the caller's Origin header plays no part.
  registerCall(
    app,
    'oidcStart',
    ({ providerId }, { caller, request }) =>
      oidc.start(providerId, `${request.protocol}://${request.host}`, caller?.userUid ?? null),
    deps,
  );

  registerCall(
    app,
    'oidcComplete',
    async ({ callbackUrl, flowSecret }, { caller }) => {
      const identity = await oidc.complete(callbackUrl, flowSecret, caller?.userUid ?? null);
      return accounts.signInWithIdentity(caller, identity);
    },
    deps,
  );
}
