-- Free delivery from an order size (issue 13 §9).

-- feature: stores. Per currency, the order subtotal in minor units from which home and
-- parcel-shop delivery cost nothing (PageInput.freeDeliveryOver); no entry for a currency means
-- delivery in it is always charged.
ALTER TABLE pages ADD COLUMN free_delivery_over JSONB NOT NULL DEFAULT '{}';
