import { RefreshTokenRequest, SignInAnonymouslyRequest } from '@vitrine/protocol';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../http/errors.ts';
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
  app.post('/functions/auth/signInAnonymously', async (request, reply) => {
    parseInput(SignInAnonymouslyRequest, request.body ?? {});
    reply.header('cache-control', 'no-store');
    return auth.signInAnonymously(options.abuseLimits ? { limitAddress: request.ip } : {});
  });

  app.post('/functions/auth/refreshIdToken', async (request, reply) => {
    const { idToken, refreshToken } = parseInput(RefreshTokenRequest, request.body);
    try {
      const session = refreshToken
        ? await auth.refreshWithToken(refreshToken)
        : await auth.refreshIdToken(idToken as string);
      reply.header('cache-control', 'no-store');
      return session;
    } catch (error) {
      if (error instanceof InvalidTokenError) throw unauthenticated(error);
      throw error;
    }
  });
}
