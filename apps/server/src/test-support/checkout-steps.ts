import type {
  CheckoutReservationDoc,
  CheckoutView,
  PaymentStarted,
  UpdateCheckoutDetailsInput,
} from '@vitrine/protocol';
import type { App } from '../app.ts';
import type { Database } from '../db/database.ts';
import { addSingle, CAMPAIGN, call, HOME_DELIVERY, SHOP, type Shopper, signIn } from './commerce-fixture.ts';

// A shopper's way through the fixture's store (commerce-fixture.ts) from cart to paid order, one
// step a function. A step a test only sets up with fails with the server's answer; a step a test
// checks the answer of (loading, starting a payment) hands the answer back as it is.

type Injectable = Pick<App, 'server'>;

/** The fields naming one checkout of the fixture's store in a shopper's call. */
export const checkoutRef = (checkoutUid: string, campaignUid: string = CAMPAIGN) => ({
  pageUid: SHOP,
  campaignUid,
  checkoutUid,
});

/** Puts mugs in the shopper's cart; answers the cart's checkout. */
export async function cartWithMug(
  app: Injectable,
  shopper: Shopper,
  extra: { quantity?: number; campaignUid?: string } = {},
): Promise<string> {
  const added = await addSingle(app, shopper, 'mug', extra);
  if (added.body.status !== 'added')
    throw new Error(`adding a mug answered ${added.status}: ${JSON.stringify(added.body)}`);
  return added.body.checkoutUid as string;
}

/** Saves the checkout's details: home delivery in Denmark with the test card unless `details`. */
export async function saveCheckoutDetails(
  app: Injectable,
  shopper: Shopper,
  checkoutUid: string,
  options: { campaignUid?: string; details?: UpdateCheckoutDetailsInput['details'] } = {},
): Promise<CheckoutView> {
  const saved = await call<CheckoutView>(app, shopper, '/functions/customerpage/updateCheckoutDetails', {
    ...checkoutRef(checkoutUid, options.campaignUid),
    details: options.details ?? HOME_DELIVERY,
  });
  if (saved.status !== 200)
    throw new Error(`saving checkout details answered ${saved.status}: ${JSON.stringify(saved.body)}`);
  return saved.body;
}

/** A new shopper with a mug in the cart and complete details; the order is not placed yet. */
export async function readyCheckout(app: Injectable): Promise<{ shopper: Shopper; checkoutUid: string }> {
  const shopper = await signIn(app);
  const checkoutUid = await cartWithMug(app, shopper);
  await saveCheckoutDetails(app, shopper, checkoutUid);
  return { shopper, checkoutUid };
}

/** Places the shopper's order; answers the checkout as placed. */
export async function placeOrder(
  app: Injectable,
  shopper: Shopper,
  checkoutUid: string,
  campaignUid?: string,
): Promise<CheckoutView> {
  const placed = await call<CheckoutView>(
    app,
    shopper,
    '/functions/customerpage/placeOrder',
    checkoutRef(checkoutUid, campaignUid),
  );
  if (placed.status !== 200)
    throw new Error(`placing the order answered ${placed.status}: ${JSON.stringify(placed.body)}`);
  return placed.body;
}

/**
 * Starts paying the order (placing it first if it is not yet); the server's answer as it is, typed
 * as a refusal's body by a test that expects one.
 */
export function startPayment<Answer = PaymentStarted>(
  app: Injectable,
  shopper: Shopper,
  checkoutUid: string,
  options: { returnPath?: string; campaignUid?: string } = {},
) {
  return call<Answer>(app, shopper, '/functions/customerpage/userPaymentStarted', {
    ...checkoutRef(checkoutUid, options.campaignUid),
    ...(options.returnPath ? { returnPath: options.returnPath } : {}),
  });
}

/** Confirms a started payment in full, as the test provider's signed webhook does. */
export async function confirmTestPayment(
  app: Pick<App, 'server' | 'services'>,
  started: PaymentStarted,
): Promise<void> {
  const provider = app.services.testProvider;
  if (!provider) throw new Error('the test provider is on in tests');
  const { body, signature } = await provider.signedEvent(
    {
      id: `evt_paid_${started.transactionUid}`,
      type: 'payment.succeeded',
      transactionUid: started.transactionUid,
      amount: started.amount,
      currency: started.currency,
      created: Date.now(),
    },
    Date.now(),
  );
  const delivered = await app.server.inject({
    method: 'POST',
    url: '/payments/test/webhook',
    headers: { 'content-type': 'application/json', [provider.signatureHeader]: signature },
    payload: body,
  });
  if (delivered.statusCode !== 200)
    throw new Error(`the payment webhook answered ${delivered.statusCode}: ${delivered.body}`);
}

/** Starts the order's payment and confirms it in full; answers the payment as started. */
export async function payOrder(
  app: Pick<App, 'server' | 'services'>,
  shopper: Shopper,
  checkoutUid: string,
  campaignUid?: string,
): Promise<PaymentStarted> {
  const started = await startPayment(app, shopper, checkoutUid, campaignUid ? { campaignUid } : {});
  if (started.status !== 200)
    throw new Error(`starting the payment answered ${started.status}: ${JSON.stringify(started.body)}`);
  await confirmTestPayment(app, started.body);
  return started.body;
}

/** The checkout as the shopper's order page loads it; fails with the server's answer. */
export async function loadCheckout(
  app: Injectable,
  shopper: Shopper,
  checkoutUid: string,
): Promise<CheckoutView> {
  const loaded = await call<CheckoutView>(
    app,
    shopper,
    '/functions/customerpage/loadCheckout',
    checkoutRef(checkoutUid),
  );
  if (loaded.status !== 200)
    throw new Error(`loading the checkout answered ${loaded.status}: ${JSON.stringify(loaded.body)}`);
  return loaded.body;
}

/** The shopper's live cart document as stored (the player reads it); undefined before any add. */
export async function reservationDoc(
  app: { db: Database },
  shopper: Shopper,
): Promise<CheckoutReservationDoc | undefined> {
  const [row] = await app.db.query<{ data: CheckoutReservationDoc }>(
    'SELECT data FROM checkout_reservations WHERE user_uid = $1',
    [shopper.uid],
  );
  return row?.data;
}
