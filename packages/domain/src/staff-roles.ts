/**
 * Store staff roles, from the most to the least trusted. Each role may do everything the roles
 * after it may: an owner all a host may (plus staff, payment settings and revenue), a host all a
 * moderator may (plus shows, products and going live); a moderator runs chat and competitions.
 */
export const STAFF_ROLES = ['owner', 'host', 'moderator'] as const;
export type StaffRoleName = (typeof STAFF_ROLES)[number];

/** Whether a member holding `held` may make a call that requires `required`. */
export function roleIncludes(held: StaffRoleName, required: StaffRoleName): boolean {
  return STAFF_ROLES.indexOf(held) <= STAFF_ROLES.indexOf(required);
}

/**
 * Whether a change of memberships leaves the store with an owner: the last owner can neither
 * leave nor be demoted, or nobody could manage the store's staff and payments again.
 */
export function keepsAnOwner(
  roles: readonly StaffRoleName[],
  change: { from: StaffRoleName; to: StaffRoleName | null },
): boolean {
  if (change.from !== 'owner' || change.to === 'owner') return true;
  return roles.filter((role) => role === 'owner').length > 1;
}
