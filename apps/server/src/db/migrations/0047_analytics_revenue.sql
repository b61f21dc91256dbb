-- Revenue that adds up (issue 33 item 12): a show's orders per minute also carry the freight
-- charged and what was refunded, so the report says gross, refunds and net, with and without
-- freight. Rolled up again from the orders on the next refresh.

-- feature: analytics. Freight charged with the minute's orders (minor units).
ALTER TABLE analytics_order_minutes ADD COLUMN freight BIGINT NOT NULL DEFAULT 0;

-- feature: analytics. What was refunded of the minute's orders (minor units).
ALTER TABLE analytics_order_minutes ADD COLUMN refunded BIGINT NOT NULL DEFAULT 0;
