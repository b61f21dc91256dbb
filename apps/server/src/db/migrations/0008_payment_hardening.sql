-- Payment hardening (issue 12): 64-bit money, confirmations that survive a crash, refunds owed
-- for confirmations that no longer fit the order, payment pages bound to their starter, and the
-- provider's own reference of a payment (Stripe's Checkout Session and PaymentIntent).

-- feature: checkout. Prices and totals in minor units can exceed 2^31 - 1 (21,474,836.47 kr.).
ALTER TABLE checkout_lines ALTER COLUMN unit_price TYPE BIGINT;

-- feature: checkout. Same for payment amounts.
ALTER TABLE payment_transactions ALTER COLUMN amount_refunded TYPE BIGINT;
ALTER TABLE payment_transactions ALTER COLUMN total_price TYPE BIGINT;

-- feature: checkout. Minor units of a confirmed payment the order no longer owed (the order
-- shrank, or another attempt paid it first): the money arrived but does not count, and the shop
-- must refund it. 0 for every ordinary payment.
ALTER TABLE payment_transactions ADD COLUMN refund_due BIGINT NOT NULL DEFAULT 0 CHECK (refund_due >= 0);

-- feature: checkout. SHA-256 (hex) of the secret that opens the test provider's payment page,
-- returned only to the shopper who started the payment; null for other providers.
ALTER TABLE payment_transactions ADD COLUMN page_key_hash TEXT;

-- feature: checkout. The provider's ids of the payment (Stripe: the Checkout Session id, and the
-- PaymentIntent id once completed, which refunds name) and the provider's payment page.
ALTER TABLE payment_transactions ADD COLUMN provider_session_id TEXT;
ALTER TABLE payment_transactions ADD COLUMN provider_payment_id TEXT;
ALTER TABLE payment_transactions ADD COLUMN payment_url TEXT;
CREATE UNIQUE INDEX payment_transactions_provider_payment_idx
  ON payment_transactions (provider, provider_payment_id) WHERE provider_payment_id IS NOT NULL;

-- feature: checkout. Approvals on the test provider's page whose confirmation is still to be
-- sent: confirmed when due, and on start-up after a crash (an in-memory timer alone lost them).
CREATE TABLE test_payment_confirmations (
  transaction_uid TEXT PRIMARY KEY REFERENCES payment_transactions (uid) ON DELETE CASCADE,
  due_at BIGINT NOT NULL
);
