import { describe, expect, it } from 'vitest';
import { isInvitedAddress, maskedAddress } from './staff-invitation.ts';

describe('isInvitedAddress', () => {
  it('accepts the invited address whatever its case or surrounding spaces', () => {
    expect(isInvitedAddress('Jane@Shop.example', 'jane@shop.example')).toBe(true);
    expect(isInvitedAddress('jane@shop.example', ' JANE@shop.example ')).toBe(true);
  });
  it('refuses another address and an account without one', () => {
    expect(isInvitedAddress('jane@shop.example', 'mallory@shop.example')).toBe(false);
    expect(isInvitedAddress('jane@shop.example', 'jane@shop.example.evil')).toBe(false);
    expect(isInvitedAddress('jane@shop.example', null)).toBe(false);
  });
});

describe('maskedAddress', () => {
  it('keeps the first letters and the top-level domain only', () => {
    expect(maskedAddress('jane.doe@example.com')).toBe('j•••@e•••.com');
    expect(maskedAddress('ø@butik.dk')).toBe('ø•••@b•••.dk');
  });
  it('hides an address it cannot read', () => {
    expect(maskedAddress('no-at-sign')).toBe('•••');
    expect(maskedAddress('a@localhost')).toBe('a•••@•••');
  });
});
