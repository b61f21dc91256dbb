import type { CheckoutOptions, CheckoutView, LiveEvent, PlayerSettings, StoreInfo } from '@vitrine/protocol';
import { data, type LoaderFunctionArgs, redirect } from 'react-router';
import { ApiError, loadStoreInfo, read } from '../../lib/api.ts';
import { logFailure } from '../../lib/debug.ts';
import { rethrowAsNotFound } from '../../lib/loader-errors.ts';
import { checkoutOptions, getCartUid, loadCheckout } from './checkout-api.ts';
import { checkoutPagePath } from './checkout-route.ts';

/** What every checkout screen loads: the store, its colours, the campaign, the checkout and its options. */
export interface CheckoutData {
  pageUid: string;
  campaignUid: string;
  checkoutUid: string;
  showName: string;
  storeInfo: StoreInfo;
  playerSettings: PlayerSettings | null;
  view: CheckoutView;
  options: CheckoutOptions;
}

const notFound = () => data('Not found', { status: 404 });

/** The campaign's events; the first names the campaign and its store (the page of `{campaignUid}/…`). */
async function campaignEvents(campaignUid: string): Promise<LiveEvent[]> {
  const events = await read('liveEvents.byCampaign', { campaignIds: [campaignUid] }).catch(rethrowAsNotFound);
  if (events.length === 0) throw notFound();
  return events;
}

export const checkoutErrorPath = (pageUid: string, campaignUid: string, checkoutUid: string) =>
  `/${encodeURIComponent(pageUid)}/${encodeURIComponent(campaignUid)}/${encodeURIComponent(checkoutUid)}/error`;

/**
 * Loads a checkout screen. The page comes from the route when it has one (options, location),
 * else from the campaign. A checkout that is not the viewer's, or does not exist, is not found;
 * any other failure goes to the checkout error route.
 */
export async function loadCheckoutData({ params }: LoaderFunctionArgs): Promise<CheckoutData> {
  const { campaignUid, checkoutUid } = params;
  if (!campaignUid || !checkoutUid) throw notFound();
  const events = await campaignEvents(campaignUid);
  const first = events[0];
  if (!first) throw notFound();
  const pageUid = params.pageUid ?? first.event.storeInfo.id;
  const ref = { pageUid, campaignUid, checkoutUid };
  try {
    const [storeInfo, playerSettings, view, options] = await Promise.all([
      loadStoreInfo(pageUid),
      read('playerSettings', { pageUid }).catch(() => null),
      loadCheckout(ref),
      checkoutOptions(ref),
    ]);
    return {
      ...ref,
      showName: first.event.eventName,
      storeInfo,
      playerSettings,
      view,
      options,
    };
  } catch (error) {
    if (error instanceof ApiError && [400, 403, 404].includes(error.status)) throw notFound();
    logFailure('loading the checkout failed', error);
    throw redirect(checkoutErrorPath(pageUid, campaignUid, checkoutUid));
  }
}

export interface CreateCheckoutData {
  pageUid: string;
  showName: string;
  failed: true;
}

/**
 * `{campaignUid}/create`: makes (or finds) the viewer's cart in the campaign and goes to its
 * checkout. When that fails the screen says so (spec §8 "Problem preparing your basket…").
 */
export async function createCheckoutLoader({ params }: LoaderFunctionArgs): Promise<CreateCheckoutData> {
  const { campaignUid } = params;
  if (!campaignUid) throw notFound();
  const events = await campaignEvents(campaignUid);
  const first = events[0];
  if (!first) throw notFound();
  const pageUid = first.event.storeInfo.id;
  let uid: string | null = null;
  try {
    ({ uid } = await getCartUid({ campaignUid, pageUid, context: 'checkout', create: true }));
  } catch (error) {
    logFailure('preparing the basket failed', error);
  }
  if (uid) throw redirect(checkoutPagePath(campaignUid, uid));
  return { pageUid, showName: first.event.eventName, failed: true };
}

export interface CheckoutErrorData {
  pageUid: string;
  storeInfo: StoreInfo | null;
}

/** The checkout error route: the store's name when it can be had, the error page either way. */
export async function checkoutErrorLoader({ params }: LoaderFunctionArgs): Promise<CheckoutErrorData> {
  const pageUid = params.pageUid ?? '';
  const storeInfo = await loadStoreInfo(pageUid).catch(() => null);
  return { pageUid, storeInfo };
}
