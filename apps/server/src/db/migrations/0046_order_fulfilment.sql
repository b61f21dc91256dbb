-- The order's life after packing (issue 33 item 11): packed, shipped with a carrier and a
-- tracking number, delivered. A row exists once the order moved past "sent to packing".

-- feature: checkout. One row per order past packing; the timestamps are each step's time.
CREATE TABLE order_fulfilment (
  checkout_uid TEXT PRIMARY KEY REFERENCES checkouts (uid) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('packed', 'shipped', 'delivered')),
  packed_at BIGINT,
  shipped_at BIGINT,
  delivered_at BIGINT,
  carrier TEXT,
  tracking_number TEXT,
  tracking_url TEXT,
  updated_at BIGINT NOT NULL
);
