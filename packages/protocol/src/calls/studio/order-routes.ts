import { type CallRoute, route } from '../player-routes.ts';

/**
 * The studio's orders, contacts and mail outbox (studio/order-calls.ts), all the owner's: orders
 * carry revenue (hosts run shows, moderators chat: neither sees it), contacts and mails are
 * shoppers' personal data.
 */
export const ORDER_ROUTES = {
  listStudioOrders: route({ method: 'GET', path: '/staff/stores/:pageUid/orders', auth: { staff: 'owner' } }),
  studioOrderFilters: route({
    method: 'GET',
    path: '/staff/stores/:pageUid/orders/filters',
    auth: { staff: 'owner' },
  }),
  exportStudioOrders: route({
    method: 'GET',
    path: '/staff/stores/:pageUid/orders/export',
    auth: { staff: 'owner' },
  }),
  getStudioOrder: route({
    method: 'GET',
    path: '/staff/stores/:pageUid/orders/:checkoutUid',
    auth: { staff: 'owner' },
  }),
  sendStudioOrderToPacking: route({
    method: 'POST',
    path: '/staff/stores/:pageUid/orders/:checkoutUid/packing',
    auth: { staff: 'owner' },
  }),
  advanceStudioOrder: route({
    method: 'POST',
    path: '/staff/stores/:pageUid/orders/:checkoutUid/fulfilment',
    auth: { staff: 'owner' },
  }),
  refundStudioOrder: route({
    method: 'POST',
    path: '/staff/stores/:pageUid/orders/:checkoutUid/refunds',
    auth: { staff: 'owner' },
  }),
  listStudioContacts: route({
    method: 'GET',
    path: '/staff/stores/:pageUid/contacts',
    auth: { staff: 'owner' },
  }),
  exportStudioContacts: route({
    method: 'GET',
    path: '/staff/stores/:pageUid/contacts/export',
    auth: { staff: 'owner' },
  }),
  listStudioMail: route({ method: 'GET', path: '/staff/stores/:pageUid/mail', auth: { staff: 'owner' } }),
} as const satisfies Record<string, CallRoute>;
