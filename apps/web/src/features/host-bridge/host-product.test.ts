import type { EventProduct } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import { findByHostId, hostProductId, productLookup, withHostData } from './host-product.ts';

function eventProduct(externalId: string): EventProduct {
  return {
    uid: 'ep1',
    eventId: 'e1',
    productUid: 'prod-1',
    externalId: '',
    sku: 'SKU-EVENT',
    url: null,
    relativeCues: [],
    absoluteCues: [],
    cues: [],
    presentationTime: null,
    presentationEndTime: null,
    sorting: 0,
    studioControlled: false,
    showAllProductsWhenEventStarts: false,
    product: {
      uid: 'prod-1',
      pageUid: 'demo-store',
      externalId,
      name: 'Catalogue name',
      description: '',
      sku: '',
      url: 'https://shop.example/p',
      images: [],
      prices: { DKK: 10000 },
      stock: null,
      options: [],
      variants: [],
    },
  };
}

describe('host product ids', () => {
  it('names a product by its external id, else its uid', () => {
    expect(hostProductId(eventProduct('EXT-9'))).toBe('EXT-9');
    expect(hostProductId(eventProduct(''))).toBe('prod-1');
  });

  it('looks products up with id, sku and url', () => {
    expect(productLookup(eventProduct('EXT-9'))).toEqual({
      product_id: 'EXT-9',
      sku: 'SKU-EVENT',
      url: 'https://shop.example/p',
    });
  });

  it('finds the product a host message names, and none for unknown ids', () => {
    const products = [eventProduct('EXT-9')];
    expect(findByHostId(products, 'EXT-9')).toBe(products[0]);
    expect(findByHostId(products, 'prod-1')).toBeUndefined();
    expect(findByHostId(products, null)).toBeUndefined();
  });
});

describe('withHostData', () => {
  it('lays the host’s name and price (major units, store currency) over the product', () => {
    const product = withHostData(
      eventProduct('EXT-9'),
      { product_id: 'EXT-9', name: 'Host', price: 49.5 },
      'DKK',
    );
    expect(product.product.name).toBe('Host');
    expect(product.product.prices).toEqual({ DKK: 4950 });
  });

  it('leaves the product alone without data', () => {
    const original = eventProduct('EXT-9');
    expect(withHostData(original, null, 'DKK')).toBe(original);
  });
});
