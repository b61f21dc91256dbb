import { formatMoney, INTL_TAG_BY_LOCALE, type StaffRoleName } from '@vitrine/domain';
import type { Locale } from '@vitrine/protocol/vocabulary';
import { MAIL_TEXTS, type MailTexts } from './mail-texts.ts';

/** What an order's mails show: the order as it was paid. */
export interface OrderMailData {
  storeName: string;
  orderNumber: number;
  customerName: string;
  customerEmail: string;
  currency: string;
  lines: { name: string; variant: string | null; qty: number; total: number }[];
  subtotal: number;
  freight: number;
  total: number;
  /** Where the parcel goes: the address lines, or the pickup point's. */
  delivery: { kind: 'address' | 'pickup'; lines: string[] } | null;
}

export interface InvitationMailData {
  storeName: string;
  role: StaffRoleName;
  url: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** A one-time link of account recovery: a sign-in link or a password reset link. */
export interface RecoveryMailData {
  url: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** The news of an order after payment (issue 33 item 11): it was shipped, or money went back. */
interface OrderNewsData {
  storeName: string;
  orderNumber: number;
  customerName: string;
}

/** A shipped order: the carrier as shown, its tracking number and link (http(s) only, or none). */
export interface ShipmentMailData extends OrderNewsData {
  carrier: string;
  trackingNumber: string;
  trackingUrl: string | null;
}

/** A refund the payment provider took: its amount in minor units of the order's currency. */
export interface RefundMailData extends OrderNewsData {
  currency: string;
  amount: number;
}

/** Every mail the server sends, by template, with the data each needs. */
export interface MailTemplates {
  orderConfirmation: OrderMailData;
  newOrderNotice: OrderMailData;
  staffInvitation: InvitationMailData;
  signInLink: RecoveryMailData;
  passwordReset: RecoveryMailData;
  orderShipped: ShipmentMailData;
  orderRefunded: RefundMailData;
}
export type MailTemplate = keyof MailTemplates;
export const MAIL_TEMPLATES = [
  'orderConfirmation',
  'newOrderNotice',
  'staffInvitation',
  'signInLink',
  'passwordReset',
  'orderShipped',
  'orderRefunded',
] as const;

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Escapes text for HTML element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );
}

/** Fills `{name}` placeholders; the values are plain text (escape the result for HTML). */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

/** Subjects are one line: a newline in a name must not start a header. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

/** Renders a mail in `locale`: a plain-text and an HTML body with the same content. */
export function renderMail<T extends MailTemplate>(
  template: T,
  locale: Locale,
  data: MailTemplates[T],
): RenderedMail {
  const texts = MAIL_TEXTS[locale];
  if (template === 'staffInvitation') return renderInvitation(texts, locale, data as InvitationMailData);
  if (template === 'signInLink' || template === 'passwordReset')
    return renderRecovery(texts, locale, template === 'signInLink', data as RecoveryMailData);
  if (template === 'orderShipped') return renderShipped(texts, data as ShipmentMailData);
  if (template === 'orderRefunded') return renderRefunded(texts, locale, data as RefundMailData);
  return renderOrder(texts, locale, template === 'orderConfirmation', data as OrderMailData);
}

/** The HTML frame of every mail: one column, inline styles (mail clients drop style sheets). */
function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">${body}</div>
</body></html>`;
}

function renderOrder(
  texts: MailTexts,
  locale: Locale,
  toShopper: boolean,
  order: OrderMailData,
): RenderedMail {
  const money = (amount: number) => formatMoney(amount, order.currency, locale);
  const values = { orderNumber: order.orderNumber, storeName: order.storeName, name: order.customerName };
  const subject = oneLine(fill(toShopper ? texts.confirmationSubject : texts.noticeSubject, values));
  const opening = toShopper
    ? [fill(texts.confirmationGreeting, values), texts.confirmationIntro]
    : [fill(texts.noticeIntro, values)];
  const lineText = (line: OrderMailData['lines'][number]) =>
    `${line.name}${line.variant ? ` (${line.variant})` : ''}`;
  const deliveryTitle = order.delivery?.kind === 'pickup' ? texts.pickupAt : texts.deliverTo;
  const customer = [order.customerName, order.customerEmail].filter(Boolean).join(', ');

  const text = [
    ...opening,
    '',
    ...(toShopper ? [] : [`${texts.customer}: ${customer}`, '']),
    `${toShopper ? texts.yourOrder : texts.order} ${order.orderNumber}`,
    ...order.lines.map((line) => `${line.qty} × ${lineText(line)}  ${money(line.total)}`),
    '',
    `${texts.subtotal}: ${money(order.subtotal)}`,
    `${texts.delivery}: ${money(order.freight)}`,
    `${texts.total}: ${money(order.total)}`,
    ...(order.delivery ? ['', `${deliveryTitle}:`, ...order.delivery.lines] : []),
    ...(toShopper ? ['', fill(texts.questions, values)] : []),
  ].join('\n');

  const cell = 'padding:6px 0;border-bottom:1px solid #e4e4e7';
  const rows = order.lines
    .map(
      (line) =>
        `<tr><td style="${cell}">${escapeHtml(lineText(line))}</td><td style="${cell};text-align:center">${line.qty}</td><td style="${cell};text-align:right">${escapeHtml(money(line.total))}</td></tr>`,
    )
    .join('');
  const sum = (label: string, amount: number, strong = false) =>
    `<tr><td colspan="2" style="padding:4px 0${strong ? ';font-weight:bold' : ''}">${escapeHtml(label)}</td><td style="padding:4px 0;text-align:right${strong ? ';font-weight:bold' : ''}">${escapeHtml(money(amount))}</td></tr>`;
  const paragraphs = opening.map((line) => `<p>${escapeHtml(line)}</p>`).join('');
  const html = page(
    subject,
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(order.storeName)}</h1>${paragraphs}
${toShopper ? '' : `<p><strong>${escapeHtml(texts.customer)}:</strong> ${escapeHtml(customer)}</p>`}
<h2 style="font-size:16px">${escapeHtml(toShopper ? texts.yourOrder : texts.order)} ${order.orderNumber}</h2>
<table style="width:100%;border-collapse:collapse" role="presentation">
<tr><th style="text-align:left"></th><th style="text-align:center">${escapeHtml(texts.quantity)}</th><th></th></tr>
${rows}${sum(texts.subtotal, order.subtotal)}${sum(texts.delivery, order.freight)}${sum(texts.total, order.total, true)}
</table>
${order.delivery ? `<h2 style="font-size:16px">${escapeHtml(deliveryTitle)}</h2><p>${order.delivery.lines.map(escapeHtml).join('<br>')}</p>` : ''}
${toShopper ? `<p style="color:#52525b">${escapeHtml(fill(texts.questions, values))}</p>` : ''}`,
  );
  return { subject, text, html };
}

