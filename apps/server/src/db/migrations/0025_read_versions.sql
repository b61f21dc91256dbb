-- feature: db. Read versions (issue 18, flash-sale checkout). A node keeps what an add-to-cart
-- reads before its transaction (store, campaign, product, show line-up, shopper) in memory, tagged
-- with the version of its scope ('page:<store uid>' or 'user:<user uid>'); before using it, one
-- statement reads the scopes' versions. Every write to those tables bumps its scope's version in
-- the writer's own transaction (these triggers), whichever node or script wrote it, so a node sees
-- a committed change on its next read: no bus message that could be lost or arrive late.
-- A product's or variant's stock is left out (the conditional UPDATE decides a sale, and every add
-- writes it): its column lists name every other column. A column added later to these tables must
-- be added to those lists when the cached reads use it.
CREATE TABLE read_versions (
  scope TEXT PRIMARY KEY,
  version BIGINT NOT NULL
);

CREATE FUNCTION bump_read_version(target TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF target IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO read_versions (scope, version) VALUES (target, 1)
  ON CONFLICT (scope) DO UPDATE SET version = read_versions.version + 1;
END
$$;

-- A row trigger of a table with the scope's uid in a column: TG_ARGV[0] = that column, TG_ARGV[1]
-- = the scope's prefix. Both the old and the new uid are bumped (a row that moves leaves one scope
-- and enters the other).
CREATE FUNCTION bump_read_version_of_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_uid TEXT;
  new_uid TEXT;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    old_uid := to_jsonb(OLD) ->> TG_ARGV[0];
    PERFORM bump_read_version(TG_ARGV[1] || old_uid);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    new_uid := to_jsonb(NEW) ->> TG_ARGV[0];
    IF new_uid IS DISTINCT FROM old_uid THEN
      PERFORM bump_read_version(TG_ARGV[1] || new_uid);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

-- Variants and a show's products name their store through their product or show.
CREATE FUNCTION bump_read_version_of_variant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM bump_read_version('page:' || (SELECT page_uid FROM products WHERE uid = OLD.product_uid));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM bump_read_version('page:' || (SELECT page_uid FROM products WHERE uid = NEW.product_uid));
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION bump_read_version_of_show_product() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM bump_read_version('page:' || (SELECT page_uid FROM live_events WHERE id = OLD.event_id));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM bump_read_version('page:' || (SELECT page_uid FROM live_events WHERE id = NEW.event_id));
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER pages_read_version AFTER INSERT OR UPDATE OR DELETE ON pages
  FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_row('uid', 'page:');

CREATE TRIGGER campaigns_read_version AFTER INSERT OR UPDATE OR DELETE ON campaigns
  FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_row('page_uid', 'page:');

CREATE TRIGGER live_events_read_version AFTER INSERT OR UPDATE OR DELETE ON live_events
  FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_row('page_uid', 'page:');

CREATE TRIGGER products_read_version
  AFTER INSERT OR DELETE OR UPDATE OF uid, page_uid, external_id, name, description, sku, url, images, prices, options, archived_at
  ON products
  FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_row('page_uid', 'page:');

CREATE TRIGGER product_variants_read_version
  AFTER INSERT OR DELETE OR UPDATE OF uid, product_uid, position, name, sku, prices, options
  ON product_variants
  FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_variant();

CREATE TRIGGER event_products_read_version AFTER INSERT OR UPDATE OR DELETE ON event_products
  FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_show_product();

CREATE TRIGGER users_read_version AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_row('uid', 'user:');

CREATE TRIGGER user_reservations_read_version AFTER INSERT OR UPDATE OR DELETE ON user_reservations
  FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_row('user_uid', 'user:');
