-- feature: catalog. Takes units of a product or variant out of its free stock (issue 18,
-- flash-sale checkout): what catalog/stock.ts reserveStock ran as one to three statements, as one
-- call, so a cart's last statement can end with it (checkout_save_add). Same rules: one conditional
-- UPDATE per row, which under concurrent buyers re-checks the latest row (READ COMMITTED), so stock
-- never goes below zero; a variant's product row is locked first (the lock order of stock.ts) and
-- its stock, the sum of its variants', moves with it. False when fewer than p_qty units are free.
CREATE FUNCTION take_stock(p_product_uid TEXT, p_variant_uid TEXT, p_qty INTEGER) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF p_variant_uid IS NULL THEN
    UPDATE products SET stock = stock - p_qty
    WHERE uid = p_product_uid AND (stock IS NULL OR stock >= p_qty);
    RETURN FOUND;
  END IF;
  PERFORM 1 FROM products WHERE uid = p_product_uid FOR UPDATE;
  UPDATE product_variants SET stock = stock - p_qty
  WHERE product_uid = p_product_uid AND uid = p_variant_uid AND (stock IS NULL OR stock >= p_qty);
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  UPDATE products SET stock = GREATEST(stock - p_qty, 0) WHERE uid = p_product_uid AND stock IS NOT NULL;
  RETURN true;
END
$$;
