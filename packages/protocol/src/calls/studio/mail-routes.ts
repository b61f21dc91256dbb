import { type CallRoute, route } from '../player-routes.ts';

/**
 * The studio's mail delivery calls (studio/mail-calls.ts), the owner's: the mails are shoppers'
 * personal data, and a test mail goes out under the store's name.
 */
export const MAIL_ROUTES = {
  getMailDelivery: route({
    method: 'GET',
    path: '/staff/stores/:pageUid/mail-delivery',
    auth: { staff: 'owner' },
  }),
  sendTestMail: route({
    method: 'POST',
    path: '/staff/stores/:pageUid/mail-delivery/test',
    auth: { staff: 'owner' },
  }),
  resendMail: route({
    method: 'POST',
    path: '/staff/stores/:pageUid/mail/:mailUid/resend',
    auth: { staff: 'owner' },
  }),
} as const satisfies Record<string, CallRoute>;
