import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import { type AuthService, unauthenticated } from './auth-service.ts';
import { InvalidTokenError } from './id-token.ts';

/**
 * Anonymous sign-in and id-token refresh; both answer an AuthSession, never cached. With
 * `abuseLimits` (config.abuseLimits), anonymous users are limited per client address.
 */
export function registerAuthRoutes(
  app: FastifyInstance,
  auth: AuthService,
  options: { abuseLimits: boolean } = { abuseLimits: false },
): void {
  registerCall(app, 'signInAnonymously', async (_body, { request }) =>
    auth.signInAnonymously(options.abuseLimits ? { limitAddress: request.ip } : {}),
  );

  registerCall(app, 'refreshIdToken', async ({ idToken, refreshToken }) => {
    try {
      return refreshToken
        ? await auth.refreshWithToken(refreshToken)
        : await auth.refreshIdToken(idToken as string);
    } catch (error) {
      if (error instanceof InvalidTokenError) throw unauthenticated(error);
      throw error;
    }
  });
}
