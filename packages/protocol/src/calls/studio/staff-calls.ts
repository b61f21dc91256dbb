import { STAFF_ROLES } from '@vitrine/domain';
import { z } from 'zod';
import { Email, PASSWORD_MAX_LENGTH, Password } from '../../accounts.ts';
import { AuthSession } from '../../auth.ts';
import { Uid } from '../../common.ts';
import { call } from '../define-call.ts';

/** The roles of domain/staff-roles.ts, which also ranks them. */
export const StaffRoleSchema = z.enum(STAFF_ROLES);

/** A one-time token of a studio link or an invitation, as it travels in a URL's fragment. */
export const OneTimeToken = z.string().min(20, 'is not a valid link').max(128, 'is not a valid link');

export const StaffStore = z.object({
  pageUid: Uid,
  name: z.string(),
  logo: z.string().nullable(),
  role: StaffRoleSchema,
});
export type StaffStore = z.infer<typeof StaffStore>;

/** Who is signed in to the studio and the stores they are staff of. */
export const StudioSession = z.object({
  user: z.object({ uid: Uid, name: z.string(), email: z.string().nullable(), isAnonymous: z.boolean() }),
  stores: z.array(StaffStore),
});
export type StudioSession = z.infer<typeof StudioSession>;

export const StaffMember = z.object({
  userUid: Uid,
  name: z.string(),
  email: z.string().nullable(),
  role: StaffRoleSchema,
  /** Milliseconds since the epoch. */
  addedAt: z.number(),
});
export type StaffMember = z.infer<typeof StaffMember>;

export const StaffInvitation = z.object({
  uid: Uid,
  email: z.string(),
  role: StaffRoleSchema,
  invitedBy: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
});
export type StaffInvitation = z.infer<typeof StaffInvitation>;

export const AuditEntry = z.object({
  id: z.string(),
  at: z.number(),
  /** The staff member's name (or e-mail), or "Admin key" for automation. */
  actor: z.string(),
  actorUid: Uid.nullable(),
  /** The call's name in the catalogue, e.g. `putStudioProduct`. */
  action: z.string(),
  /** The call's path parameters but the store, e.g. `{ productUid }`. */
  target: z.record(z.string(), z.string()),
  /** What was sent, secrets and large fields left out. */
  details: z.unknown(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

const StorePath = z.object({ pageUid: Uid });

export const ChangePasswordRequest = z
  .object({
    /** Needed when the account has a password already. */
    currentPassword: z.string().max(PASSWORD_MAX_LENGTH).optional(),
    newPassword: Password,
  })
  .strict();
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** Studio sign-in, staff memberships and invitations, and the audit log. */
export const staffCalls = {
  // By path, then method in the order of CALL_METHODS (call-types.ts); api-docs.test.ts checks it.
  acceptInvitation: call({
    method: 'POST',
    path: '/staff/invitations/accept',
    auth: 'viewer',
    summary:
      "Makes the signed-in account staff of the invitation's store; only an account with the invited address may (403 otherwise). The link is then spent.",
    request: z.object({ token: OneTimeToken }).strict(),
    response: StaffStore,
  }),
  invitationInfo: call({
    method: 'POST',
    path: '/staff/invitations/lookup',
    auth: 'anonymous',
    summary:
      'What an invitation link is for (store, role, the invited address masked), before signing in to accept it.',
    request: z.object({ token: OneTimeToken }).strict(),
    response: z.object({
      storeName: z.string(),
      role: StaffRoleSchema,
      /** The invited address, masked ("j•••@e•••.com"): the link may have reached someone else. */
      emailHint: z.string(),
      expiresAt: z.number(),
    }),
  }),
  redeemStudioLink: call({
    method: 'POST',
    path: '/staff/links/redeem',
    auth: 'anonymous',
    summary:
      'Signs in with a one-time studio link (e-mailed on request, or printed by `npm start` for the demo owner and by `npm run studio:owner`); a used or expired link is refused.',
    request: z.object({ token: OneTimeToken }).strict(),
    response: AuthSession,
  }),
  studioSession: call({
    method: 'GET',
    path: '/staff/me',
    auth: 'viewer',
    summary: 'Who is signed in and the stores they are staff of, with their role in each.',
    response: StudioSession,
  }),
  changePassword: call({
    method: 'POST',
    path: '/staff/me/password',
    auth: 'viewer',
    summary:
      "Sets the signed-in account's password (an owner made by a studio link has none yet); replacing one needs the current password.",
    request: ChangePasswordRequest,
    response: null,
    status: 204,
  }),
  listAuditLog: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/audit',
    auth: { staff: 'owner' },
    summary: 'Staff actions in the store, newest first: who changed what, when (owners only).',
    params: StorePath,
    query: z.object({
      before: z.string().regex(/^\d+$/, 'must be an entry id').optional(),
      limit: z.coerce.number().int().min(1).max(200).default(50),
    }),
    response: z.object({ entries: z.array(AuditEntry), nextBefore: z.string().nullable() }),
  }),
  inviteStaff: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/invitations',
    auth: { staff: 'owner' },
    summary:
      'Invites someone by e-mail to a role; the e-mail carries a one-time link (also answered, to hand over another way).',
    params: StorePath,
    request: z.object({ email: Email, role: StaffRoleSchema }).strict(),
    response: z.object({ invitation: StaffInvitation, acceptUrl: z.string() }),
    status: 201,
  }),
  revokeInvitation: call({
    method: 'DELETE',
    path: '/staff/stores/:pageUid/invitations/:invitationUid',
    auth: { staff: 'owner' },
    summary: 'Withdraws an open invitation; its link stops working.',
    params: z.object({ pageUid: Uid, invitationUid: Uid }),
    response: null,
    status: 204,
  }),
  resendInvitation: call({
    method: 'POST',
    path: '/staff/stores/:pageUid/invitations/:invitationUid/resend',
    auth: { staff: 'owner' },
    summary:
      'Sends an open invitation again with a new link (the old one stops working) and a new expiry; the link is answered too.',
    params: z.object({ pageUid: Uid, invitationUid: Uid }),
    response: z.object({ invitation: StaffInvitation, acceptUrl: z.string() }),
  }),
  listStaff: call({
    method: 'GET',
    path: '/staff/stores/:pageUid/members',
    auth: { staff: 'owner' },
    summary: "The store's staff and open invitations.",
    params: StorePath,
    response: z.object({ members: z.array(StaffMember), invitations: z.array(StaffInvitation) }),
  }),
  changeStaffRole: call({
    method: 'PATCH',
    path: '/staff/stores/:pageUid/members/:userUid',
    auth: { staff: 'owner' },
    summary: "Changes a member's role; the last owner cannot stop being one.",
    params: z.object({ pageUid: Uid, userUid: Uid }),
    request: z.object({ role: StaffRoleSchema }).strict(),
    response: StaffMember,
  }),
  removeStaff: call({
    method: 'DELETE',
    path: '/staff/stores/:pageUid/members/:userUid',
    auth: { staff: 'owner' },
    summary: 'Removes a member from the store; the last owner cannot be removed.',
    params: z.object({ pageUid: Uid, userUid: Uid }),
    response: null,
    status: 204,
  }),
};
