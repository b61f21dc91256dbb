import { ContactCaptureRequest } from '@vitrine/protocol';
import type { FastifyInstance } from 'fastify';
import { parseInput } from '../../http/errors.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { ContactService } from './contact-service.ts';

export function registerContactRoutes(
  app: FastifyInstance,
  contacts: ContactService,
  auth: AuthService,
): void {
  app.post('/shopapiv2/contact/capture', async (request) => {
    const caller = await auth.requireUser(request);
    return contacts.capture(caller, parseInput(ContactCaptureRequest, request.body), request.ip);
  });
}
