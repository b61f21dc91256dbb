// The words a call's route is written in: its method, its path and who may make it. Zod-free, as
// the generated route tables (*-routes.generated.ts) that the web's first load imports use them.

/**
 * A store staff role. Each includes the ones after it: an owner may do all a host may, a host all
 * a moderator may (domain staff-roles.ts).
 * - owner: everything, including staff, payment settings and revenue.
 * - host: shows, products, going live and chat.
 * - moderator: chat and competitions only; never sees revenue.
 */
export type StaffRole = 'owner' | 'host' | 'moderator';

/**
 * Who may make a call:
 * - `anonymous`: anyone; credentials are not looked at.
 * - `optional-viewer`: anyone; a bearer id token, when sent, must be valid (else 401) and names the caller.
 * - `viewer`: a bearer id token of a user, anonymous or signed in (401 without).
 * - `admin`: the admin key as bearer (401 without), checked before the body is read.
 * - `{ staff }`: a signed-in member of the store named by the path's `:pageUid` whose role includes
 *   that one (or the admin key, for automation); every staff call's path has `:pageUid`.
 */
export type CallAuth = 'anonymous' | 'optional-viewer' | 'viewer' | 'admin' | { staff: StaffRole };

/** The HTTP methods calls use, in the order each area file sorts a path's calls in. */
export const CALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type CallMethod = (typeof CALL_METHODS)[number];

/** Where a call is served (`:name` segments are path parameters) and who may make it. */
export interface CallRoute {
  method: CallMethod;
  path: string;
  auth: CallAuth;
}
