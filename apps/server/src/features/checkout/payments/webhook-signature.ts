import { createHmac, timingSafeEqual } from 'node:crypto';

/** How far a webhook's timestamp may be from our clock: older deliveries are replays. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60_000;

/**
 * The signature header of a webhook body, `t=<unix seconds>,v1=<hex HMAC-SHA256>` over
 * `"<t>.<raw body>"`: the timestamp is signed with the body, so it cannot be refreshed by a replayer.
 */
export function signWebhook(secret: Buffer, rawBody: string, nowMs: number): string {
  const timestamp = Math.floor(nowMs / 1000);
  return `t=${timestamp},v1=${hmac(secret, timestamp, rawBody)}`;
}

export type SignatureCheck = 'valid' | 'missing' | 'malformed' | 'mismatch' | 'stale';

/** Checks a signature header against the raw body: the signature first, then the timestamp's age. */
export function checkWebhookSignature(
  secret: Buffer,
  rawBody: string,
  header: string | undefined,
  nowMs: number,
): SignatureCheck {
  if (header === undefined || header.trim() === '') return 'missing';
  const fields = new Map<string, string[]>();
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (!key || value === undefined) return 'malformed';
    fields.set(key, [...(fields.get(key) ?? []), value]);
  }
  const timestampText = fields.get('t')?.[0] ?? '';
  const timestamp = Number(timestampText);
  const signatures = fields.get('v1') ?? [];
  if (!/^[0-9]{1,12}$/.test(timestampText) || signatures.length === 0) return 'malformed';
  const expected = Buffer.from(hmac(secret, timestamp, rawBody), 'hex');
  const matches = signatures.some((signature) => {
    if (!/^[0-9a-f]{64}$/i.test(signature)) return false;
    return timingSafeEqual(Buffer.from(signature, 'hex'), expected);
  });
  if (!matches) return 'mismatch';
  if (Math.abs(nowMs - timestamp * 1000) > WEBHOOK_TOLERANCE_MS) return 'stale';
  return 'valid';
}

function hmac(secret: Buffer, timestamp: number, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}
