-- feature: checkout. Adds of one product that arrive together run as one transaction (issue 18,
-- flash-sale checkout: group commit in cart-service.ts): BEGIN, checkout_add_lines, checkout_save_adds,
-- COMMIT, whatever the number of adds, so BEGIN, COMMIT (its WAL flush) and the product row's lock
-- are paid once per batch instead of once per add. A lone add is a batch of one.

-- 0027's checkout_add_line for each add of p_adds, in the order given (the caller sorts them by
-- shopper, so batches sharing shoppers lock their checkouts in one order), answering its answers
-- as a JSON array in the same order. Each element holds checkout_add_line's parameters by name,
-- without the p_ prefix, but the holds, which are the batch's. One change from checkout_add_line:
-- the shopper's units of the product are summed from each checkout's lines found by the lines'
-- primary key (checkout first) alone. Its plan there could still pick the product's index, and
-- a flash sale's product has a line (and many dead versions) per buyer: a benchmark saw about
-- 770 index entries read per add, a fifth of PostgreSQL's time.
CREATE FUNCTION checkout_add_lines(p_adds JSONB, p_hold_until BIGINT, p_max_age_ms BIGINT)
RETURNS json LANGUAGE plpgsql AS $$
DECLARE
  v_add JSONB;
  v_checkout checkouts;
  v_price BIGINT;
  v_line_qty INTEGER;
  v_units INTEGER;
  v_lines json;
  v_attempts json;
  v_answers json[] := '{}';
BEGIN
  FOR v_add IN SELECT value FROM jsonb_array_elements(p_adds) WITH ORDINALITY ORDER BY ordinality LOOP
    INSERT INTO checkouts (uid, page_uid, campaign_uid, user_uid, currency, language, created_at, updated_at)
    VALUES (v_add ->> 'checkout_uid', v_add ->> 'page_uid', v_add ->> 'campaign_uid', v_add ->> 'user_uid',
      v_add ->> 'currency', v_add ->> 'language', (v_add ->> 'at')::bigint, (v_add ->> 'at')::bigint)
    ON CONFLICT (page_uid, campaign_uid, user_uid) DO UPDATE SET updated_at = EXCLUDED.updated_at
    RETURNING * INTO v_checkout;
    v_price := (v_add -> 'prices' ->> v_checkout.currency)::bigint;
    v_line_qty := NULL;
    v_units := NULL;
    IF v_price IS NOT NULL THEN
      INSERT INTO checkout_lines AS l (checkout_uid, product_uid, variant_uid, qty, unit_price, product_name,
        variant_name, sku, image, added_at)
      VALUES (v_checkout.uid, v_add ->> 'product_uid', v_add ->> 'variant_uid', (v_add ->> 'qty')::integer,
        v_price, v_add ->> 'product_name', v_add ->> 'variant_name', v_add ->> 'sku', v_add ->> 'image',
        (v_add ->> 'at')::bigint)
      ON CONFLICT (checkout_uid, product_uid, variant_uid) DO UPDATE SET qty = l.qty + EXCLUDED.qty
      RETURNING l.qty INTO v_line_qty;
      -- The product is a filter of each checkout's lines, not an index condition: see above.
      SELECT COALESCE(SUM((SELECT SUM(l.qty) FILTER (WHERE l.product_uid = v_add ->> 'product_uid')
                           FROM checkout_lines l WHERE l.checkout_uid = c.uid)), 0)::int
      INTO v_units
      FROM checkouts c
      WHERE c.page_uid = v_add ->> 'page_uid' AND c.user_uid = v_add ->> 'user_uid'
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
    v_answers := array_append(v_answers, json_build_object('checkout', row_to_json(v_checkout),
      'unit_price', v_price, 'line_qty', v_line_qty, 'units', v_units, 'lines', v_lines,
      'payment_attempts', v_attempts));
  END LOOP;
  RETURN array_to_json(v_answers);
END
$$;

-- The end of a batch of adds: the shoppers' reservation documents written (p_docs: objects with
-- page_uid, campaign_uid, user_uid and doc; one per shopper), then the outbox's commit-order locks
-- (as 0027's checkout_save_add did), then the batch's units taken from stock at once by take_stock. The
-- product row is locked from that UPDATE to COMMIT only. False when fewer units are free than the
-- batch wants (the caller rolls back).
CREATE FUNCTION checkout_save_adds(
  p_docs JSONB, p_lock_class INTEGER, p_lock_keys INTEGER[], p_product_uid TEXT, p_variant_uid TEXT,
  p_qty INTEGER
) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  v_key INTEGER;
BEGIN
  INSERT INTO checkout_reservations (page_uid, campaign_uid, user_uid, data)
  SELECT d ->> 'page_uid', d ->> 'campaign_uid', d ->> 'user_uid', d -> 'doc'
  FROM jsonb_array_elements(p_docs) AS d
  ON CONFLICT (page_uid, campaign_uid, user_uid) DO UPDATE SET data = EXCLUDED.data, updated_at = now();
  FOREACH v_key IN ARRAY p_lock_keys LOOP
    PERFORM pg_advisory_xact_lock(p_lock_class, v_key);
  END LOOP;
  RETURN take_stock(p_product_uid, p_variant_uid, p_qty);
END
$$;

-- A lone add is a batch of one now.
DROP FUNCTION checkout_add_line(TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, TEXT, INTEGER, JSONB, TEXT,
  TEXT, TEXT, TEXT, BIGINT, BIGINT);
DROP FUNCTION checkout_save_add(TEXT, TEXT, TEXT, JSONB, INTEGER, INTEGER[], TEXT, TEXT, INTEGER);
