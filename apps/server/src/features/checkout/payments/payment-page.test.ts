import { LOCALES } from '@vitrine/protocol/vocabulary';
import { describe, expect, it } from 'vitest';
import type { PaymentPageData } from '../payment-service.ts';
import { renderPaymentPage } from './payment-page.ts';
import { PAYMENT_PAGE_TEXTS } from './payment-page-texts.ts';

const page = (changes: Partial<PaymentPageData>): PaymentPageData => ({
  transactionUid: 'tx-1',
  status: 'awaiting_confirmation',
  amount: 33_800,
  currency: 'SEK',
  orderNumber: 100_001,
  storeName: 'Nordlys <Living>',
  pageUid: 'demo-store',
  language: 'sv',
  returnPath: '/demo/checkout',
  key: 'k',
  ...changes,
});

describe('the test provider’s page speaks the order’s language (issue 27)', () => {
  it('in Swedish: the page’s language, its buttons and the amount in the order’s currency', () => {
    const html = renderPaymentPage(page({}), { decided: false });
    expect(html).toContain('<html lang="sv">');
    expect(html).toContain('Godkänn betalning');
    expect(html).toContain('Order 100001');
    expect(html.replace(/\s/g, ' ')).toContain('338,00 kr');
    expect(html).not.toContain('Approve payment');
    // The store's name is text, never markup.
    expect(html).toContain('Nordlys &lt;Living&gt;');
  });

  it('has every text in each of the 11 languages, and a settled payment says so in it', () => {
    for (const language of LOCALES) {
      const texts = PAYMENT_PAGE_TEXTS[language];
      const settled = renderPaymentPage(page({ language, status: 'received', currency: 'EUR' }), {
        decided: true,
      });
      expect(settled).toContain(`<html lang="${language}">`);
      expect(settled).toContain(texts.status.received);
      expect(settled).toContain(texts.back);
      if (language !== 'en') expect(texts.approve).not.toBe(PAYMENT_PAGE_TEXTS.en.approve);
    }
  });

  it('falls back to English for a language it does not speak', () => {
    expect(renderPaymentPage(page({ language: 'xx' }), { decided: false })).toContain('Approve payment');
  });
});
