import { describe, expect, it } from 'vitest';
import { hostProductExtras } from './host-product-extras.ts';

describe('hostProductExtras (spec §3 "Host product data")', () => {
  it('converts the reseller prices to minor units of the store currency and keeps the markup', () => {
    expect(
      hostProductExtras({ suggestedRetailPrice: 299.95, b2bRetailPrice: 180, retail_markup: 35 }, 'DKK'),
    ).toEqual({
      suggestedRetailPrice: 29995,
      b2bRetailPrice: 18000,
      retailMarkupPercent: 35,
      optionValues: [],
    });
  });

  it('answers null when the data carries no extras (a price alone, nulls, or values without extras)', () => {
    expect(hostProductExtras({}, 'EUR')).toBeNull();
    expect(
      hostProductExtras({ suggestedRetailPrice: null, b2bRetailPrice: null, retail_markup: null }, 'EUR'),
    ).toBeNull();
    expect(
      hostProductExtras({ options: [{ id: 'colour', optionValues: [{ id: 'rust' }] }] }, 'EUR'),
    ).toBeNull();
  });

  it('takes the first usable picture as the swatch, a web style page and the minimum price per option value', () => {
    const extras = hostProductExtras(
      {
        options: [
          {
            id: 'colour',
            optionValues: [
              {
                id: 'rust',
                images: ['javascript:alert(1)', 'https://shop.example/rust.jpg'],
                styleUrl: 'https://shop.example/styles/rust',
                minimumPrice: 49.5,
              },
              {
                id: 'sage',
                images: ['data:image/png;base64,AAAA'],
                styleUrl: 'javascript:alert(1)',
                minimumPrice: -1,
              },
              { id: 'sand', minimumPrice: 45 },
            ],
          },
        ],
      },
      'EUR',
    );
    expect(extras?.optionValues).toEqual([
      {
        optionId: 'colour',
        optionValueId: 'rust',
        swatch: 'https://shop.example/rust.jpg',
        styleUrl: 'https://shop.example/styles/rust',
        minimumPrice: 4950,
      },
      { optionId: 'colour', optionValueId: 'sand', swatch: null, styleUrl: null, minimumPrice: 4500 },
    ]);
  });

  it('ignores amounts that are not finite or negative', () => {
    expect(hostProductExtras({ suggestedRetailPrice: Number.NaN, b2bRetailPrice: -5 }, 'DKK')).toBeNull();
  });
});
