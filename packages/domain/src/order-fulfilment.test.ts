import { describe, expect, it } from 'vitest';
import { fulfilmentRefusal, isHttpUrl, nextFulfilmentSteps, trackingLink } from './order-fulfilment.ts';

describe('order fulfilment', () => {
  it('moves packing → packed → shipped → delivered, and nowhere back', () => {
    const move = (
      from: Parameters<typeof fulfilmentRefusal>[0]['from'],
      to: 'packed' | 'shipped' | 'delivered',
    ) => fulfilmentRefusal({ role: 'owner', from, to, shippingMethod: 'home_delivery' });
    expect(move('packing', 'packed')).toBeNull();
    expect(move('packed', 'shipped')).toBeNull();
    expect(move('shipped', 'delivered')).toBeNull();
    expect(move('packing', 'shipped')).toBeNull();
    expect(move('packing', 'delivered')).toBe('notNext');
    expect(move('delivered', 'shipped')).toBe('notNext');
    expect(move('shipped', 'packed')).toBe('notNext');
    expect(move(null, 'packed')).toBe('notSentToPacking');
  });

  it('lets only the owner move orders', () => {
    for (const role of ['host', 'moderator'] as const) {
      expect(fulfilmentRefusal({ role, from: 'packing', to: 'packed', shippingMethod: null })).toBe('role');
    }
  });

  it('collects a pickup order instead of shipping it', () => {
    expect(nextFulfilmentSteps('packed', 'store_pickup')).toEqual(['delivered']);
    expect(nextFulfilmentSteps('packing', 'store_pickup')).toEqual(['packed']);
    expect(
      fulfilmentRefusal({ role: 'owner', from: 'packed', to: 'shipped', shippingMethod: 'store_pickup' }),
    ).toBe('notNext');
    expect(nextFulfilmentSteps('packed', 'home_delivery')).toEqual(['shipped', 'delivered']);
  });

  it('links a known carrier by template and a pasted URL only when it is http(s)', () => {
    expect(trackingLink('gls', ' 12 34/5 ', null)).toBe('https://gls-group.com/track/12%2034%2F5');
    expect(trackingLink('Local courier', '77', null)).toBeNull();
    expect(trackingLink('Local courier', '77', 'https://courier.example/t/77')).toBe(
      'https://courier.example/t/77',
    );
    expect(trackingLink('gls', '77', 'javascript:alert(1)')).toBeNull();
    expect(trackingLink('toString', '77', null)).toBeNull();
    expect(isHttpUrl('http://a.example/x')).toBe(true);
    expect(isHttpUrl('ftp://a.example/x')).toBe(false);
    expect(isHttpUrl('data:text/html,hi')).toBe(false);
    expect(isHttpUrl('not a url')).toBe(false);
  });
});
