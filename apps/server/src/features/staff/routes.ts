import type { StaffInvitation, StaffRole } from '@vitrine/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthFailureLimiter } from '../../http/auth-failure-limit.ts';
import type { RequestAuthenticator, StaffGate } from '../../http/caller.ts';
import { HttpError } from '../../http/errors.ts';
import { registerCall } from '../../http/register-call.ts';
import type { StaffService, StoreCards } from './staff-service.ts';

/** Where an invitation's link leads: the studio's accept page, the token in the fragment. */
export const invitationUrl = (origin: string, token: string) => `${origin}/studio/invitation#${token}`;
/** Where a one-time studio link leads. */
export const studioLinkUrl = (origin: string, token: string) => `${origin}/studio/link#${token}`;

export function registerStaffRoutes(
  app: FastifyInstance,
  deps: {
    staff: StaffService;
    stores: StoreCards;
    auth: RequestAuthenticator;
    staffGate: StaffGate;
    /** Counts failed one-time tokens (studio links, invitations) per client address: guessing is refused. */
    failures?: AuthFailureLimiter;
    /** Sends the invitation e-mail (the mail feature); the link is answered to the owner too. */
    sendInvitation?: (invitation: {
      pageUid: string;
      email: string;
      role: StaffRole;
      url: string;
      /** Milliseconds since the epoch. */
      expiresAt: number;
    }) => Promise<void>;
    /** The origin links point at: the configured public URL, else the request's own. */
    publicOrigin: (request: FastifyRequest) => string;
  },
): void {
  const { staff, auth, staffGate } = deps;
  /** Runs a one-time token's use; an unknown, used or expired token (401/404) counts as a failure. */
  const spendingToken = async <T>(request: FastifyRequest, use: () => Promise<T>): Promise<T> => {
    await deps.failures?.admit('oneTimeToken', request);
    try {
      return await use();
    } catch (error) {
      if (error instanceof HttpError && (error.statusCode === 401 || error.statusCode === 404)) {
        const refusal = await deps.failures?.failed('oneTimeToken', request);
        if (refusal) throw refusal;
      }
      throw error;
    }
  };
  /** Mails an invitation's link to the invitee and answers the inviter with it too. */
  const mailInvitation = async (
    request: FastifyRequest,
    pageUid: string,
    { invitation, token }: { invitation: StaffInvitation; token: string },
  ) => {
    const acceptUrl = invitationUrl(deps.publicOrigin(request), token);
    await deps.sendInvitation?.({
      pageUid,
      email: invitation.email,
      role: invitation.role,
      url: acceptUrl,
      expiresAt: invitation.expiresAt,
    });
    return { invitation, acceptUrl };
  };
  registerCall(app, 'studioSession', (_body, { caller }) => staff.studioSession(caller.userUid), {
    auth,
    signInMessage: 'Sign in to the studio with your staff account.',
  });
  registerCall(app, 'redeemStudioLink', ({ token }, { request }) =>
    spendingToken(request, () => staff.redeemStudioLink(token)),
  );
  registerCall(app, 'listStaff', (_body, { params }) => staff.listStaff(params.pageUid), { staffGate });
  registerCall(
    app,
    'inviteStaff',
    async (input, { params, caller, request }) =>
      mailInvitation(
        request,
        params.pageUid,
        await staff.invite(params.pageUid, { ...input, invitedBy: caller.userUid }),
      ),
    { staffGate },
  );
  registerCall(
    app,
    'resendInvitation',
    async (_body, { params, request }) =>
      mailInvitation(
        request,
        params.pageUid,
        await staff.resendInvitation(params.pageUid, params.invitationUid),
      ),
    { staffGate },
  );
  registerCall(
    app,
    'revokeInvitation',
    (_body, { params }) => staff.revokeInvitation(params.pageUid, params.invitationUid),
    { staffGate },
  );
  registerCall(
    app,
    'changeStaffRole',
    ({ role }, { params }) => staff.changeRole(params.pageUid, params.userUid, role),
    { staffGate },
  );
  registerCall(
    app,
    'removeStaff',
    (_body, { params }) => staff.removeMember(params.pageUid, params.userUid),
    {
      staffGate,
    },
  );
  registerCall(app, 'invitationInfo', async ({ token }, { request }) => {
    const info = await spendingToken(request, () => staff.invitationInfo(token));
    const card = (await deps.stores.storeCards([info.pageUid])).get(info.pageUid);
    return {
      storeName: card?.name ?? '',
      role: info.role,
      emailHint: info.emailHint,
      expiresAt: info.expiresAt,
    };
  });
  registerCall(
    app,
    'acceptInvitation',
    async ({ token }, { caller, request }) => {
      const { pageUid, role } = await spendingToken(request, () =>
        staff.acceptInvitation(token, caller.userUid),
      );
      const card = (await deps.stores.storeCards([pageUid])).get(pageUid);
      return { pageUid, role, name: card?.name ?? '', logo: card?.logo ?? null };
    },
    { auth, signInMessage: 'Sign in or create an account to accept the invitation.' },
  );
  registerCall(app, 'listAuditLog', (_body, { params, query }) => staff.auditLog(params.pageUid, query), {
    staffGate,
  });
}
