-- The studio's orders and e-mail (issue 14 items 5 and 6): the outbox of every mail sent or kept,
-- refunds staff make through the payment provider, and indexes for listing 10,000+ orders.

-- feature: mail. Every mail the server sends: kept here first (so none is lost with the process),
-- then sent over SMTP when SMTP_URL is set; without it, kept for the studio's outbox (status kept).
-- queued: to be sent (again) at next_attempt_at; failed: given up after its attempts.
CREATE TABLE mail_outbox (
  uid TEXT PRIMARY KEY,
  page_uid TEXT REFERENCES pages (uid) ON DELETE CASCADE,
  template TEXT NOT NULL,
  locale TEXT NOT NULL,
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  text_body TEXT NOT NULL,
  html_body TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'kept', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT,
  error TEXT,
  -- one mail per key (e.g. the confirmation of one order), however often its cause is reported
  dedupe_key TEXT UNIQUE,
  created_at BIGINT NOT NULL,
  sent_at BIGINT
);
CREATE INDEX mail_outbox_page_idx ON mail_outbox (page_uid, created_at DESC, uid DESC);
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at) WHERE status = 'queued';

-- feature: checkout. A refund staff asked the payment provider for, per payment transaction.
-- request_key makes a repeated request (a double click) the same refund.
CREATE TABLE order_refunds (
  uid TEXT PRIMARY KEY,
  checkout_uid TEXT NOT NULL REFERENCES checkouts (uid) ON DELETE CASCADE,
  transaction_uid TEXT NOT NULL REFERENCES payment_transactions (uid) ON DELETE CASCADE,
  request_key TEXT NOT NULL,
  amount BIGINT NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('requested', 'failed')),
  error TEXT,
  -- the staff member; null for the admin key
  requested_by TEXT REFERENCES users (uid) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  UNIQUE (checkout_uid, request_key, transaction_uid)
);
CREATE INDEX order_refunds_checkout_idx ON order_refunds (checkout_uid, created_at);

-- feature: checkout. The studio's order list: a store's orders newest first (keyset paging on
-- ordered_at, uid), and the same within one show's campaign.
CREATE INDEX checkouts_store_orders_idx ON checkouts (page_uid, ordered_at DESC, uid DESC)
  WHERE order_number IS NOT NULL;
CREATE INDEX checkouts_campaign_orders_idx ON checkouts (page_uid, campaign_uid, ordered_at DESC, uid DESC)
  WHERE order_number IS NOT NULL;
