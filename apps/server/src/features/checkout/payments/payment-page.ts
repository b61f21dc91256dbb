import { formatMoney, resolveLocale } from '@vitrine/domain';
import type { PaymentPageData } from '../payment-service.ts';
import { PAYMENT_PAGE_TEXTS } from './payment-page-texts.ts';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML content and attribute values. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);

/**
 * The test provider's hosted payment page: plain server-rendered HTML in the order's language,
 * every text from the database escaped. Three buttons post the shopper's choice; after a choice
 * (or for a settled payment) it links back to the shop.
 */
export function renderPaymentPage(data: PaymentPageData, options: { decided: boolean }): string {
  const locale = resolveLocale(data.language);
  const texts = PAYMENT_PAGE_TEXTS[locale];
  const amount = formatMoney(data.amount, data.currency, locale);
  const action = (name: string) => `/payments/test/pay/${encodeURIComponent(data.transactionUid)}/${name}`;
  const key = `<input type="hidden" name="key" value="${escapeHtml(data.key)}">`;
  const open = data.status === 'awaiting_confirmation' && !options.decided;
  const body = open
    ? `<p class="amount">${escapeHtml(amount)}</p>
    <div class="actions">
      <form method="post" action="${escapeHtml(action('approve'))}">${key}<button class="approve" type="submit">${escapeHtml(texts.approve)}</button></form>
      <form method="post" action="${escapeHtml(action('decline'))}">${key}<button class="decline" type="submit">${escapeHtml(texts.decline)}</button></form>
      <form method="post" action="${escapeHtml(action('abandon'))}">${key}<button class="abandon" type="submit">${escapeHtml(texts.abandon)}</button></form>
    </div>`
    : `<p class="amount">${escapeHtml(amount)}</p>
    <p class="status">${escapeHtml(texts.status[data.status])}</p>
    <p><a href="${escapeHtml(data.returnPath)}">${escapeHtml(texts.back)}</a></p>`;
  const order =
    data.orderNumber === null
      ? ''
      : `<p>${escapeHtml(texts.order.replace('{number}', String(data.orderNumber)))}</p>`;
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(texts.title.replace('{store}', data.storeName))}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; background: #f3f4f6; color: #1f2937; margin: 0; }
  main { box-sizing: border-box; width: calc(100% - 2rem); max-width: 26rem; margin: 3rem auto; background: #fff; border-radius: 12px; padding: 2rem;
    box-shadow: 0 1px 4px rgba(0, 0, 0, 0.12); }
  h1 { font-size: 1.1rem; margin: 0 0 0.25rem; }
  .provider { color: #6b7280; font-size: 0.85rem; margin: 0 0 1.5rem; }
  .amount { font-size: 2rem; font-weight: 600; margin: 0.5rem 0 1.5rem; }
  .actions { display: grid; gap: 0.75rem; }
  form { margin: 0; }
  button { width: 100%; padding: 0.8rem; border-radius: 8px; border: 1px solid #d1d5db; font-size: 1rem;
    cursor: pointer; background: #fff; }
  .approve { background: #15803d; border-color: #15803d; color: #fff; }
  .decline { color: #b91c1c; }
</style>
</head>
<body>
<main>
  <h1>${escapeHtml(data.storeName)}</h1>
  <p class="provider">${escapeHtml(texts.provider)}</p>
  ${order}
  ${body}
</main>
</body>
</html>`;
}
