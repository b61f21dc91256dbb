import type { LiveEvent } from '@vitrine/protocol';
import type { HostAction } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';
import type { HostBridgeView } from '../host-bridge/host-bridge-context.tsx';
import { cartModeOf } from './product-commerce.ts';

const NOW = 1_800_000_000_000;

/** The fields of an event the cart mode reads; the rest of the record plays no part. */
function eventWith(overrides: {
  onsiteCartMode?: 'cart' | 'product' | null;
  usingCheckout?: boolean;
  leadModeAfterDeadline?: boolean;
  deadline?: number | null;
}): LiveEvent {
  return {
    event: {
      onsiteCartMode: overrides.onsiteCartMode ?? 'cart',
      leadModeAfterDeadline: overrides.leadModeAfterDeadline ?? false,
    },
    campaign: { deadline: overrides.deadline ?? null, usingCheckout: overrides.usingCheckout ?? false },
  } as unknown as LiveEvent;
}

/** A host view: standalone (no SDK page), or embedded with the given actions and forced basket mode. */
function hostView(
  options: {
    embedded?: boolean;
    connected?: boolean;
    actions?: HostAction[] | null;
    forcedBasketMode?: HostBridgeView['forcedBasketMode'];
  } = {},
): HostBridgeView {
  const embedded = options.embedded ?? false;
  const connected = embedded && (options.connected ?? true);
  const actions = options.actions === undefined ? [] : options.actions;
  return {
    embedded,
    connected,
    capabilities: embedded && actions !== null ? { usableActions: actions } : null,
    supports: (action: HostAction) => connected && (actions ?? []).includes(action),
    forcedBasketMode: options.forcedBasketMode ?? null,
  } as unknown as HostBridgeView;
}

describe('cartModeOf', () => {
  it('uses the built-in cart when there is no host page', () => {
    expect(cartModeOf(hostView(), eventWith({}), NOW)).toBe('cart');
  });

  it('links out in link mode even without a host page (spec §4 "Link mode")', () => {
    expect(cartModeOf(hostView(), eventWith({ usingCheckout: true }), NOW)).toBe('link');
    expect(cartModeOf(hostView(), eventWith({ onsiteCartMode: 'product' }), NOW)).toBe('link');
    expect(cartModeOf(hostView(), eventWith({ leadModeAfterDeadline: true, deadline: NOW - 1 }), NOW)).toBe(
      'link',
    );
  });

  it('waits for an embedded player’s host before offering any cart', () => {
    expect(cartModeOf(hostView({ embedded: true, connected: false }), eventWith({}), NOW)).toBe(
      'unavailable',
    );
    expect(cartModeOf(hostView({ embedded: true, actions: null }), eventWith({}), NOW)).toBe('unavailable');
  });

  it('adds to the host’s cart when it takes UPDATE_CART_CONTENTS, else to the built-in one', () => {
    expect(
      cartModeOf(hostView({ embedded: true, actions: ['UPDATE_CART_CONTENTS'] }), eventWith({}), NOW),
    ).toBe('hostCart');
    expect(cartModeOf(hostView({ embedded: true, actions: ['OPEN_CART'] }), eventWith({}), NOW)).toBe('cart');
    expect(
      cartModeOf(
        hostView({ embedded: true, actions: [], forcedBasketMode: 'VITRINE' }),
        eventWith({ usingCheckout: true }),
        NOW,
      ),
    ).toBe('cart');
  });

  it('hides cart features when the host forces FAVORITES', () => {
    expect(
      cartModeOf(
        hostView({ embedded: true, actions: ['UPDATE_CART_CONTENTS'], forcedBasketMode: 'FAVORITES' }),
        eventWith({}),
        NOW,
      ),
    ).toBe('favorites');
  });
});
