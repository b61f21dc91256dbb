import { readFileSync } from 'node:fs';
import {
  CHECKOUT_ADDRESS_FIELDS,
  CHECKOUT_FORM_MESSAGES,
  checkoutFieldLabelKey,
  checkoutProblemKey,
} from '@vitrine/domain';
import { type CheckoutProblem, LOCALES } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';

/**
 * The checkout namespace (locales/checkout/<lng>.json, loaded with the checkout screens) mirrors
 * English in every language like the main files do (see locales/locales.test.ts), and its English
 * texts are spec §5 and §8 word for word.
 */

type Tree = { [key: string]: string | Tree };

const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as Tree;
const namespaceOf = (locale: string) => read(`../../locales/checkout/${locale}.json`);
const mainOf = (locale: string) => read(`../../locales/${locale}.json`);

function flatten(tree: Tree, prefix = '', into = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') into.set(path, value);
    else flatten(value, path, into);
  }
  return into;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([^}]+?)\s*\}\}/g)].map((m) => m[1]).sort();

const english = flatten(namespaceOf('en'));
const englishMain = flatten(mainOf('en'));
/** What the checkout screens' `t` sees: the namespace, then the main translation. */
const lookup = (key: string) => english.get(key) ?? englishMain.get(key);

const PROBLEMS: CheckoutProblem[] = [
  'noShippingMethod',
  'noPaymentMethod',
  'termsNotAccepted',
  'noPickupPoint',
  'noDeliveryCountry',
  'deliveryAddressMissing',
];

describe.each(LOCALES)('checkout namespace %s', (locale) => {
  const translation = flatten(namespaceOf(locale));

  it('has exactly the English keys, each a non-empty string with the same placeholders', () => {
    expect([...translation.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of translation) {
      expect(text.trim(), `${locale}: ${key}`).not.toBe('');
      expect(placeholders(text), `${locale}: ${key} placeholders`).toEqual(
        placeholders(english.get(key) ?? ''),
      );
    }
  });
});

describe('checkout texts in English (spec §5, §8)', () => {
  it('has every form and state message of §5 verbatim', () => {
    expect(Object.values(CHECKOUT_FORM_MESSAGES).map(lookup)).toEqual([
      'Please fill out your {{fields}}.',
      'Please choose a payment method.',
      'Please choose a shipping method.',
      'Please accept our payment terms.',
      'Please choose the store where you wish to pick up your purchase.',
      'Please select a pickup point.',
    ]);
    const fields = CHECKOUT_ADDRESS_FIELDS.map((field) => lookup(checkoutFieldLabelKey(field))).join(', ');
    expect(lookup(CHECKOUT_FORM_MESSAGES.fillOut)?.replace('{{fields}}', fields)).toBe(
      'Please fill out your address, city, post code, name, email address, phone number.',
    );
    expect(PROBLEMS.map((problem) => lookup(checkoutProblemKey(problem)))).toEqual([
      'No shipping method selected.',
      'No payment method selected.',
      'Terms and conditions not accepted.',
      'No pickup point selected.',
      'Select your delivery country.',
      'Delivery address is missing.',
    ]);
  });

  it('has the §8 cart and order texts verbatim', () => {
    expect(lookup('checkout.parcelShop.noneFound')).toBe(
      'No parcel shop was found on the address; check the address or pick another delivery method.',
    );
    expect(lookup('checkout.order.deadlineOverdue')).toBe(
      'Sorry, deadline for ordering these products is overdue.',
    );
    expect(lookup('checkout.order.locked')).toBe(
      'The order has been locked for changes and payments because it was sent for packing.',
    );
    expect(lookup('checkout.create.failed')).toBe(
      'Problem preparing your basket, user will be informed once fixed.',
    );
    expect(lookup('checkout.cart.updateError')).toBe('There was an error while updating shop cart.');
    expect(lookup('checkout.feedback.message.soldOut')).toBe('Product sold out.');
    expect(lookup('checkout.feedback.message.variantMissing')).toBe('Variant is missing.');
    expect(
      ['added', 'expired', 'soldOut', 'notFound', 'variantMissing'].map((s) =>
        lookup(`checkout.feedback.label.${s}`),
      ),
    ).toEqual(['Added', 'Expired', 'Sold out', 'Not found', 'Variant missing']);
  });

  it('keeps the player cart texts in the main translation (the player does not load the namespace)', () => {
    for (const key of ['checkout.cart.open', 'checkout.cart.toCheckout', 'checkout.feedback.label.added'])
      expect(englishMain.has(key), key).toBe(true);
    expect([...english.keys()].filter((key) => englishMain.has(key))).toEqual([]);
  });
});
