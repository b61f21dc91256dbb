import { WIDGET_CONTEXTS } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';
import { accountEntry, forcesAnonymousUse, loadsCart, parseWidgetContext } from './widget-context.ts';

describe('parseWidgetContext', () => {
  it('accepts the four contexts of spec §1 and nothing else', () => {
    for (const context of WIDGET_CONTEXTS) expect(parseWidgetContext(context)).toBe(context);
    expect(parseWidgetContext('onsite')).toBeNull();
    expect(parseWidgetContext(null)).toBeNull();
    expect(parseWidgetContext(undefined)).toBeNull();
  });
});

describe('forcesAnonymousUse (spec §1)', () => {
  it('is on for own-brand, store-offers and on_site', () => {
    expect(forcesAnonymousUse('on_site')).toBe(true);
    expect(forcesAnonymousUse('own-brand')).toBe(true);
    expect(forcesAnonymousUse('store-offers')).toBe(true);
    expect(forcesAnonymousUse('checkout')).toBe(false);
    expect(forcesAnonymousUse(null)).toBe(false);
  });
});

describe('loadsCart (spec §4 "Cart loading happens for logged-in users, or for anonymous ones in the on_site context")', () => {
  it('loads for logged-in users anywhere, for anonymous ones only on_site', () => {
    expect(loadsCart('checkout', false)).toBe(true);
    expect(loadsCart(null, false)).toBe(true);
    expect(loadsCart('on_site', true)).toBe(true);
    expect(loadsCart('own-brand', true)).toBe(false);
    expect(loadsCart('checkout', true)).toBe(false);
  });
});

describe('accountEntry (spec §1 forced anonymous use)', () => {
  const anonymous = { isAnonymous: true, name: '' };
  const named = { isAnonymous: true, name: 'Ada' };
  const signedIn = { isAnonymous: false, name: '' };

  it('offers no sign-in or account button in on_site, own-brand and store-offers, whoever watches', () => {
    for (const context of ['on_site', 'own-brand', 'store-offers'] as const)
      for (const viewer of [null, anonymous, named, signedIn])
        expect(accountEntry(context, viewer)).toBeNull();
  });

  it('offers sign-in to an anonymous viewer and the account to a named or signed-in one elsewhere', () => {
    for (const context of ['checkout', null] as const) {
      expect(accountEntry(context, null)).toBe('signIn');
      expect(accountEntry(context, anonymous)).toBe('signIn');
      expect(accountEntry(context, named)).toBe('account');
      expect(accountEntry(context, signedIn)).toBe('account');
    }
  });
});