function renderInvitation(texts: MailTexts, locale: Locale, invitation: InvitationMailData): RenderedMail {
  const role = { owner: texts.roleOwner, host: texts.roleHost, moderator: texts.roleModerator }[
    invitation.role
  ];
  const date = new Intl.DateTimeFormat(INTL_TAG_BY_LOCALE[locale], {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(invitation.expiresAt);
  const values = { storeName: invitation.storeName, role, date };
  const subject = oneLine(fill(texts.invitationSubject, values));
  const intro = fill(texts.invitationIntro, values);
  const expires = fill(texts.invitationExpires, values);
  const text = [intro, '', `${texts.invitationAction}: ${invitation.url}`, '', expires].join('\n');
  const html = page(
    subject,
    `<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(invitation.url)}" style="display:inline-block;background:#18181b;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(texts.invitationAction)}</a></p>
<p style="color:#52525b">${escapeHtml(expires)}</p>`,
  );
  return { subject, text, html };
}

/** A sign-in link or a password reset: why it came, the one button, and when it stops working. */
function renderRecovery(
  texts: MailTexts,
  locale: Locale,
  signIn: boolean,
  recovery: RecoveryMailData,
): RenderedMail {
  const date = new Intl.DateTimeFormat(INTL_TAG_BY_LOCALE[locale], {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(recovery.expiresAt);
  const subject = signIn ? texts.signInLinkSubject : texts.passwordResetSubject;
  const intro = signIn ? texts.signInLinkIntro : texts.passwordResetIntro;
  const action = signIn ? texts.signInLinkAction : texts.passwordResetAction;
  const expires = fill(texts.recoveryExpires, { date });
  const text = [intro, '', `${action}: ${recovery.url}`, '', expires].join('\n');
  const html = page(
    subject,
    `<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(recovery.url)}" style="display:inline-block;background:#18181b;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="color:#52525b">${escapeHtml(expires)}</p>`,
  );
  return { subject, text, html };
}

/** The shipping notice: carrier, tracking number and, when there is one, the tracking link. */
function renderShipped(texts: MailTexts, shipment: ShipmentMailData): RenderedMail {
  const values = {
    orderNumber: shipment.orderNumber,
    storeName: shipment.storeName,
    name: shipment.customerName,
    carrier: shipment.carrier,
  };
  const subject = oneLine(fill(texts.shippedSubject, values));
  const greeting = fill(texts.confirmationGreeting, values);
  const intro = fill(texts.shippedIntro, values);
  const questions = fill(texts.questions, values);
  const text = [
    greeting,
    intro,
    '',
    `${texts.trackingNumber}: ${shipment.trackingNumber}`,
    ...(shipment.trackingUrl ? [`${texts.trackAction}: ${shipment.trackingUrl}`] : []),
    '',
    questions,
  ].join('\n');
  const html = page(
    subject,
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(shipment.storeName)}</h1>
<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p>
<p><strong>${escapeHtml(texts.trackingNumber)}:</strong> ${escapeHtml(shipment.trackingNumber)}</p>
${shipment.trackingUrl ? `<p><a href="${escapeHtml(shipment.trackingUrl)}" style="display:inline-block;background:#18181b;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(texts.trackAction)}</a></p>` : ''}
<p style="color:#52525b">${escapeHtml(questions)}</p>`,
  );
  return { subject, text, html };
}

/** The refund notice: how much went back, in the order's currency and the shopper's language. */
function renderRefunded(texts: MailTexts, locale: Locale, refund: RefundMailData): RenderedMail {
  const values = {
    orderNumber: refund.orderNumber,
    storeName: refund.storeName,
    name: refund.customerName,
    amount: formatMoney(refund.amount, refund.currency, locale),
  };
  const subject = oneLine(fill(texts.refundSubject, values));
  const lines = [fill(texts.confirmationGreeting, values), fill(texts.refundIntro, values), texts.refundNote];
  const questions = fill(texts.questions, values);
  const text = [...lines, '', questions].join('\n');
  const html = page(
    subject,
    `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(refund.storeName)}</h1>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('')}
<p style="color:#52525b">${escapeHtml(questions)}</p>`,
  );
  return { subject, text, html };
}
