-- What a retailer's CSV carries (issue 33 §8): the price before the deal ("Variant Compare At
-- Price"), per currency like the price; '{}' when there is none. The player strikes it through
-- as "was" beside the price when it is higher.

-- feature: catalog. A product without variants keeps its own; a variant product's is its cheapest variant's.
ALTER TABLE products ADD COLUMN compare_at_prices JSONB NOT NULL DEFAULT '{}';
-- feature: catalog
ALTER TABLE product_variants ADD COLUMN compare_at_prices JSONB NOT NULL DEFAULT '{}';
