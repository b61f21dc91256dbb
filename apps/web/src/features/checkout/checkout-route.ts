/**
 * Where the widget belongs once its cart is known (spec §2 "Route behaviour"): a found cart puts
 * its checkout uid into the route, an unloaded cart takes it out again.
 */

import { webPath } from '@vitrine/protocol';

export interface WidgetRouteParams {
  pageUid?: string | undefined;
  campaignUid?: string | undefined;
  eventUid?: string | undefined;
  checkoutUid?: string | undefined;
}

const segment = (value: string) => encodeURIComponent(value);

/**
 * The widget path for the route's page, campaign and event with `checkoutUid` (or without a
 * checkout when it is null). Null for widget routes without a campaign (multi-event, store front):
 * those keep the checkout id in their own state only.
 */
export function widgetPathForCheckout(params: WidgetRouteParams, checkoutUid: string | null): string | null {
  const { pageUid, campaignUid, eventUid } = params;
  if (!pageUid || !campaignUid) return null;
  if (eventUid) {
    const base = `/widget/${segment(pageUid)}/campaign/${segment(campaignUid)}/event/${segment(eventUid)}`;
    return checkoutUid ? `${base}/checkout/${segment(checkoutUid)}` : base;
  }
  const base = `/widget/${segment(pageUid)}/${segment(campaignUid)}`;
  return checkoutUid ? `${base}/${segment(checkoutUid)}` : base;
}

/**
 * The path to replace the current one with, or null to stay. `checkoutUid` is undefined while
 * the cart is still loading: nothing moves until it is known.
 */
export function checkoutRouteChange(
  params: WidgetRouteParams,
  checkoutUid: string | null | undefined,
): string | null {
  if (checkoutUid === undefined) return null;
  if ((params.checkoutUid ?? null) === checkoutUid) return null;
  return widgetPathForCheckout(params, checkoutUid);
}

/** The one-page checkout of a cart (spec §2 "{campaignUid}/{checkoutUid}"). */
export const checkoutPagePath = (campaignUid: string, checkoutUid: string) =>
  `/${segment(campaignUid)}/${segment(checkoutUid)}`;

/** The step where the shopper picks the store to collect a cart's order from (spec §2). */
export const pickupLocationPath = (cart: { pageUid: string; campaignUid: string; checkoutUid: string }) =>
  webPath('checkoutLocation', {
    pageUid: cart.pageUid,
    campaignUid: cart.campaignUid,
    checkoutUid: cart.checkoutUid,
  });
