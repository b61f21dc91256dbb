// @vitest-environment happy-dom
import i18next from 'i18next';
import { act } from 'preact/test-utils';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import checkoutTexts from '../../locales/checkout/en.json';
import texts from '../../locales/en.json';
import { mountEachTest } from '../../test-support/mount-each-test.ts';
import { AddFeedback, type AddOutcome } from './add-feedback.tsx';

// The feedback a shopper reads after adding to the cart (spec §8 "User-facing messages"), from
// the English texts the player ships.

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { translation: texts, checkout: checkoutTexts } },
  });
});

const mounted = mountEachTest();

function feedbackFor(outcome: AddOutcome): string {
  act(() =>
    mounted.root.render(
      <I18nextProvider i18n={i18n}>
        <AddFeedback outcome={outcome} shopLink={<a href="https://shop.example/mug">See in shop</a>} />
      </I18nextProvider>,
    ),
  );
  return mounted.container.textContent ?? '';
}

describe('AddFeedback (spec §8)', () => {
  it('a failed add says the cart could not be changed, as an alert with the link to the shop', () => {
    expect(feedbackFor('error')).toBe(
      "We couldn't add, update or remove the product in your cart. See in shop",
    );
    expect(mounted.container.querySelector('[role="alert"] a')?.getAttribute('href')).toBe(
      'https://shop.example/mug',
    );
  });

  it.each([
    ['soldOut', 'Sold out Product sold out.'],
    ['variantMissing', 'Variant missing Variant is missing.'],
    ['expired', 'Expired Video expired, products can no longer be purchased.'],
    ['added', 'Added'],
    ['notFound', 'Not found'],
  ] as const)('%s reads "%s" (label and message)', (outcome, text) => {
    expect(feedbackFor(outcome)).toBe(text);
    expect(mounted.container.querySelector('[role="status"]')?.getAttribute('data-feedback')).toBe(outcome);
  });

  it('an update or removal says nothing', () => {
    expect(feedbackFor('updated')).toBe('');
    expect(feedbackFor('removed')).toBe('');
  });
});
