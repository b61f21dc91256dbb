import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { AuthService } from '../auth/auth-service.ts';
import type { ContactService } from './contact-service.ts';

export function registerContactRoutes(
  app: FastifyInstance,
  contacts: ContactService,
  auth: AuthService,
  staffGate: StaffGate,
): void {
  registerCall(
    app,
    'listStudioContacts',
    (_body, { params, query }) => contacts.listCaptures(params.pageUid, query),
    { staffGate },
  );
  registerCall(
    app,
    'exportStudioContacts',
    (_body, { params, query }) => contacts.exportCaptures(params.pageUid, query.consent),
    { staffGate },
  );
  registerCall(
    app,
    'captureContact',
    (input, { caller, request }) => contacts.capture(caller, input, request.ip),
    {
      auth,
    },
  );
}
