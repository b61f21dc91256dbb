import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { AccountRecovery } from './account-recovery.ts';

/** Sign-in links and password resets by e-mail (protocol studio/operator-calls.ts). */
export function registerRecoveryRoutes(
  app: FastifyInstance,
  recovery: AccountRecovery,
  /**
   * The origin mailed links point at: the configured public URL, else this server's own address;
   * never the request's Host, which whoever asks for another's link could set to their own site.
   */
  linkOrigin: string,
): void {
  registerCall(app, 'requestSignInLink', (input, { request }) =>
    recovery.requestSignInLink(input, request.ip, linkOrigin),
  );
  registerCall(app, 'requestPasswordReset', (input, { request }) =>
    recovery.requestPasswordReset(input, request.ip, linkOrigin),
  );
  registerCall(app, 'resetPassword', (input, { request }) => recovery.resetPassword(input, request.ip));
}
