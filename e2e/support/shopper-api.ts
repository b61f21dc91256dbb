import type { AuthSession, CheckoutView } from '@vitrine/protocol';
import type { Page } from 'playwright-core';
import { waitFor } from '../../apps/server/src/test-support/live-publisher.ts';
import { bearerCall, testServer } from './test-server.ts';

/**
 * A POST to this worker's server's shopper API, with a shopper's session or with none (before
 * signing in), that must succeed; answers its JSON body. The failure names the call and carries
 * the server's answer.
 */
export function shopperCall<T>(path: string, body: unknown, token?: string): Promise<T> {
  return bearerCall<T>(token, 'POST', path, body);
}

/** A new anonymous shopper's session, as a visitor's first add or comment makes one. */
export function signInAnonymously(): Promise<AuthSession> {
  return shopperCall<AuthSession>('/functions/auth/signInAnonymously', {});
}

/** Which checkout the checkout calls are about: the store, the show and the cart's checkout. */
export interface CheckoutRef {
  pageUid: string;
  campaignUid: string;
  checkoutUid: string;
}

/**
 * The checkout of the cart a viewer's page made (an add signs the viewer in), with the session
 * the page keeps, for ordering and paying it through the API as the checkout screens would.
 */
export async function checkoutOfViewer(
  page: Page,
  pageUid: string,
  campaignUid: string,
): Promise<{ token: string; ref: CheckoutRef }> {
  const session = await page.evaluate(
    () => JSON.parse(localStorage.getItem('vitrine-session') ?? 'null') as AuthSession | null,
  );
  if (!session) throw new Error('the viewer has no session: the add signs the viewer in');
  const token = session.idToken;
  const checkout = await bearerCall<{ uid: string }>(token, 'POST', '/shopapiv2/cart/getCartUid', {
    pageUid,
    campaignUid,
    context: 'checkout',
  });
  return { token, ref: { pageUid, campaignUid, checkoutUid: checkout.uid } };
}

/** Fills a checkout as a buyer in Denmark (Aarhus) who has it delivered home and pays by test card. */
export async function fillCheckoutDetails(
  token: string,
  ref: CheckoutRef,
  buyer: { name: string; emailAddress: string },
): Promise<void> {
  await bearerCall(token, 'POST', '/functions/customerpage/updateCheckoutDetails', {
    ...ref,
    details: {
      deliveryCountry: 'DK',
      address: {
        name: buyer.name,
        address: 'Mejlgade 1',
        postCode: '8000',
        city: 'Aarhus C',
        phone: '+45 12 34 56 78',
        emailAddress: buyer.emailAddress,
      },
      shippingMethod: 'home_delivery',
      paymentMethod: 'test_card',
      termsAccepted: true,
    },
  });
}

/**
 * Pays a filled checkout by test card: starts the payment, approves it as the test provider's
 * page would, then waits until the checkout says it is paid (the test provider confirms an
 * approval after a moment, as real providers do). Answers the paid checkout and when
 * (Date.now()) the approval was sent.
 */
export async function payWithTestCard(
  token: string,
  ref: CheckoutRef,
  timeoutMs: number,
): Promise<{ order: CheckoutView; approvedAt: number }> {
  const started = await bearerCall<{ paymentUrl: string; transactionUid: string }>(
    token,
    'POST',
    '/functions/customerpage/userPaymentStarted',
    ref,
  );
  const key = new URL(started.paymentUrl).searchParams.get('key') ?? '';
  const approvedAt = Date.now();
  const approved = await fetch(
    `${testServer().baseUrl}/payments/test/pay/${started.transactionUid}/approve`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key }).toString(),
      redirect: 'manual',
    },
  );
  if (approved.status !== 303)
    throw new Error(
      `approving test payment ${started.transactionUid} answered ${approved.status}: ${await approved.text()}`,
    );
  const order = await waitFor(
    `checkout ${ref.checkoutUid} paid`,
    async () => {
      const view = await bearerCall<CheckoutView>(token, 'POST', '/functions/customerpage/loadCheckout', ref);
      return view.payed ? view : null;
    },
    timeoutMs,
  );
  return { order, approvedAt };
}
