-- Store settings edited in the studio (issue 14 §2).

-- feature: stores. The IANA time zone shows are scheduled in; the languages and currencies sold
-- besides the main `language` and `currency` (empty: every one, as before the choice existed); the shipping methods
-- with freight per currency (a method not set keeps the default offer); the shops orders can be
-- picked up in (empty: the store's own address).
ALTER TABLE pages ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'Europe/Copenhagen';
ALTER TABLE pages ADD COLUMN languages JSONB NOT NULL DEFAULT '[]';
ALTER TABLE pages ADD COLUMN currencies JSONB NOT NULL DEFAULT '[]';
ALTER TABLE pages ADD COLUMN shipping_methods JSONB NOT NULL DEFAULT '{}';
ALTER TABLE pages ADD COLUMN pickup_stores JSONB NOT NULL DEFAULT '[]';
