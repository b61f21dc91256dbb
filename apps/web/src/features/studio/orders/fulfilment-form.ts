import { trackingLink } from '@vitrine/domain';
import { StudioFulfilmentRequest } from '@vitrine/protocol';
import { KNOWN_CARRIERS } from '@vitrine/protocol/vocabulary';

/** The shipping form as typed: a known carrier or "other" with its name, the number, a pasted link. */
export interface ShipmentForm {
  carrier: string;
  otherCarrier: string;
  trackingNumber: string;
  trackingUrl: string;
}

export const OTHER_CARRIER = 'other';

/**
 * The request the shipping form sends, checked with the server's own schema, or the field to
 * fix and why: a carrier the studio has no tracking template for needs a pasted link.
 */
export function shipmentRequest(
  form: ShipmentForm,
):
  | { ok: true; request: StudioFulfilmentRequest }
  | { ok: false; field: keyof ShipmentForm; problem: 'required' | 'link' | 'linkNeeded' } {
  const carrier = form.carrier === OTHER_CARRIER ? form.otherCarrier.trim() : form.carrier;
  if (carrier === '') return { ok: false, field: 'otherCarrier', problem: 'required' };
  if (form.trackingNumber.trim() === '') return { ok: false, field: 'trackingNumber', problem: 'required' };
  const url = form.trackingUrl.trim();
  const known = (KNOWN_CARRIERS as readonly string[]).includes(carrier);
  if (url === '' && !known) return { ok: false, field: 'trackingUrl', problem: 'linkNeeded' };
  if (url !== '' && trackingLink(carrier, form.trackingNumber, url) === null) {
    return { ok: false, field: 'trackingUrl', problem: 'link' };
  }
  const parsed = StudioFulfilmentRequest.safeParse({
    status: 'shipped',
    carrier,
    trackingNumber: form.trackingNumber,
    ...(url ? { trackingUrl: url } : {}),
  });
  if (!parsed.success) return { ok: false, field: 'trackingUrl', problem: 'link' };
  return { ok: true, request: parsed.data };
}
