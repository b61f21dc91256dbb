-- The studio's catalogue (issue 14): archived products, and finding a store's product by its
-- external id (a Shopify CSV's handle) when an import updates it.

-- Archived products (milliseconds since the epoch; NULL = active) leave the studio's list and
-- the choice of products for new shows; shows already presenting one keep it.
ALTER TABLE products ADD COLUMN archived_at BIGINT;
CREATE INDEX products_page_external_idx ON products (page_uid, external_id);
