-- feature: tracking. Viewer tracking events of spec §7 (/shopapiv2/tracking), append-only.
-- No foreign keys: recording must never fail because a page, campaign, event or user was
-- deleted (or never existed: events for unknown page uids are recorded too). Columns hold the
-- fields reports filter on; `payload` holds the whole event as received, after validation.
-- user_uid is only set from a verified id token; a client's unverified claim stays in payload.
CREATE TABLE tracking_events (
  id BIGSERIAL PRIMARY KEY,
  received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  tracking_event TEXT NOT NULL,
  page_uid TEXT NOT NULL,
  user_uid TEXT,
  campaign_uid TEXT,
  event_uid TEXT,
  payload JSONB NOT NULL
);
CREATE INDEX tracking_events_page_campaign_received_idx
  ON tracking_events (page_uid, campaign_uid, received_at);
