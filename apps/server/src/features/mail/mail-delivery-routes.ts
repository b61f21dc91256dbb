import type { FastifyInstance } from 'fastify';
import type { StaffGate } from '../../http/caller.ts';
import { registerCall } from '../../http/register-call.ts';
import type { StaffService } from '../staff/staff-service.ts';
import type { StoreService } from '../stores/store-service.ts';
import type { MailDeliveryService } from './mail-delivery.ts';

/** The studio's mail delivery calls (owners): the settings in use, a test mail, "Send again". */
export function registerMailDeliveryRoutes(
  app: FastifyInstance,
  deps: { delivery: MailDeliveryService; staff: StaffService; stores: StoreService; staffGate: StaffGate },
): void {
  const { delivery, staff, stores, staffGate } = deps;
  registerCall(app, 'getMailDelivery', (_body, { params }) => delivery.delivery(params.pageUid), {
    staffGate,
  });
  registerCall(
    app,
    'sendTestMail',
    async (_body, { params, caller }) => {
      // To the signed-in owner's own address (the admin key is no one: it has none).
      const { members } = await staff.listStaff(params.pageUid);
      const me = members.find((member) => member.userUid === caller.userUid);
      // In the store's language, under its name: the mail its shoppers would get comes the same way.
      const [{ name }, { language }] = await Promise.all([
        stores.storeInfo(params.pageUid),
        stores.pageSummary(params.pageUid),
      ]);
      return delivery.sendTest(me?.email ?? null, { name, language });
    },
    { staffGate },
  );
  registerCall(app, 'resendMail', (_body, { params }) => delivery.resend(params.pageUid, params.mailUid), {
    staffGate,
  });
}
