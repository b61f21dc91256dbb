import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkWebhookSignature, signWebhook, WEBHOOK_TOLERANCE_MS } from './webhook-signature.ts';

const secret = randomBytes(32);
const body = '{"id":"evt_1","type":"payment.succeeded"}';
const NOW = 1_800_000_000_000;

describe('webhook signatures', () => {
  it('accepts its own signature within the tolerance, either side of the clock', () => {
    const header = signWebhook(secret, body, NOW);
    expect(header).toMatch(/^t=1800000000,v1=[0-9a-f]{64}$/);
    expect(checkWebhookSignature(secret, body, header, NOW)).toBe('valid');
    expect(checkWebhookSignature(secret, body, header, NOW + WEBHOOK_TOLERANCE_MS)).toBe('valid');
    expect(checkWebhookSignature(secret, body, header, NOW - WEBHOOK_TOLERANCE_MS)).toBe('valid');
  });

  it('calls an old or future timestamp stale, but only with a valid signature', () => {
    const header = signWebhook(secret, body, NOW);
    expect(checkWebhookSignature(secret, body, header, NOW + WEBHOOK_TOLERANCE_MS + 1000)).toBe('stale');
    expect(checkWebhookSignature(secret, body, header, NOW - WEBHOOK_TOLERANCE_MS - 1000)).toBe('stale');
  });

  it('rejects another secret, another body, and a timestamp changed after signing', () => {
    const header = signWebhook(secret, body, NOW);
    expect(checkWebhookSignature(randomBytes(32), body, header, NOW)).toBe('mismatch');
    expect(checkWebhookSignature(secret, `${body} `, header, NOW)).toBe('mismatch');
    expect(checkWebhookSignature(secret, body, header.replace('t=1800000000', 't=1800000001'), NOW)).toBe(
      'mismatch',
    );
  });

  it('accepts any matching v1 among several (secret rotation)', () => {
    const good = signWebhook(secret, body, NOW).split(',')[1];
    const header = `t=1800000000,v1=${'0'.repeat(64)},${good}`;
    expect(checkWebhookSignature(secret, body, header, NOW)).toBe('valid');
  });

  it('tells missing from malformed headers', () => {
    expect(checkWebhookSignature(secret, body, undefined, NOW)).toBe('missing');
    expect(checkWebhookSignature(secret, body, ' ', NOW)).toBe('missing');
    for (const header of ['garbage', 't=,v1=ab', 't=1800000000', 'v1=ab', 't=abc,v1=00']) {
      expect(checkWebhookSignature(secret, body, header, NOW), header).toBe('malformed');
    }
    expect(checkWebhookSignature(secret, body, 't=1800000000,v1=xyz', NOW)).toBe('mismatch');
  });
});
