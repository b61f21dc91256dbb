import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { MailService } from './mail-service.ts';

/** The studio's mail outbox (owners). */
export function registerMailRoutes(app: FastifyInstance, mail: MailService, staffGate: StaffGate): void {
  registerCall(app, 'listStudioMail', (_body, { params, query }) => mail.outbox(params.pageUid, query), {
    staffGate,
  });
}
