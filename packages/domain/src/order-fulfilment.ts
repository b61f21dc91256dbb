/**
 * An order's life after packing (issue 33 item 11): which status may follow which, who may move
 * it, and the tracking link a shipped parcel gets. The studio's buttons and the server's refusals
 * both come from here.
 */

import type { StaffRoleName } from './staff-roles.ts';
import type { FulfilmentStatus, KnownCarrier, ShippingMethodKind } from './vocabulary.ts';

/**
 * The steps that may follow each status. Packing may skip "packed" (packed and handed to the
 * carrier at once); a packed parcel may be delivered without shipping (collected in store);
 * "shipped" again corrects the carrier or tracking number. Delivered is the end.
 */
const NEXT: Record<FulfilmentStatus, readonly FulfilmentStatus[]> = {
  packing: ['packed', 'shipped'],
  packed: ['shipped', 'delivered'],
  shipped: ['shipped', 'delivered'],
  delivered: [],
};

/** The roles that move orders: orders hold shoppers' addresses and revenue, the owner's (README). */
const FULFILMENT_ROLES: readonly StaffRoleName[] = ['owner'];

/** Why a status change is refused; null when it is allowed. */
export type FulfilmentRefusal = 'role' | 'notSentToPacking' | 'notNext';

/** The statuses the studio offers after `from`; a pickup order is collected, never shipped. */
export function nextFulfilmentSteps(
  from: FulfilmentStatus,
  shippingMethod: ShippingMethodKind | null,
): FulfilmentStatus[] {
  return NEXT[from].filter((to) => !(to === 'shipped' && shippingMethod === 'store_pickup'));
}

/**
 * Whether `role` may move an order from `from` (null: not sent to packing yet) to `to`. The
 * server answers 403 for `role`, 409 for the others.
 */
export function fulfilmentRefusal(change: {
  role: StaffRoleName;
  from: FulfilmentStatus | null;
  to: FulfilmentStatus;
  shippingMethod: ShippingMethodKind | null;
}): FulfilmentRefusal | null {
  if (!FULFILMENT_ROLES.includes(change.role)) return 'role';
  if (change.from === null) return 'notSentToPacking';
  if (!nextFulfilmentSteps(change.from, change.shippingMethod).includes(change.to)) return 'notNext';
  return null;
}

/** The carriers' tracking pages; `{number}` is the tracking number, URL-encoded. */
export const CARRIER_TRACKING_TEMPLATES: Record<KnownCarrier, { name: string; url: string }> = {
  postnord: { name: 'PostNord', url: 'https://tracking.postnord.com/?id={number}' },
  gls: { name: 'GLS', url: 'https://gls-group.com/track/{number}' },
  dao: { name: 'DAO', url: 'https://www.dao.as/privat/find-din-pakke?stregkode={number}' },
  bring: { name: 'Bring', url: 'https://tracking.bring.com/tracking/{number}' },
  dhl: { name: 'DHL', url: 'https://www.dhl.com/global-en/home/tracking.html?tracking-id={number}' },
  ups: { name: 'UPS', url: 'https://www.ups.com/track?tracknum={number}' },
  dpd: { name: 'DPD', url: 'https://tracking.dpd.de/status/en_US/parcel/{number}' },
  fedex: { name: 'FedEx', url: 'https://www.fedex.com/fedextrack/?trknbr={number}' },
};

/**
 * Whether a text is an absolute http(s) URL with a host and no spaces: the only links a shopper
 * is sent to (javascript:, data: and relative links are not). Checked by pattern because the
 * domain package runs without the URL class in its types.
 */
export function isHttpUrl(text: string): boolean {
  return /^https?:\/\/[^\s/?#@]+(?:[/?#][^\s]*)?$/i.test(text);
}

/** A carrier as shown: a known carrier's name, else the text the staff typed. */
export const carrierName = (carrier: string): string =>
  carrier in CARRIER_TRACKING_TEMPLATES ? CARRIER_TRACKING_TEMPLATES[carrier as KnownCarrier].name : carrier;

/**
 * The link of a shipped parcel: the URL the staff pasted when it is http(s), else the known
 * carrier's template filled with the tracking number, else none.
 */
export function trackingLink(carrier: string, trackingNumber: string, pasted: string | null): string | null {
  if (pasted !== null && pasted.trim() !== '') return isHttpUrl(pasted.trim()) ? pasted.trim() : null;
  const template = CARRIER_TRACKING_TEMPLATES[carrier as KnownCarrier];
  if (!template || !Object.hasOwn(CARRIER_TRACKING_TEMPLATES, carrier) || trackingNumber.trim() === '')
    return null;
  return template.url.replace('{number}', encodeURIComponent(trackingNumber.trim()));
}
