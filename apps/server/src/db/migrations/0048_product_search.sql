-- feature: catalog. Finding products by the words of their name, description and SKU (issue 32
-- item 5, search across shows). The 'simple' configuration lower-cases words without stemming,
-- so it suits every store language alike; a GIN index over the same expression the search
-- query names serves prefix queries ('mu:*'). Core PostgreSQL only: it works the same in PGlite.
CREATE INDEX products_search_idx ON products
  USING GIN (to_tsvector('simple', name || ' ' || description || ' ' || sku));
