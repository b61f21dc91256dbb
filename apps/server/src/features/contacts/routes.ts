import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { ContactService } from './contact-service.ts';

export function registerContactRoutes(
  app: FastifyInstance,
  contacts: ContactService,
  auth: AuthService,
): void {
  registerCall(
    app,
    'captureContact',
    (input, { caller, request }) => contacts.capture(caller, input, request.ip),
    {
      auth,
    },
  );
}
