-- Show analytics (issue 17). The tracking feature's raw events get the analytics fields as
-- columns (the player's viewer id, live or replay, watch seconds) so the rollup reads them
-- without parsing JSON, and a BRIN index on received_at for the retention purge: rows arrive in
-- time order, so a few summary pages find the old ones, and every insert stays cheap (the rollup
-- reads by id, the primary key; no other index is added to this append-heavy table).
ALTER TABLE tracking_events
  ADD COLUMN viewer_uid TEXT,
  ADD COLUMN replay BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN watched_seconds REAL NOT NULL DEFAULT 0,
  ADD COLUMN product_uid TEXT,
  ADD COLUMN product_shown BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX tracking_events_received_brin ON tracking_events USING brin (received_at);

-- feature: analytics. How far the rollup has read tracking_events (by id), one row per job.
CREATE TABLE analytics_cursor (
  name TEXT PRIMARY KEY,
  last_event_id BIGINT NOT NULL,
  rolled_up_at BIGINT NOT NULL
);

-- feature: analytics. The shows the rollup has seen, with their store: events name a campaign,
-- and only a campaign that exists (checked once through the events feature) is rolled up.
CREATE TABLE analytics_shows (
  campaign_uid TEXT PRIMARY KEY,
  page_uid TEXT NOT NULL,
  rolled_up_at BIGINT NOT NULL
);
CREATE INDEX analytics_shows_page_idx ON analytics_shows (page_uid);

-- feature: analytics. One row per show minute: what reports read.
CREATE TABLE analytics_minutes (
  campaign_uid TEXT NOT NULL,
  minute BIGINT NOT NULL,
  viewers_live INTEGER NOT NULL DEFAULT 0,
  viewers_replay INTEGER NOT NULL DEFAULT 0,
  product_views INTEGER NOT NULL DEFAULT 0,
  watch_seconds_live DOUBLE PRECISION NOT NULL DEFAULT 0,
  watch_seconds_replay DOUBLE PRECISION NOT NULL DEFAULT 0,
  comments INTEGER NOT NULL DEFAULT 0,
  reactions INTEGER NOT NULL DEFAULT 0,
  details_opened INTEGER NOT NULL DEFAULT 0,
  adds INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (campaign_uid, minute)
);

-- feature: analytics. Each (viewer, minute) seen: per-minute viewers are counted from it, as
-- viewer counts of two slices of events cannot be added.
CREATE TABLE analytics_viewer_minutes (
  campaign_uid TEXT NOT NULL,
  minute BIGINT NOT NULL,
  viewer_key TEXT NOT NULL,
  replay BOOLEAN NOT NULL,
  product_shown BOOLEAN NOT NULL,
  watch_seconds DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (campaign_uid, minute, viewer_key)
);

-- feature: analytics. One row per show viewer: unique viewers, watch time, retention.
CREATE TABLE analytics_viewers (
  campaign_uid TEXT NOT NULL,
  viewer_key TEXT NOT NULL,
  first_minute BIGINT NOT NULL,
  last_minute BIGINT NOT NULL,
  minutes INTEGER NOT NULL,
  watch_seconds DOUBLE PRECISION NOT NULL,
  live BOOLEAN NOT NULL,
  replay BOOLEAN NOT NULL,
  PRIMARY KEY (campaign_uid, viewer_key)
);

-- feature: analytics. The funnel marks of one viewer and product.
CREATE TABLE analytics_viewer_products (
  campaign_uid TEXT NOT NULL,
  product_uid TEXT NOT NULL,
  viewer_key TEXT NOT NULL,
  details_opened BOOLEAN NOT NULL,
  added BOOLEAN NOT NULL,
  PRIMARY KEY (campaign_uid, product_uid, viewer_key)
);

-- feature: analytics. The show's orders per minute and currency, from the checkout feature's
-- service (rewritten whole for a show whose orders changed).
CREATE TABLE analytics_order_minutes (
  campaign_uid TEXT NOT NULL,
  minute BIGINT NOT NULL,
  currency TEXT NOT NULL,
  orders INTEGER NOT NULL,
  paid_orders INTEGER NOT NULL,
  revenue BIGINT NOT NULL,
  PRIMARY KEY (campaign_uid, minute, currency)
);

-- feature: analytics. The show's orders per product and currency (ordered, paid, revenue).
CREATE TABLE analytics_product_orders (
  campaign_uid TEXT NOT NULL,
  product_uid TEXT NOT NULL,
  currency TEXT NOT NULL,
  orders INTEGER NOT NULL,
  paid_orders INTEGER NOT NULL,
  quantity INTEGER NOT NULL,
  revenue BIGINT NOT NULL,
  PRIMARY KEY (campaign_uid, product_uid, currency)
);

-- feature: analytics. Entries in the show's competitions per minute, from the competitions
-- feature's service (rewritten whole with the orders).
CREATE TABLE analytics_competition_minutes (
  campaign_uid TEXT NOT NULL,
  minute BIGINT NOT NULL,
  entries INTEGER NOT NULL,
  PRIMARY KEY (campaign_uid, minute)
);
