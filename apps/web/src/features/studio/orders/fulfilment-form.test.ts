import { describe, expect, it } from 'vitest';
import { shipmentRequest } from './fulfilment-form.ts';

const form = { carrier: 'gls', otherCarrier: '', trackingNumber: ' 123 ', trackingUrl: '' };

describe('the shipping form', () => {
  it('ships with a known carrier by its template, trimmed', () => {
    expect(shipmentRequest(form)).toEqual({
      ok: true,
      request: { status: 'shipped', carrier: 'gls', trackingNumber: '123' },
    });
  });

  it('needs a number, a carrier name and, for an unknown carrier, an http(s) link', () => {
    expect(shipmentRequest({ ...form, trackingNumber: ' ' })).toMatchObject({ field: 'trackingNumber' });
    expect(shipmentRequest({ ...form, carrier: 'other' })).toMatchObject({ field: 'otherCarrier' });
    expect(shipmentRequest({ ...form, carrier: 'other', otherCarrier: 'Bike' })).toMatchObject({
      field: 'trackingUrl',
      problem: 'linkNeeded',
    });
    expect(
      shipmentRequest({
        ...form,
        carrier: 'other',
        otherCarrier: 'Bike',
        trackingUrl: 'javascript:alert(1)',
      }),
    ).toMatchObject({ field: 'trackingUrl', problem: 'link' });
    expect(
      shipmentRequest({
        ...form,
        carrier: 'other',
        otherCarrier: 'Bike',
        trackingUrl: 'https://bike.example/1',
      }),
    ).toMatchObject({ ok: true, request: { carrier: 'Bike', trackingUrl: 'https://bike.example/1' } });
  });
});
