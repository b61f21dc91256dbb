-- Tables behind the live queries of spec §7 whose features arrive in later issues. The live
-- query catalogue (realtime/) already serves them with their access rules; the owning features
-- add their writes.

-- feature: events. One presentation record per page and campaign (playlist, active event).
CREATE TABLE campaign_presentations (
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  campaign_uid TEXT NOT NULL REFERENCES campaigns (uid) ON DELETE CASCADE,
  data JSONB NOT NULL DEFAULT '{}',
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (page_uid, campaign_uid)
);

-- feature: events. A change of an event, for on-site players following several stores.
CREATE TABLE onsite_event_updates (
  id BIGSERIAL PRIMARY KEY,
  store_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  time BIGINT NOT NULL,
  updated_event JSONB NOT NULL
);
CREATE INDEX onsite_event_updates_store_time_idx ON onsite_event_updates (store_id, time DESC);

-- feature: checkout. A shopper's reservation (cart) per page, campaign and user.
CREATE TABLE checkout_reservations (
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  campaign_uid TEXT NOT NULL REFERENCES campaigns (uid) ON DELETE CASCADE,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  data JSONB NOT NULL DEFAULT '{}',
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (page_uid, campaign_uid, user_uid)
);

-- feature: checkout. Purchases shown to viewers as they happen.
CREATE TABLE purchases (
  uid TEXT PRIMARY KEY,
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  campaign_uid TEXT NOT NULL REFERENCES campaigns (uid) ON DELETE CASCADE,
  product_uid TEXT NOT NULL,
  buyer_name TEXT NOT NULL DEFAULT '',
  time BIGINT NOT NULL
);
CREATE INDEX purchases_campaign_time_idx ON purchases (page_uid, campaign_uid, time);

-- feature: comments
CREATE TABLE comments (
  uid TEXT PRIMARY KEY,
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  campaign_uid TEXT NOT NULL REFERENCES campaigns (uid) ON DELETE CASCADE,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  user_name TEXT NOT NULL DEFAULT '',
  text TEXT NOT NULL,
  time BIGINT NOT NULL,
  thread_id TEXT,
  source TEXT NOT NULL DEFAULT 'player',
  is_public BOOLEAN NOT NULL DEFAULT true,
  -- a private comment (host reply) is readable only by this user
  recipient_uid TEXT REFERENCES users (uid) ON DELETE CASCADE,
  verified BOOLEAN NOT NULL DEFAULT false,
  meta_data JSONB NOT NULL DEFAULT '{}',
  replies JSONB NOT NULL DEFAULT '[]'
);
CREATE INDEX comments_campaign_time_idx ON comments (page_uid, campaign_uid, time DESC);
CREATE INDEX comments_user_idx ON comments (user_uid, page_uid, campaign_uid);
CREATE INDEX comments_recipient_idx ON comments (recipient_uid, page_uid, campaign_uid);

-- feature: comments. Questions collected from other channels during a live show, replayed on VOD.
CREATE TABLE bulk_comments (
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  campaign_uid TEXT NOT NULL REFERENCES campaigns (uid) ON DELETE CASCADE,
  questions JSONB NOT NULL DEFAULT '[]',
  PRIMARY KEY (page_uid, campaign_uid)
);

-- feature: reactions
CREATE TABLE reactions (
  uid TEXT PRIMARY KEY,
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  campaign_uid TEXT NOT NULL REFERENCES campaigns (uid) ON DELETE CASCADE,
  user_uid TEXT REFERENCES users (uid) ON DELETE SET NULL,
  source TEXT NOT NULL DEFAULT 'player',
  type TEXT NOT NULL DEFAULT 'love',
  time BIGINT NOT NULL
);
CREATE INDEX reactions_campaign_time_idx ON reactions (page_uid, campaign_uid, time);

-- feature: notifications
CREATE TABLE notifications (
  uid TEXT PRIMARY KEY,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  page_uid TEXT NOT NULL,
  campaign_uid TEXT NOT NULL,
  notification_type TEXT NOT NULL,
  notification_sub_type TEXT,
  notification_data JSONB NOT NULL DEFAULT '{}',
  thread_id TEXT,
  meta_data JSONB NOT NULL DEFAULT '{}',
  created BIGINT NOT NULL
);
CREATE INDEX notifications_user_campaign_idx ON notifications (user_uid, campaign_uid, created DESC);
