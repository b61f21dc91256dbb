-- feature: checkout. An add-to-cart's transaction in two calls instead of six statements (issue 18,
-- flash-sale checkout): BEGIN, checkout_add_line, checkout_save_add, COMMIT. The rules stay in
-- TypeScript (cart-service.ts addSingle): it checks what checkout_add_line answers and throws to
-- roll the writes back, and it builds the reservation document that checkout_save_add stores.
-- Functions rather than one statement of data-modifying CTEs: each statement here takes its own
-- snapshot after the ones before it, so once the checkout row is locked the line count, the holds
-- and the lines read see every add the shopper's other requests committed meanwhile (one
-- statement's CTEs would all see the snapshot taken before the lock was granted).

-- The shopper's checkout in the campaign (created empty when there is none, else marked active),
-- locked for the transaction; then, when the product has a price in the checkout's currency
-- (p_prices: minor units per currency, the variant's own winning), p_qty units added to its line
-- (created with its catalogue texts when new); then every line's hold renewed to p_hold_until,
-- capped at the line's maximum age, or cleared when the checkout is an order (its lines hold no
-- timed reservation). Answers, as JSON: the checkout row, the line's price (null: nothing was
-- added), the line's units and the units of the product the shopper holds in the store after the
-- add (as checkout-store.ts unitsHeld counts), the lines (readLines' order) and the payment
-- attempts (transactionsOf's order).
CREATE FUNCTION checkout_add_line(
  p_checkout_uid TEXT, p_page_uid TEXT, p_campaign_uid TEXT, p_user_uid TEXT, p_currency TEXT,
  p_language TEXT, p_at BIGINT, p_product_uid TEXT, p_variant_uid TEXT, p_qty INTEGER, p_prices JSONB,
  p_product_name TEXT, p_variant_name TEXT, p_sku TEXT, p_image TEXT, p_hold_until BIGINT,
  p_max_age_ms BIGINT
) RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  v_checkout checkouts;
  v_price BIGINT;
  v_line_qty INTEGER;
  v_units INTEGER;
  v_lines json;
  v_attempts json;
BEGIN
  INSERT INTO checkouts (uid, page_uid, campaign_uid, user_uid, currency, language, created_at, updated_at)
  VALUES (p_checkout_uid, p_page_uid, p_campaign_uid, p_user_uid, p_currency, p_language, p_at, p_at)
  ON CONFLICT (page_uid, campaign_uid, user_uid) DO UPDATE SET updated_at = EXCLUDED.updated_at
  RETURNING * INTO v_checkout;
  v_price := (p_prices ->> v_checkout.currency)::bigint;
  IF v_price IS NOT NULL THEN
    INSERT INTO checkout_lines AS l (checkout_uid, product_uid, variant_uid, qty, unit_price, product_name,
      variant_name, sku, image, added_at)
    VALUES (v_checkout.uid, p_product_uid, p_variant_uid, p_qty, v_price, p_product_name, p_variant_name,
      p_sku, p_image, p_at)
    ON CONFLICT (checkout_uid, product_uid, variant_uid) DO UPDATE SET qty = l.qty + EXCLUDED.qty
    RETURNING l.qty INTO v_line_qty;
    -- From the shopper's checkouts to their lines of the product, whatever the plan cache picks:
    -- a generic plan of the plain join started from the product's lines, every shopper's of a
    -- flash sale's product (hundreds of index probes per add).
    SELECT COALESCE(SUM((SELECT SUM(l.qty) FROM checkout_lines l
                         WHERE l.checkout_uid = c.uid AND l.product_uid = p_product_uid)), 0)::int
    INTO v_units
    FROM checkouts c
    WHERE c.page_uid = p_page_uid AND c.user_uid = p_user_uid
      AND (c.uid = v_checkout.uid OR (c.status <> 'locked' AND NOT c.payed));
  END IF;
  WITH held AS (
    UPDATE checkout_lines
    SET reserved_until = CASE WHEN v_checkout.status = 'open' THEN LEAST(p_hold_until, added_at + p_max_age_ms) END
    WHERE checkout_uid = v_checkout.uid
    RETURNING *
  )
  SELECT COALESCE(json_agg(held ORDER BY held.added_at, held.product_uid, held.variant_uid), '[]'::json)
  INTO v_lines FROM held;
  SELECT COALESCE(json_agg(t ORDER BY t.created, t.uid), '[]'::json) INTO v_attempts
  FROM payment_transactions t WHERE t.checkout_uid = v_checkout.uid;
  RETURN json_build_object('checkout', row_to_json(v_checkout), 'unit_price', v_price, 'line_qty', v_line_qty,
    'units', v_units, 'lines', v_lines, 'payment_attempts', v_attempts);
END
$$;

-- The end of an add: the shopper's reservation document written, then the outbox's commit-order
-- locks of the transaction's topics taken (class p_lock_class, keys in the order given: sorted by
-- the outbox), then the units taken from stock by the catalog's take_stock. In this order, so the
-- product row, every buyer's in a flash sale, is locked from its UPDATE to COMMIT only, and the
-- topic locks are never waited for while holding it. False when sold out (the caller rolls back).
CREATE FUNCTION checkout_save_add(
  p_page_uid TEXT, p_campaign_uid TEXT, p_user_uid TEXT, p_doc JSONB, p_lock_class INTEGER,
  p_lock_keys INTEGER[], p_product_uid TEXT, p_variant_uid TEXT, p_qty INTEGER
) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_key INTEGER;
BEGIN
  INSERT INTO checkout_reservations (page_uid, campaign_uid, user_uid, data)
  VALUES (p_page_uid, p_campaign_uid, p_user_uid, p_doc)
  ON CONFLICT (page_uid, campaign_uid, user_uid) DO UPDATE SET data = EXCLUDED.data, updated_at = now();
  FOREACH v_key IN ARRAY p_lock_keys LOOP
    PERFORM pg_advisory_xact_lock(p_lock_class, v_key);
  END LOOP;
  RETURN take_stock(p_product_uid, p_variant_uid, p_qty);
END
$$;
