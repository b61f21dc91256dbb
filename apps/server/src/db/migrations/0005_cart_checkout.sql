-- Carts, orders and payments (issue 5). A checkout is one shopper's cart in one campaign; placing
-- it makes it an order (with a number), sending it to packing locks it. Stock lives in the
-- catalog's `stock` columns as units still free to reserve: a cart line takes its units out when
-- added and gives them back when removed, cancelled or expired.

-- feature: checkout. One checkout per shopper and campaign.
CREATE TABLE checkouts (
  uid TEXT PRIMARY KEY,
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  campaign_uid TEXT NOT NULL REFERENCES campaigns (uid) ON DELETE CASCADE,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'ordered', 'locked')),
  currency TEXT NOT NULL,
  language TEXT NOT NULL,
  -- what the shopper filled in at checkout (protocol CheckoutDetails)
  details JSONB NOT NULL DEFAULT '{}',
  order_number BIGINT UNIQUE,
  ordered_at BIGINT,
  locked_at BIGINT,
  payed BOOLEAN NOT NULL DEFAULT false,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  UNIQUE (page_uid, campaign_uid, user_uid)
);

-- feature: checkout. A product (or one of its variants) in a checkout, priced by the server.
CREATE TABLE checkout_lines (
  checkout_uid TEXT NOT NULL REFERENCES checkouts (uid) ON DELETE CASCADE,
  product_uid TEXT NOT NULL,
  -- '' for a product without variants, so the key has no NULL
  variant_uid TEXT NOT NULL DEFAULT '',
  qty INTEGER NOT NULL CHECK (qty > 0),
  unit_price INTEGER NOT NULL CHECK (unit_price >= 0),
  product_name TEXT NOT NULL,
  variant_name TEXT,
  sku TEXT NOT NULL DEFAULT '',
  image TEXT,
  -- when the reserved units go back to stock; NULL once ordered
  reserved_until BIGINT,
  added_at BIGINT NOT NULL,
  PRIMARY KEY (checkout_uid, product_uid, variant_uid)
);
CREATE INDEX checkout_lines_reserved_until_idx ON checkout_lines (reserved_until)
  WHERE reserved_until IS NOT NULL;
CREATE INDEX checkout_lines_product_idx ON checkout_lines (product_uid, variant_uid);

-- feature: checkout. The reservation loaded per user (spec §3): language and currency per store.
CREATE TABLE user_reservations (
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  language TEXT,
  currency TEXT,
  show_checkout_presentation BOOLEAN NOT NULL DEFAULT false,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (page_uid, user_uid)
);

-- feature: checkout. Order numbers shown to shoppers, unique across stores.
CREATE SEQUENCE order_numbers START WITH 100001;

-- feature: checkout. One payment attempt of a checkout.
CREATE TABLE payment_transactions (
  uid TEXT PRIMARY KEY,
  checkout_uid TEXT NOT NULL REFERENCES checkouts (uid) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('awaiting_confirmation', 'received', 'declined', 'abandoned')),
  payment_ok BOOLEAN NOT NULL DEFAULT false,
  allow_reopen BOOLEAN NOT NULL DEFAULT false,
  amount_refunded INTEGER NOT NULL DEFAULT 0 CHECK (amount_refunded >= 0),
  total_price INTEGER NOT NULL CHECK (total_price > 0),
  currency TEXT NOT NULL,
  -- site-relative path the hosted payment page returns to
  return_path TEXT NOT NULL,
  created BIGINT NOT NULL,
  updated BIGINT NOT NULL
);
CREATE INDEX payment_transactions_checkout_idx ON payment_transactions (checkout_uid, created);

-- feature: checkout. Every provider event applied once: a replayed event id is ignored.
CREATE TABLE payment_events (
  provider TEXT NOT NULL,
  event_id TEXT NOT NULL,
  transaction_uid TEXT NOT NULL,
  type TEXT NOT NULL,
  -- whether the event moved the transaction (false: arrived late or changed nothing)
  applied BOOLEAN NOT NULL,
  received_at BIGINT NOT NULL,
  PRIMARY KEY (provider, event_id)
);
