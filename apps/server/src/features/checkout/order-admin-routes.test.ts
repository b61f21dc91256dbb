import { formatMoney } from '@vitrine/domain';
import type { StudioOrderDetail, StudioOrderSummary } from '@vitrine/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cartWithMug,
  loadCheckout,
  payOrder,
  placeOrder,
  saveCheckoutDetails,
} from '../../test-support/checkout-steps.ts';
import {
  addShow,
  adminWrite,
  CAMPAIGN,
  call,
  HOME_DELIVERY,
  OTHER_CAMPAIGN,
  PRICES,
  SHOP,
  type Shopper,
  seedCommerceStore,
  setMugStock,
  signIn,
} from '../../test-support/commerce-fixture.ts';
import { startSmtpTestServer } from '../../test-support/smtp-test-server.ts';
import { signInStaff, signInStoreStaff, type TestStaffMember } from '../../test-support/studio-staff.ts';
import { openTestApp } from '../../test-support/test-app.ts';

const OTHER_SHOP = 'orders-other-shop';
const FREIGHT = 4_900;
const STORE_EMAIL = 'orders@cart-shop.example';

let app: Awaited<ReturnType<typeof openTestApp>>;
let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
let owner: TestStaffMember;
let host: TestStaffMember;
let moderator: TestStaffMember;
let otherOwner: TestStaffMember;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  app = await openTestApp({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Cart Shop <shop@cart-shop.example>' } });
  await seedCommerceStore(app, { now: Date.now() });
  for (const [uid, email] of [
    [SHOP, STORE_EMAIL],
    [OTHER_SHOP, ''],
  ] as const) {
    await adminWrite(app, 'PUT', `/admin/pages/${uid}`, {
      name: uid === SHOP ? 'Cart <Shop> & Co' : 'Other shop',
      language: 'da',
      currency: 'DKK',
      address: { name: 'Cart Shop ApS', street: 'Havnegade 4', postCode: '8000', city: 'Aarhus C', email },
    });
  }
  // A second show of the store, selling the mug too.
  await addShow(app, {
    eventUid: 'orders-other-event',
    campaignUid: OTHER_CAMPAIGN,
    name: 'Other show',
    startedAt: Date.now() - 60_000,
    products: ['mug'],
  });
  ({ owner, host, moderator } = await signInStoreStaff(app, SHOP));
  otherOwner = await signInStaff(app, OTHER_SHOP, 'owner');
});

afterAll(async () => {
  await app?.close();
  await smtp?.close();
});

