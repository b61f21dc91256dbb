import { describe, expect, it } from 'vitest';
import { completeCheckoutAddress, joinPostcodeAndCity, splitFullName } from './checkout-address.ts';

const typed = {
  name: 'Anna Marie Jensen',
  address: 'Østerbrogade 1',
  postCode: '2100',
  city: 'København Ø',
  phone: '+45 12345678',
  emailAddress: 'anna@example.com',
  note: 'Ring twice, please',
};

describe('splitFullName', () => {
  it('splits at the last space: first names, then the last name', () => {
    expect(splitFullName('Anna Marie Jensen')).toEqual({ firstName: 'Anna Marie', lastName: 'Jensen' });
    expect(splitFullName('  Ole   Hansen ')).toEqual({ firstName: 'Ole', lastName: 'Hansen' });
  });

  it('gives a single word as the first name and blank as nothing', () => {
    expect(splitFullName('Cher')).toEqual({ firstName: 'Cher', lastName: '' });
    expect(splitFullName('  ')).toEqual({ firstName: '', lastName: '' });
  });
});

describe('joinPostcodeAndCity', () => {
  it('joins post code and city with a space, or gives whichever is filled', () => {
    expect(joinPostcodeAndCity('2100', 'København Ø')).toBe('2100 København Ø');
    expect(joinPostcodeAndCity('', 'Aarhus')).toBe('Aarhus');
    expect(joinPostcodeAndCity('8000', ' ')).toBe('8000');
  });
});

describe('completeCheckoutAddress', () => {
  it('adds the spec §3 fields derived from what the shopper typed', () => {
    expect(completeCheckoutAddress(typed)).toEqual({
      ...typed,
      firstName: 'Anna Marie',
      lastName: 'Jensen',
      postcodeAndCity: '2100 København Ø',
      commentField: 'Ring twice, please',
    });
  });

  it('replaces derived values a client sent that disagree with the typed ones', () => {
    const sent = { ...typed, firstName: 'X', lastName: 'Y', postcodeAndCity: '1 Z', commentField: 'other' };
    expect(completeCheckoutAddress(sent)).toMatchObject({
      firstName: 'Anna Marie',
      lastName: 'Jensen',
      postcodeAndCity: '2100 København Ø',
      commentField: 'Ring twice, please',
    });
  });
});
