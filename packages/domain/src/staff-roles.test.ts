import { describe, expect, it } from 'vitest';
import { keepsAnOwner, roleIncludes, STAFF_ROLES } from './staff-roles.ts';

describe('roleIncludes', () => {
  it('lets each role do what the roles after it may, and nothing above it', () => {
    const allowed = STAFF_ROLES.flatMap((held) =>
      STAFF_ROLES.filter((required) => roleIncludes(held, required)).map((required) => `${held}→${required}`),
    );
    expect(allowed).toEqual([
      'owner→owner',
      'owner→host',
      'owner→moderator',
      'host→host',
      'host→moderator',
      'moderator→moderator',
    ]);
  });
});

describe('keepsAnOwner', () => {
  it('refuses to demote or remove the only owner', () => {
    expect(keepsAnOwner(['owner', 'host'], { from: 'owner', to: 'host' })).toBe(false);
    expect(keepsAnOwner(['owner', 'host'], { from: 'owner', to: null })).toBe(false);
  });

  it('allows it when another owner remains, and any change of other members', () => {
    expect(keepsAnOwner(['owner', 'owner'], { from: 'owner', to: null })).toBe(true);
    expect(keepsAnOwner(['owner', 'host'], { from: 'host', to: null })).toBe(true);
    expect(keepsAnOwner(['owner'], { from: 'moderator', to: 'owner' })).toBe(true);
  });
});
