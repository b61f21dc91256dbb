import type { Locator } from 'playwright-core';

/** The texts the checkout form's fields are labelled with (a language's checkout namespace). */
export interface CheckoutFormTexts {
  form: { country: string; termsLabel: string; labels: Record<string, string> };
  shipping: Record<string, string>;
  paymentMethod: Record<string, string>;
}

/** A buyer's country and address, as typed into the checkout form. */
export interface Buyer {
  country: string;
  name: string;
  address: string;
  postCode: string;
  city: string;
  emailAddress: string;
  phone: string;
}

/** The browser tests' buyer in Denmark. */
export const ADA_JENSEN: Buyer = {
  country: 'DK',
  name: 'Ada Jensen',
  address: 'Strandvejen 12',
  postCode: '2900',
  city: 'Hellerup',
  emailAddress: 'ada@example.com',
  phone: '+45 12 34 56 78',
};

/**
 * Fills the checkout `form` as a shopper does, finding each field by its label in `texts`: the
 * buyer's country and address, home delivery (unless `homeDelivery` is false: the form's own
 * choice stays), payment by test card, and the terms accepted.
 */
export async function fillCheckoutForm(
  form: Locator,
  texts: CheckoutFormTexts,
  buyer: Buyer,
  { homeDelivery = true } = {},
): Promise<void> {
  const { labels } = texts.form;
  await form.getByLabel(texts.form.country).selectOption(buyer.country);
  await form.getByLabel(labels.name ?? '').fill(buyer.name);
  await form.getByLabel(labels.address ?? '').fill(buyer.address);
  await form.getByLabel(labels.postCode ?? '').fill(buyer.postCode);
  await form.getByLabel(labels.city ?? '').fill(buyer.city);
  await form.getByLabel(labels.emailAddress ?? '').fill(buyer.emailAddress);
  await form.getByLabel(labels.phone ?? '').fill(buyer.phone);
  if (homeDelivery) await form.getByLabel(texts.shipping.home_delivery ?? '').check();
  await form.getByLabel(texts.paymentMethod.test_card ?? '').check();
  await form.getByLabel(texts.form.termsLabel).check();
}
