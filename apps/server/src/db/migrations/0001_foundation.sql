-- Foundation tables. Each table belongs to one feature (named in its comment); other
-- features go through that feature's service, never the table.
-- Timestamps that travel on the wire are BIGINT milliseconds since the epoch; money is
-- integer minor units in JSONB price lists keyed by ISO currency.

-- feature: stores
CREATE TABLE pages (
  uid TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  terms TEXT NOT NULL DEFAULT '',
  cvr TEXT NOT NULL DEFAULT '',
  logo TEXT,
  address JSONB NOT NULL,
  storefront JSONB NOT NULL,
  language TEXT NOT NULL,
  currency TEXT NOT NULL,
  allowed_origins JSONB NOT NULL DEFAULT '[]',
  player_settings JSONB NOT NULL DEFAULT '{}',
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- feature: events
CREATE TABLE campaigns (
  uid TEXT PRIMARY KEY,
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  name TEXT NOT NULL,
  deadline BIGINT,
  using_checkout BOOLEAN NOT NULL DEFAULT false,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX campaigns_page_idx ON campaigns (page_uid);

-- feature: events
CREATE TABLE live_events (
  id TEXT PRIMARY KEY,
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  campaign_uid TEXT NOT NULL REFERENCES campaigns (uid) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('draft', 'private', 'public')),
  current_status TEXT NOT NULL CHECK (current_status IN ('planned', 'live', 'vod')),
  event_name TEXT NOT NULL,
  event_start_timestamp BIGINT NOT NULL,
  live_start_time BIGINT,
  live_end_time BIGINT,
  cdn TEXT,
  cdn_live_video_id TEXT,
  cdn_video_id TEXT,
  cdn_video_start_time BIGINT,
  cdn_mp4_video_url TEXT,
  live_video_format JSONB,
  live_video_cover TEXT,
  cover_photo_path TEXT,
  video_has_overlay BOOLEAN NOT NULL DEFAULT false,
  onsite_cart_mode TEXT CHECK (onsite_cart_mode IN ('cart', 'product')),
  lead_mode_after_deadline BOOLEAN NOT NULL DEFAULT false,
  use_onsite_cart BOOLEAN NOT NULL DEFAULT false,
  broadcast_delay_ms INTEGER,
  cdn_delay_ms INTEGER,
  video_current_status TEXT CHECK (video_current_status IN ('planned', 'live', 'vod')),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX live_events_page_status_idx ON live_events (page_uid, current_status);
CREATE INDEX live_events_campaign_idx ON live_events (campaign_uid);

-- feature: catalog
CREATE TABLE products (
  uid TEXT PRIMARY KEY,
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  external_id TEXT NOT NULL DEFAULT '',
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  sku TEXT NOT NULL DEFAULT '',
  url TEXT,
  images JSONB NOT NULL DEFAULT '[]',
  prices JSONB NOT NULL,
  stock INTEGER CHECK (stock >= 0),
  options JSONB NOT NULL DEFAULT '[]',
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX products_page_idx ON products (page_uid);

-- feature: catalog. Variants are rows (not JSON) because stock is reserved per variant.
CREATE TABLE product_variants (
  uid TEXT NOT NULL,
  product_uid TEXT NOT NULL REFERENCES products (uid) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  name TEXT NOT NULL,
  sku TEXT NOT NULL DEFAULT '',
  prices JSONB NOT NULL,
  stock INTEGER CHECK (stock >= 0),
  options JSONB NOT NULL DEFAULT '[]',
  PRIMARY KEY (product_uid, uid)
);

-- feature: events
CREATE TABLE event_products (
  uid TEXT NOT NULL,
  event_id TEXT NOT NULL REFERENCES live_events (id) ON DELETE CASCADE,
  product_uid TEXT NOT NULL REFERENCES products (uid) ON DELETE CASCADE,
  relative_cues JSONB NOT NULL DEFAULT '[]',
  absolute_cues JSONB NOT NULL DEFAULT '[]',
  presentation_time BIGINT,
  presentation_end_time BIGINT,
  sorting INTEGER NOT NULL DEFAULT 0,
  studio_controlled BOOLEAN NOT NULL DEFAULT false,
  show_all_products_when_event_starts BOOLEAN NOT NULL DEFAULT false,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (event_id, uid)
);

-- feature: events. Cues are appended live by the host console, so they are rows.
CREATE TABLE event_product_cues (
  id BIGSERIAL PRIMARY KEY,
  event_id TEXT NOT NULL,
  event_product_uid TEXT NOT NULL,
  source TEXT NOT NULL,
  presentation_start_timestamp BIGINT NOT NULL,
  presentation_end_timestamp BIGINT,
  deleted BOOLEAN NOT NULL DEFAULT false,
  FOREIGN KEY (event_id, event_product_uid) REFERENCES event_products (event_id, uid) ON DELETE CASCADE
);
CREATE INDEX event_product_cues_product_idx ON event_product_cues (event_id, event_product_uid);

-- feature: users
CREATE TABLE users (
  uid TEXT PRIMARY KEY,
  name TEXT NOT NULL DEFAULT '',
  is_anonymous BOOLEAN NOT NULL DEFAULT true,
  email TEXT UNIQUE,
  avatar TEXT,
  locale_code TEXT,
  currency_code TEXT,
  tracking_id TEXT,
  competitions_participated JSONB NOT NULL DEFAULT '[]',
  competitions_dismissed JSONB NOT NULL DEFAULT '[]',
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
