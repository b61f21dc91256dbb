import { route } from '../player-routes.ts';

/** Studio sign-in, staff memberships and invitations, and the audit log (studio/staff-calls.ts). */
export const STAFF_ROUTES = {
  studioSession: route({ method: 'GET', path: '/staff/me', auth: 'viewer' }),
  redeemStudioLink: route({ method: 'POST', path: '/staff/links/redeem', auth: 'anonymous' }),
  changePassword: route({ method: 'POST', path: '/staff/me/password', auth: 'viewer' }),
  listStaff: route({ method: 'GET', path: '/staff/stores/:pageUid/members', auth: { staff: 'owner' } }),
  inviteStaff: route({
    method: 'POST',
    path: '/staff/stores/:pageUid/invitations',
    auth: { staff: 'owner' },
  }),
  resendInvitation: route({
    method: 'POST',
    path: '/staff/stores/:pageUid/invitations/:invitationUid/resend',
    auth: { staff: 'owner' },
  }),
  revokeInvitation: route({
    method: 'DELETE',
    path: '/staff/stores/:pageUid/invitations/:invitationUid',
    auth: { staff: 'owner' },
  }),
  changeStaffRole: route({
    method: 'PATCH',
    path: '/staff/stores/:pageUid/members/:userUid',
    auth: { staff: 'owner' },
  }),
  removeStaff: route({
    method: 'DELETE',
    path: '/staff/stores/:pageUid/members/:userUid',
    auth: { staff: 'owner' },
  }),
  invitationInfo: route({ method: 'POST', path: '/staff/invitations/lookup', auth: 'anonymous' }),
  acceptInvitation: route({ method: 'POST', path: '/staff/invitations/accept', auth: 'viewer' }),
  listAuditLog: route({ method: 'GET', path: '/staff/stores/:pageUid/audit', auth: { staff: 'owner' } }),
} as const;
