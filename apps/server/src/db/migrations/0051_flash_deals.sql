-- feature: flash-deals (issue 30 §3). A deal price for one product (or variant) of a live show,
-- started by the host and stamped on the stream clock (started_at, ended_at: server ms), with a
-- total and a per-shopper limit. units_taken never passes total_units (the CHECK is the last guard
-- against overselling; the claim's conditional UPDATE is the first).
CREATE TABLE flash_deals (
  uid TEXT PRIMARY KEY,
  page_uid TEXT NOT NULL,
  campaign_uid TEXT NOT NULL,
  event_uid TEXT NOT NULL,
  product_uid TEXT NOT NULL,
  variant_uid TEXT,
  product_name TEXT NOT NULL,
  prices JSONB NOT NULL,
  regular_prices JSONB NOT NULL,
  countdown_sec INTEGER NOT NULL CHECK (countdown_sec BETWEEN 10 AND 300),
  duration_sec INTEGER NOT NULL CHECK (duration_sec BETWEEN 60 AND 1200),
  total_units INTEGER NOT NULL CHECK (total_units >= 1),
  per_shopper_limit INTEGER NOT NULL CHECK (per_shopper_limit >= 1),
  units_taken INTEGER NOT NULL DEFAULT 0 CHECK (units_taken >= 0 AND units_taken <= total_units),
  started_at BIGINT,
  ended_at BIGINT,
  created_at BIGINT NOT NULL
);
CREATE INDEX flash_deals_campaign_idx ON flash_deals (page_uid, campaign_uid, created_at);

-- What each shopper took at the deal price: her units (never past the per-shopper limit), her adds,
-- and the cart they went to (its order, paid or not, counts for the deal's figures). Units no cart
-- holds any more (a timed-out cart, a removed line) are given back when the deal sells out.
-- feature: flash-deals
CREATE TABLE flash_deal_claims (
  deal_uid TEXT NOT NULL REFERENCES flash_deals (uid) ON DELETE CASCADE,
  user_uid TEXT NOT NULL,
  qty INTEGER NOT NULL CHECK (qty >= 0),
  adds INTEGER NOT NULL DEFAULT 0,
  -- Adds claimed but not yet in her cart: units the release of unheld units must leave alone.
  pending INTEGER NOT NULL DEFAULT 0 CHECK (pending >= 0),
  checkout_uid TEXT,
  currency TEXT,
  unit_price BIGINT,
  PRIMARY KEY (deal_uid, user_uid)
);

-- Viewers who saw a deal open, once each.
-- feature: flash-deals
CREATE TABLE flash_deal_views (
  deal_uid TEXT NOT NULL REFERENCES flash_deals (uid) ON DELETE CASCADE,
  viewer_key TEXT NOT NULL,
  PRIMARY KEY (deal_uid, viewer_key)
);