async function studio<T>(
  who: TestStaffMember,
  method: 'GET' | 'POST',
  path: string,
  payload?: object,
): Promise<{ status: number; body: T }> {
  const response = await app.server.inject({
    method,
    url: `/staff/stores/${path}`,
    headers: who.headers,
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, body: response.json() as T };
}

/** A shopper's placed order of one mug, delivered home; `pay` pays it with the test provider. */
async function placedOrder(
  options: { pay: boolean; name?: string; campaignUid?: string; language?: string } = { pay: true },
): Promise<{ shopper: Shopper; checkoutUid: string; orderNumber: number }> {
  const shopper = await signIn(app);
  const campaignUid = options.campaignUid ?? CAMPAIGN;
  const checkoutUid = await cartWithMug(app, shopper, { campaignUid });
  if (options.language) {
    // The shopper shops in another language than the store's: the checkout speaks it.
    const saved = await call(app, shopper, '/functions/customerpage/saveUserReservation', {
      pageUid: SHOP,
      campaign: campaignUid,
      user: shopper.uid,
      language: options.language,
      currency: 'DKK',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  }
  await saveCheckoutDetails(app, shopper, checkoutUid, {
    campaignUid,
    details: {
      ...HOME_DELIVERY,
      address: { ...HOME_DELIVERY.address, name: options.name ?? 'Ada Lovelace' },
    },
  });
  const placed = await placeOrder(app, shopper, checkoutUid, campaignUid);
  if (options.pay) await payOrder(app, shopper, checkoutUid, campaignUid);
  return { shopper, checkoutUid, orderNumber: placed.orderNumber as number };
}

describe('who may see orders', () => {
  it('lets owners in, and neither hosts nor moderators nor another store’s owner', async () => {
    const { checkoutUid } = await placedOrder({ pay: false });
    for (const path of [
      `${SHOP}/orders`,
      `${SHOP}/orders/${checkoutUid}`,
      `${SHOP}/orders/export`,
      `${SHOP}/mail`,
    ]) {
      expect((await studio(owner, 'GET', path)).status, path).toBe(200);
      expect((await studio(host, 'GET', path)).status, path).toBe(403);
      expect((await studio(moderator, 'GET', path)).status, path).toBe(403);
      expect((await studio(otherOwner, 'GET', path)).status, path).toBe(403);
    }
    for (const who of [host, moderator, otherOwner]) {
      expect((await studio(who, 'POST', `${SHOP}/orders/${checkoutUid}/packing`)).status).toBe(403);
      expect(
        (
          await studio(who, 'POST', `${SHOP}/orders/${checkoutUid}/refunds`, {
            amount: 1,
            requestKey: 'abcdefgh',
          })
        ).status,
      ).toBe(403);
    }
    // Contacts are shoppers' personal data: owners only.
    expect((await studio(owner, 'GET', `${SHOP}/contacts`)).status).toBe(200);
    expect((await studio(host, 'GET', `${SHOP}/contacts`)).status).toBe(403);
  });

  it('answers 404 for another store’s order addressed through the owner’s own store', async () => {
    const { checkoutUid } = await placedOrder({ pay: false });
    // The other store's owner, through their own store's path, names this store's order.
    for (const [method, path] of [
      ['GET', `${OTHER_SHOP}/orders/${checkoutUid}`],
      ['POST', `${OTHER_SHOP}/orders/${checkoutUid}/packing`],
    ] as const) {
      expect((await studio(otherOwner, method, path)).status).toBe(404);
    }
    const refund = await studio(otherOwner, 'POST', `${OTHER_SHOP}/orders/${checkoutUid}/refunds`, {
      amount: 100,
      requestKey: 'other-store-1',
    });
    expect(refund.status).toBe(404);
    const list = await studio<{ orders: StudioOrderSummary[] }>(otherOwner, 'GET', `${OTHER_SHOP}/orders`);
    expect(list.body.orders).toEqual([]);
  });
});

describe('the order list', () => {
  it('filters by show, status and payment, searches number, name and e-mail, and pages', async () => {
    const paid = await placedOrder({ pay: true, name: 'Grace Hopper' });
    const unpaid = await placedOrder({ pay: false, name: 'Katherine Johnson' });
    const elsewhere = await placedOrder({ pay: false, name: 'Mary Jackson', campaignUid: OTHER_CAMPAIGN });
    const list = async (query: string) =>
      (
        await studio<{ orders: StudioOrderSummary[]; nextAfter: string | null }>(
          owner,
          'GET',
          `${SHOP}/orders?${query}`,
        )
      ).body;
    const numbers = async (query: string) => (await list(query)).orders.map((order) => order.orderNumber);

    const byNumber = await list(`q=${paid.orderNumber}`);
    expect(byNumber.orders).toHaveLength(1);
    expect(byNumber.orders[0]).toMatchObject({
      checkoutUid: paid.checkoutUid,
      customerName: 'Grace Hopper',
      customerEmail: 'ada@example.com',
      campaignName: CAMPAIGN,
      status: 'ordered',
      payed: true,
      currency: 'DKK',
      totalPrice: PRICES.mug.DKK + FREIGHT,
      itemCount: 1,
    });
    expect(await numbers('q=katherine')).toEqual([unpaid.orderNumber]);
    expect(await numbers('q=100%25')).toEqual([]);
    expect(await numbers('paid=false&q=hopper')).toEqual([]);
    expect(await numbers(`paid=true&campaignUid=${CAMPAIGN}`)).toContain(paid.orderNumber);
    expect(await numbers(`paid=true&campaignUid=${CAMPAIGN}`)).not.toContain(unpaid.orderNumber);
    expect(await numbers(`campaignUid=${OTHER_CAMPAIGN}`)).toEqual([elsewhere.orderNumber]);
    expect(await numbers('status=locked&q=hopper')).toEqual([]);
    expect(await numbers(`from=${Date.now() + 60_000}`)).toEqual([]);

    // Pages of 2 walk every order once, newest first.
    const all = await numbers('limit=200');
    const walked: number[] = [];
    let after: string | null = null;
    do {
      const page = await list(`limit=2${after ? `&after=${encodeURIComponent(after)}` : ''}`);
      walked.push(...page.orders.map((order) => order.orderNumber));
      after = page.nextAfter;
    } while (after);
    expect(walked).toEqual(all);
    expect(new Set(walked).size).toBe(walked.length);

    const filters = await studio<{ campaigns: { uid: string; name: string }[] }>(
      owner,
      'GET',
      `${SHOP}/orders/filters`,
    );
    expect(filters.body.campaigns.map((campaign) => campaign.uid).sort()).toEqual(
      [CAMPAIGN, OTHER_CAMPAIGN].sort(),
    );

    const bad = await studio<{ message: string }>(owner, 'GET', `${SHOP}/orders?paid=maybe&limit=0`);
    expect(bad.status).toBe(400);
  });

  it('exports the filtered orders as CSV, one row per line, formulas quoted out', async () => {
    const { orderNumber } = await placedOrder({ pay: true, name: '=HYPERLINK("https://evil.example")' });
    const csv = await studio<{ filename: string; csv: string; rows: number }>(
      owner,
      'GET',
      `${SHOP}/orders/export?q=${orderNumber}`,
    );
    expect(csv.status).toBe(200);
    expect(csv.body.rows).toBe(1);
    const [header, row] = csv.body.csv.trim().split('\n');
    expect(header).toMatch(/^Order number,Ordered at \(UTC\),Show,Status,Paid,Customer name/);
    expect(row).toContain(`${orderNumber},`);
    expect(row).toContain(`"'=HYPERLINK(""https://evil.example"")"`);
    expect(row).toContain(',Mug,,MUG,1,179.00,179.00,49.00,228.00,DKK');
  });
});

describe('an order in the studio', () => {
  it('shows lines, delivery, address, payments and the timeline; sends it to packing, locking it', async () => {
    const { shopper, checkoutUid } = await placedOrder({ pay: true });
    const detail = await studio<StudioOrderDetail>(owner, 'GET', `${SHOP}/orders/${checkoutUid}`);
    expect(detail.status).toBe(200);
    expect(detail.body.order).toMatchObject({
      items: [{ item: 'Mug', quantity: 1, total: PRICES.mug.DKK }],
      freight: FREIGHT,
      totalPrice: PRICES.mug.DKK + FREIGHT,
      paidAmount: PRICES.mug.DKK + FREIGHT,
      payed: true,
      locked: false,
    });
    expect(detail.body.order.details.address.address).toBe('Mejlgade 1');
    expect(detail.body.refundable).toBe(PRICES.mug.DKK + FREIGHT);
    expect(detail.body.timeline.map((entry) => entry.kind)).toEqual([
      'cartStarted',
      'ordered',
      'paymentStarted',
      'paymentReceived',
    ]);

    const packed = await studio<StudioOrderDetail>(owner, 'POST', `${SHOP}/orders/${checkoutUid}/packing`);
    expect(packed.status).toBe(200);
    expect(packed.body.order).toMatchObject({ status: 'locked', locked: true });
    expect(packed.body.timeline.at(-1)?.kind).toBe('sentToPacking');
    expect((await loadCheckout(app, shopper, checkoutUid)).locked).toBe(true);
    // Again changes nothing.
    expect((await studio(owner, 'POST', `${SHOP}/orders/${checkoutUid}/packing`)).status).toBe(200);
    // A staff change is in the audit log.
    const audit = await studio<{ entries: { action: string; target: Record<string, string> }[] }>(
      owner,
      'GET',
      `${SHOP}/audit`,
    );
    expect(audit.body.entries[0]).toMatchObject({
      action: 'sendStudioOrderToPacking',
      target: { checkoutUid },
    });
  });

  it('refunds through the provider: partly, never more than paid, once per request however often clicked', async () => {
    const { checkoutUid } = await placedOrder({ pay: true });
    const total = PRICES.mug.DKK + FREIGHT;
    const refund = (amount: number, requestKey: string) =>
      studio<StudioOrderDetail & { error?: string; message?: string }>(
        owner,
        'POST',
        `${SHOP}/orders/${checkoutUid}/refunds`,
        { amount, requestKey },
      );

    const tooMuch = await refund(total + 1, 'too-much-1');
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error).toBe('refund_too_large');
    expect((await refund(0, 'zero-amount')).status).toBe(400);
    expect((await refund(1.5, 'fraction-1')).status).toBe(400);

    // A double click: the same request twice at once is one refund.
    const [first, second] = await Promise.all([refund(5_000, 'double-click'), refund(5_000, 'double-click')]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const detail = (await studio<StudioOrderDetail>(owner, 'GET', `${SHOP}/orders/${checkoutUid}`)).body;
    expect(detail.refunds).toHaveLength(1);
    expect(detail.refunds[0]).toMatchObject({ amount: 5_000, status: 'requested', currency: 'DKK' });
    expect(detail.refundable).toBe(total - 5_000);
    // The provider's refund webhook recorded it on the payment.
    expect(detail.order.transactions[0]?.amountRefunded).toBe(5_000);
    expect(detail.timeline.map((entry) => entry.kind)).toContain('refunded');

    expect((await refund(total - 5_000 + 1, 'rest-plus-one')).status).toBe(422);
    const rest = await refund(total - 5_000, 'the-rest-1');
    expect(rest.status).toBe(200);
    expect(rest.body.refundable).toBe(0);
    expect(rest.body.order.transactions[0]?.amountRefunded).toBe(total);
    const nothingLeft = await refund(1, 'nothing-left');
    expect(nothingLeft.status).toBe(422);
    expect(nothingLeft.body.message).toMatch(/Nothing of this order can be refunded/);
  });

  it('refuses to refund an unpaid order', async () => {
    const { checkoutUid } = await placedOrder({ pay: false });
    const refused = await studio(owner, 'POST', `${SHOP}/orders/${checkoutUid}/refunds`, {
      amount: 100,
      requestKey: 'unpaid-1',
    });
    expect(refused.status).toBe(422);
  });
});

describe('order mails', () => {
  it('sends the confirmation to the shopper and a notice to the store once paid, listed in the outbox', async () => {
    const { orderNumber } = await placedOrder({ pay: true, name: 'Ada <b>Lovelace</b>' });
    // Mails go out after the payment is answered; earlier tests' mails may still be arriving.
    const about = (mail: { subject: string }) => mail.subject.includes(String(orderNumber));
    let mails = smtp.received.filter(about);
    while (mails.length < 2) {
      await smtp.waitFor(smtp.received.length + 1);
      mails = smtp.received.filter(about);
    }
    expect(mails).toHaveLength(2);
    const confirmation = mails.find((mail) => mail.to.includes('ada@example.com'));
    const notice = mails.find((mail) => mail.to.includes(STORE_EMAIL));
    expect(confirmation?.subject).toBe(`Din ordre ${orderNumber} fra Cart <Shop> & Co`);
    expect(confirmation?.text).toContain('Hej Ada <b>Lovelace</b>');
    expect(confirmation?.html).toContain('Hej Ada &lt;b&gt;Lovelace&lt;/b&gt;');
    expect(notice?.subject).toBe(`Ny betalt ordre ${orderNumber}`);
    // The outbox records the delivery once the SMTP server accepted it.
    const outboxOf = async () =>
      (
        await studio<{ mails: { subject: string; status: string; to: string }[] }>(
          owner,
          'GET',
          `${SHOP}/mail?limit=10`,
        )
      ).body.mails.filter(about);
    const deadline = Date.now() + 10_000;
    let listed = await outboxOf();
    while (listed.some((mail) => mail.status !== 'sent') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      listed = await outboxOf();
    }
    expect(listed.map((mail) => [mail.to, mail.status]).sort()).toEqual([
      ['ada@example.com', 'sent'],
      [STORE_EMAIL, 'sent'],
    ]);
    const otherOutbox = await studio<{ mails: unknown[] }>(otherOwner, 'GET', `${OTHER_SHOP}/mail`);
    expect(otherOutbox.body.mails).toEqual([]);
  });
});

describe('the order’s life after packing (issue 33 item 11)', () => {
  beforeAll(async () => {
    // The earlier tests bought most of the fixture's 10 mugs.
    await setMugStock(app, 100);
  });

  /** The mails to `to` whose subject names the order, once `count` of them arrived. */
  async function mailsAbout(orderNumber: number, count: number) {
    const about = (mail: { subject: string; to: string[] }) =>
      mail.subject.includes(String(orderNumber)) && mail.to.includes('ada@example.com');
    let mails = smtp.received.filter(about);
    while (mails.length < count) {
      await smtp.waitFor(smtp.received.length + 1);
      mails = smtp.received.filter(about);
    }
    return mails;
  }

  it('packs, ships with a tracking link and delivers; the shopper sees it and gets the mails in her language', async () => {
    const { shopper, checkoutUid, orderNumber } = await placedOrder({ pay: true, language: 'de' });
    const advance = (body: object) =>
      studio<StudioOrderDetail & { error?: string; message?: string }>(
        owner,
        'POST',
        `${SHOP}/orders/${checkoutUid}/fulfilment`,
        body,
      );
    const early = await advance({ status: 'packed' });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/Send the order to packing first/);
    expect((await studio(owner, 'POST', `${SHOP}/orders/${checkoutUid}/packing`)).status).toBe(200);

    const packed = await advance({ status: 'packed' });
    expect(packed.status).toBe(200);
    expect(packed.body.order.fulfilment).toMatchObject({ status: 'packed', trackingUrl: null });
    // Out of order, or a step that does not exist.
    expect((await advance({ status: 'packed' })).status).toBe(409);
    expect((await advance({ status: 'packing' })).status).toBe(400);
    // Shipping needs a carrier and a tracking number; a pasted link must be http(s).
    const noNumber = await advance({ status: 'shipped', carrier: 'gls', trackingNumber: ' ' });
    expect(noNumber.status).toBe(400);
    expect(noNumber.body.message).toMatch(/trackingNumber/);
    const script = await advance({
      status: 'shipped',
      carrier: 'Local courier',
      trackingNumber: 'LC-1',
      trackingUrl: 'javascript:alert(1)',
    });
    expect(script.status).toBe(400);
    expect(script.body.message).toMatch(/http\(s\)/);

    const shipped = await advance({ status: 'shipped', carrier: 'gls', trackingNumber: 'GLS 123/45' });
    expect(shipped.status).toBe(200);
    expect(shipped.body.order.fulfilment).toMatchObject({
      status: 'shipped',
      carrier: 'gls',
      carrierName: 'GLS',
      trackingNumber: 'GLS 123/45',
      trackingUrl: 'https://gls-group.com/track/GLS%20123%2F45',
    });
    // The shopper's order page reads the same order.
    expect((await loadCheckout(app, shopper, checkoutUid)).fulfilment).toMatchObject({
      status: 'shipped',
      trackingUrl: 'https://gls-group.com/track/GLS%20123%2F45',
    });

    // The order list and its CSV say where the order is.
    const listed = await studio<{ orders: StudioOrderSummary[] }>(
      owner,
      'GET',
      `${SHOP}/orders?q=${orderNumber}`,
    );
    expect(listed.body.orders[0]).toMatchObject({ status: 'locked', fulfilment: 'shipped' });
    const csv = await studio<{ csv: string }>(owner, 'GET', `${SHOP}/orders/export?q=${orderNumber}`);
    expect(csv.body.csv).toContain(',shipped,yes,');
    const [mail] = (await mailsAbout(orderNumber, 2)).filter((each) => each.subject.includes('unterwegs'));
    expect(mail?.subject).toBe(`Deine Bestellung ${orderNumber} bei Cart <Shop> & Co ist unterwegs`);
    expect(mail?.headers['content-language']).toBe('de');
    expect(mail?.text).toContain('mit GLS verschickt');
    expect(mail?.text).toContain('Sendungsnummer: GLS 123/45');
    expect(mail?.html).toContain('href="https://gls-group.com/track/GLS%20123%2F45"');

    const delivered = await advance({ status: 'delivered' });
    expect(delivered.status).toBe(200);
    expect(delivered.body.timeline.map((entry) => entry.kind).slice(-4)).toEqual([
      'sentToPacking',
      'packed',
      'shipped',
      'delivered',
    ]);
    const back = await advance({ status: 'shipped', carrier: 'dhl', trackingNumber: '1' });
    expect(back.status).toBe(409);
    expect(back.body.message).toMatch(/delivered cannot become shipped/);

    const audit = await studio<{
      entries: { action: string; target: Record<string, string>; details: unknown }[];
    }>(owner, 'GET', `${SHOP}/audit`);
    const changes = audit.body.entries.filter(
      (entry) => entry.action === 'advanceStudioOrder' && entry.target.checkoutUid === checkoutUid,
    );
    expect(changes.map((entry) => entry.details)).toEqual([
      { status: 'delivered' },
      { status: 'shipped', carrier: 'gls', trackingNumber: 'GLS 123/45' },
      { status: 'packed' },
    ]);
  });

  it('mails the refunded amount in the shopper’s language', async () => {
    const { checkoutUid, orderNumber } = await placedOrder({ pay: true, language: 'fr' });
    const refunded = await studio(owner, 'POST', `${SHOP}/orders/${checkoutUid}/refunds`, {
      amount: 5_050,
      requestKey: 'refund-mail-1',
    });
    expect(refunded.status).toBe(200);
    const [mail] = (await mailsAbout(orderNumber, 2)).filter((each) =>
      each.subject.startsWith('Remboursement'),
    );
    expect(mail?.subject).toBe(`Remboursement de votre commande ${orderNumber}`);
    expect(mail?.headers['content-language']).toBe('fr');
    const amount = formatMoney(5_050, 'DKK', 'fr');
    expect(mail?.text).toContain(
      `Cart <Shop> & Co vous a remboursé ${amount} pour votre commande ${orderNumber}.`,
    );
    expect(mail?.html).toContain('Cart &lt;Shop&gt; &amp; Co vous a rembours');
  });

  it('refuses a host, a moderator, another store’s owner and an anonymous caller trying to ship', async () => {
    const { checkoutUid } = await placedOrder({ pay: true });
    expect((await studio(owner, 'POST', `${SHOP}/orders/${checkoutUid}/packing`)).status).toBe(200);
    const body = { status: 'shipped', carrier: 'gls', trackingNumber: 'STOLEN-1' };
    for (const who of [host, moderator, otherOwner]) {
      expect((await studio(who, 'POST', `${SHOP}/orders/${checkoutUid}/fulfilment`, body)).status).toBe(403);
    }
    expect(
      (await studio(otherOwner, 'POST', `${OTHER_SHOP}/orders/${checkoutUid}/fulfilment`, body)).status,
    ).toBe(404);
    const anonymous = await app.server.inject({
      method: 'POST',
      url: `/staff/stores/${SHOP}/orders/${checkoutUid}/fulfilment`,
      payload: body,
    });
    expect(anonymous.statusCode).toBe(401);
    const detail = await studio<StudioOrderDetail>(owner, 'GET', `${SHOP}/orders/${checkoutUid}`);
    expect(detail.body.order.fulfilment).toMatchObject({ status: 'packing', trackingNumber: null });
  });
});

describe('contact captures', () => {
  it('lists and exports the store’s captures with their consent, not another store’s', async () => {
    const viewer = await signIn(app);
    const captured = await call(app, viewer, '/shopapiv2/contact/capture', {
      pageUid: SHOP,
      campaignUid: CAMPAIGN,
      name: '@Ada',
      email: 'ada.contact@example.com',
      consent: true,
    });
    expect(captured.status).toBe(200);
    const list = await studio<{ contacts: { name: string; email: string; consent: boolean }[] }>(
      owner,
      'GET',
      `${SHOP}/contacts`,
    );
    expect(list.body.contacts[0]).toMatchObject({
      name: '@Ada',
      email: 'ada.contact@example.com',
      consent: true,
    });
    const csv = await studio<{ csv: string; rows: number }>(
      owner,
      'GET',
      `${SHOP}/contacts/export?consent=true`,
    );
    expect(csv.body.rows).toBe(1);
    expect(csv.body.csv).toContain("'@Ada,ada.contact@example.com,,yes");
    const other = await studio<{ contacts: unknown[] }>(otherOwner, 'GET', `${OTHER_SHOP}/contacts`);
    expect(other.body.contacts).toEqual([]);
  });
});
