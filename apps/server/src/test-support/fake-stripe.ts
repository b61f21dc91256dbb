import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Checkout Session creation as the fake received it. */
export interface RecordedSessionRequest {
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  contentType: string | undefined;
  /** The form fields, e.g. `line_items[0][price_data][unit_amount]`. */
  form: Record<string, string>;
}

/**
 * A local stand-in for Stripe's API speaking its documented wire format: form-encoded
 * `POST /v1/checkout/sessions` answered with a Checkout Session object, session expiry and
 * `POST /v1/refunds`. It records each request;
 * `failNext` makes the next creation answer 500 (an outage).
 */
export async function startFakeStripe() {
  const sessions: RecordedSessionRequest[] = [];
  /** Ids of sessions expired by POST /v1/checkout/sessions/:id/expire. */
  const expired: string[] = [];
  /** Refunds created by POST /v1/refunds. */
  const refunds: { idempotencyKey: string | undefined; form: Record<string, string> }[] = [];
  let failures = 0;
  let refundFailures = 0;
  const server = createServer(async (request, response) => {
    const body = await readBody(request);
    const expire =
      request.method === 'POST'
        ? /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(request.url ?? '')
        : null;
    if (expire) {
      expired.push(decodeURIComponent(expire[1] ?? ''));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: expire[1], object: 'checkout.session', status: 'expired' }));
      return;
    }
    if (request.method === 'POST' && request.url === '/v1/refunds') {
      const form = Object.fromEntries(new URLSearchParams(body));
      if (refundFailures > 0) {
        refundFailures--;
        // What Stripe answers for a refund larger than what is left of the charge.
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            error: {
              type: 'invalid_request_error',
              code: 'charge_already_refunded',
              message: 'Charge has already been refunded.',
            },
          }),
        );
        return;
      }
      refunds.push({ idempotencyKey: header(request, 'idempotency-key'), form });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: `re_${refunds.length}`,
          object: 'refund',
          amount: Number(form.amount),
          payment_intent: form.payment_intent,
          status: 'succeeded',
        }),
      );
      return;
    }
    if (request.method !== 'POST' || request.url !== '/v1/checkout/sessions') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }),
      );
      return;
    }
    if (failures > 0) {
      failures--;
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { type: 'api_error', message: 'Something went wrong' } }));
      return;
    }
    const form = Object.fromEntries(new URLSearchParams(body));
    sessions.push({
      authorization: request.headers.authorization,
      idempotencyKey: header(request, 'idempotency-key'),
      contentType: header(request, 'content-type'),
      form,
    });
    const id = `cs_test_${sessions.length}`;
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id,
        object: 'checkout.session',
        mode: form.mode,
        status: 'open',
        payment_status: 'unpaid',
        client_reference_id: form.client_reference_id ?? null,
        currency: form['line_items[0][price_data][currency]'],
        amount_total: Number(form['line_items[0][price_data][unit_amount]']),
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        url: `https://checkout.stripe.test/c/pay/${id}`,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sessions,
    expired,
    refunds,
    failNext() {
      failures++;
    },
    /** The next refund is refused as Stripe refuses one (400 charge_already_refunded). */
    failNextRefund() {
      refundFailures++;
    },
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** An event as Stripe posts it to a webhook endpoint. */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  id = `evt_${Math.random().toString(36).slice(2)}`,
) {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2024-06-20',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type,
    data: { object },
  });
}

/**
 * The `Stripe-Signature` header as Stripe documents it (computed here independently of the
 * server's code): `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the whsec_ secret>`.
 */
export function stripeSignature(webhookSecret: string, body: string, nowMs = Date.now()): string {
  const t = Math.floor(nowMs / 1000);
  const v1 = createHmac('sha256', webhookSecret).update(`${t}.${body}`, 'utf8').digest('hex');
  return `t=${t},v1=${v1}`;
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
