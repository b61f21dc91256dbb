-- A database made by the previous release, 3f81d68 (the 'ci-loop' merge of 2026-11-28, before the
-- migrations 0033_password_resets, 0034_setup_tokens and 0035_ban_devices): that commit's own code
-- ran its 25 migrations on a fresh PostgreSQL 15 database, seeded the demo store
-- (seedDemoStoreIfEmpty at 2026-11-27T12:00:00Z) and placed order 100001 (two Nordlys ceramic
-- mugs, "Upgrade Fixture", home delivery) through its HTTP calls. Then
--   pg_dump --no-owner --no-privileges --no-comments --column-inserts --schema=public
-- with the psql-only lines (\restrict), the search_path reset, CREATE SCHEMA public and the
-- "public." qualifiers removed, so it loads into any schema (a test's) and into PGlite.
-- Kept as it is: never regenerate it from today's migrations. upgrade.test.ts migrates it to now.
--
--



SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: public; Type: SCHEMA; Schema: -; Owner: -
--



--
-- Name: bump_read_version(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION bump_read_version(target text) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF target IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO read_versions (scope, version) VALUES (target, 1)
  ON CONFLICT (scope) DO UPDATE SET version = read_versions.version + 1;
END
$$;


--
-- Name: bump_read_version_of_row(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION bump_read_version_of_row() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: bump_read_version_of_show_product(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION bump_read_version_of_show_product() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: bump_read_version_of_variant(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION bump_read_version_of_variant() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: checkout_add_lines(jsonb, bigint, bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION checkout_add_lines(p_adds jsonb, p_hold_until bigint, p_max_age_ms bigint) RETURNS json
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: checkout_save_adds(jsonb, integer, integer[], text, text, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION checkout_save_adds(p_docs jsonb, p_lock_class integer, p_lock_keys integer[], p_product_uid text, p_variant_uid text, p_qty integer) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: take_stock(text, text, integer); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION take_stock(p_product_uid text, p_variant_uid text, p_qty integer) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
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


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: analytics_competition_minutes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE analytics_competition_minutes (
    campaign_uid text NOT NULL,
    minute bigint NOT NULL,
    entries integer NOT NULL
);


--
-- Name: analytics_cursor; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE analytics_cursor (
    name text NOT NULL,
    last_event_id bigint NOT NULL,
    rolled_up_at bigint NOT NULL
);


--
-- Name: analytics_minutes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE analytics_minutes (
    campaign_uid text NOT NULL,
    minute bigint NOT NULL,
    viewers_live integer DEFAULT 0 NOT NULL,
    viewers_replay integer DEFAULT 0 NOT NULL,
    product_views integer DEFAULT 0 NOT NULL,
    watch_seconds_live double precision DEFAULT 0 NOT NULL,
    watch_seconds_replay double precision DEFAULT 0 NOT NULL,
    comments integer DEFAULT 0 NOT NULL,
    reactions integer DEFAULT 0 NOT NULL,
    details_opened integer DEFAULT 0 NOT NULL,
    adds integer DEFAULT 0 NOT NULL
);


--
-- Name: analytics_order_minutes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE analytics_order_minutes (
    campaign_uid text NOT NULL,
    minute bigint NOT NULL,
    currency text NOT NULL,
    orders integer NOT NULL,
    paid_orders integer NOT NULL,
    revenue bigint NOT NULL
);


--
-- Name: analytics_product_orders; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE analytics_product_orders (
    campaign_uid text NOT NULL,
    product_uid text NOT NULL,
    currency text NOT NULL,
    orders integer NOT NULL,
    paid_orders integer NOT NULL,
    quantity integer NOT NULL,
    revenue bigint NOT NULL
);


--
-- Name: analytics_shows; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE analytics_shows (
    campaign_uid text NOT NULL,
    page_uid text NOT NULL,
    rolled_up_at bigint NOT NULL
);


--
-- Name: analytics_viewer_minutes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE analytics_viewer_minutes (
    campaign_uid text NOT NULL,
    minute bigint NOT NULL,
    viewer_key text NOT NULL,
    replay boolean NOT NULL,
    product_shown boolean NOT NULL,
    watch_seconds double precision NOT NULL
);


--
-- Name: analytics_viewer_products; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE analytics_viewer_products (
    campaign_uid text NOT NULL,
    product_uid text NOT NULL,
    viewer_key text NOT NULL,
    details_opened boolean NOT NULL,
    added boolean NOT NULL
);


--
-- Name: analytics_viewers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE analytics_viewers (
    campaign_uid text NOT NULL,
    viewer_key text NOT NULL,
    first_minute bigint NOT NULL,
    last_minute bigint NOT NULL,
    minutes integer NOT NULL,
    watch_seconds double precision NOT NULL,
    live boolean NOT NULL,
    replay boolean NOT NULL
);


--
-- Name: bulk_comments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE bulk_comments (
    page_uid text NOT NULL,
    campaign_uid text NOT NULL,
    questions jsonb DEFAULT '[]'::jsonb NOT NULL
);


--
-- Name: campaign_presentations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE campaign_presentations (
    page_uid text NOT NULL,
    campaign_uid text NOT NULL,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: campaigns; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE campaigns (
    uid text NOT NULL,
    page_uid text NOT NULL,
    name text NOT NULL,
    deadline bigint,
    using_checkout boolean DEFAULT false NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: chat_bans; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE chat_bans (
    page_uid text NOT NULL,
    user_uid text NOT NULL,
    user_name text DEFAULT ''::text NOT NULL,
    reason text,
    banned_by_uid text,
    banned_by_name text NOT NULL,
    banned_at bigint NOT NULL
);


--
-- Name: chat_moderation_log; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE chat_moderation_log (
    id bigint NOT NULL,
    page_uid text NOT NULL,
    campaign_uid text,
    at bigint NOT NULL,
    actor_uid text,
    actor_name text NOT NULL,
    action text NOT NULL,
    comment_uid text,
    target_user_uid text,
    target_user_name text,
    detail text
);


--
-- Name: chat_moderation_log_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE chat_moderation_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: chat_moderation_log_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE chat_moderation_log_id_seq OWNED BY chat_moderation_log.id;


--
-- Name: chat_moderation_settings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE chat_moderation_settings (
    page_uid text NOT NULL,
    blocked_words jsonb DEFAULT '[]'::jsonb NOT NULL,
    blocked_word_action text DEFAULT 'hold'::text NOT NULL
);


--
-- Name: checkout_lines; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE checkout_lines (
    checkout_uid text NOT NULL,
    product_uid text NOT NULL,
    variant_uid text DEFAULT ''::text NOT NULL,
    qty integer NOT NULL,
    unit_price bigint NOT NULL,
    product_name text NOT NULL,
    variant_name text,
    sku text DEFAULT ''::text NOT NULL,
    image text,
    reserved_until bigint,
    added_at bigint NOT NULL,
    CONSTRAINT checkout_lines_qty_check CHECK ((qty > 0)),
    CONSTRAINT checkout_lines_unit_price_check CHECK ((unit_price >= 0))
);


--
-- Name: checkout_reservations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE checkout_reservations (
    page_uid text NOT NULL,
    campaign_uid text NOT NULL,
    user_uid text NOT NULL,
    data jsonb DEFAULT '{}'::jsonb NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: checkouts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE checkouts (
    uid text NOT NULL,
    page_uid text NOT NULL,
    campaign_uid text NOT NULL,
    user_uid text NOT NULL,
    status text DEFAULT 'open'::text NOT NULL,
    currency text NOT NULL,
    language text NOT NULL,
    details jsonb DEFAULT '{}'::jsonb NOT NULL,
    order_number bigint,
    ordered_at bigint,
    locked_at bigint,
    payed boolean DEFAULT false NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    CONSTRAINT checkouts_status_check CHECK ((status = ANY (ARRAY['open'::text, 'ordered'::text, 'locked'::text])))
);


--
-- Name: comments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE comments (
    uid text NOT NULL,
    page_uid text NOT NULL,
    campaign_uid text NOT NULL,
    user_uid text NOT NULL,
    user_name text DEFAULT ''::text NOT NULL,
    text text NOT NULL,
    "time" bigint NOT NULL,
    thread_id text,
    source text DEFAULT 'player'::text NOT NULL,
    is_public boolean DEFAULT true NOT NULL,
    recipient_uid text,
    verified boolean DEFAULT false NOT NULL,
    meta_data jsonb DEFAULT '{}'::jsonb NOT NULL,
    replies jsonb DEFAULT '[]'::jsonb NOT NULL,
    edited_at bigint,
    moderation_state text DEFAULT 'visible'::text NOT NULL,
    moderation_version integer DEFAULT 0 NOT NULL,
    moderated_by_uid text,
    moderated_by_name text,
    moderated_at bigint,
    original_text text,
    question_state text DEFAULT 'none'::text NOT NULL,
    answered_by_name text,
    answered_how text
);


--
-- Name: competition_participants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE competition_participants (
    competition_uid text NOT NULL,
    user_uid text NOT NULL,
    option_id text,
    comment_uid text,
    "time" bigint NOT NULL,
    person_key text
);


--
-- Name: competition_winners; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE competition_winners (
    competition_uid text NOT NULL,
    user_uid text NOT NULL,
    name text NOT NULL,
    drawn_at bigint NOT NULL
);


--
-- Name: competitions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE competitions (
    uid text NOT NULL,
    page_uid text NOT NULL,
    campaign_uid text NOT NULL,
    type text NOT NULL,
    name text NOT NULL,
    presentation_primary_text text DEFAULT ''::text NOT NULL,
    show_onsite boolean DEFAULT true NOT NULL,
    cues jsonb DEFAULT '[]'::jsonb NOT NULL,
    options jsonb DEFAULT '[]'::jsonb NOT NULL,
    correct_option_id text,
    open_for_participation boolean DEFAULT false NOT NULL,
    playing boolean DEFAULT false NOT NULL,
    created_at bigint NOT NULL,
    state_changes jsonb DEFAULT '[]'::jsonb NOT NULL,
    CONSTRAINT competitions_type_check CHECK ((type = ANY (ARRAY['raffle'::text, 'quiz'::text, 'poll'::text])))
);


--
-- Name: contact_captures; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE contact_captures (
    uid text NOT NULL,
    page_uid text NOT NULL,
    campaign_uid text,
    user_uid text,
    name text DEFAULT ''::text NOT NULL,
    phone text DEFAULT ''::text NOT NULL,
    email text DEFAULT ''::text NOT NULL,
    consent boolean NOT NULL,
    source text NOT NULL,
    created_at bigint NOT NULL
);


--
-- Name: event_product_cues; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE event_product_cues (
    id bigint NOT NULL,
    event_id text NOT NULL,
    event_product_uid text NOT NULL,
    source text NOT NULL,
    presentation_start_timestamp bigint NOT NULL,
    presentation_end_timestamp bigint,
    deleted boolean DEFAULT false NOT NULL
);


--
-- Name: event_product_cues_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE event_product_cues_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: event_product_cues_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE event_product_cues_id_seq OWNED BY event_product_cues.id;


--
-- Name: event_products; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE event_products (
    uid text NOT NULL,
    event_id text NOT NULL,
    product_uid text NOT NULL,
    relative_cues jsonb DEFAULT '[]'::jsonb NOT NULL,
    absolute_cues jsonb DEFAULT '[]'::jsonb NOT NULL,
    presentation_time bigint,
    presentation_end_time bigint,
    sorting integer DEFAULT 0 NOT NULL,
    studio_controlled boolean DEFAULT false NOT NULL,
    show_all_products_when_event_starts boolean DEFAULT false NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: live_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE live_events (
    id text NOT NULL,
    page_uid text NOT NULL,
    campaign_uid text NOT NULL,
    status text NOT NULL,
    current_status text NOT NULL,
    event_name text NOT NULL,
    event_start_timestamp bigint NOT NULL,
    live_start_time bigint,
    live_end_time bigint,
    cdn text,
    cdn_live_video_id text,
    cdn_video_id text,
    cdn_video_start_time bigint,
    cdn_mp4_video_url text,
    live_video_format jsonb,
    live_video_cover text,
    cover_photo_path text,
    video_has_overlay boolean DEFAULT false NOT NULL,
    onsite_cart_mode text,
    lead_mode_after_deadline boolean DEFAULT false NOT NULL,
    use_onsite_cart boolean DEFAULT false NOT NULL,
    broadcast_delay_ms integer,
    cdn_delay_ms integer,
    video_current_status text,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    time_zone text,
    first_published_at bigint,
    CONSTRAINT live_events_current_status_check CHECK ((current_status = ANY (ARRAY['planned'::text, 'live'::text, 'vod'::text]))),
    CONSTRAINT live_events_onsite_cart_mode_check CHECK ((onsite_cart_mode = ANY (ARRAY['cart'::text, 'product'::text]))),
    CONSTRAINT live_events_status_check CHECK ((status = ANY (ARRAY['draft'::text, 'private'::text, 'public'::text]))),
    CONSTRAINT live_events_video_current_status_check CHECK ((video_current_status = ANY (ARRAY['planned'::text, 'live'::text, 'vod'::text])))
);


--
-- Name: live_streams; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE live_streams (
    event_id text NOT NULL,
    page_uid text NOT NULL,
    stream_key text NOT NULL,
    state text DEFAULT 'idle'::text NOT NULL,
    key_rotated_at bigint NOT NULL,
    live_start_time bigint,
    live_end_time bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: mail_outbox; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE mail_outbox (
    uid text NOT NULL,
    page_uid text,
    template text NOT NULL,
    locale text NOT NULL,
    to_address text NOT NULL,
    subject text NOT NULL,
    text_body text NOT NULL,
    html_body text NOT NULL,
    status text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at bigint,
    error text,
    dedupe_key text,
    created_at bigint NOT NULL,
    sent_at bigint,
    CONSTRAINT mail_outbox_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'sent'::text, 'kept'::text, 'failed'::text])))
);


--
-- Name: notifications; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE notifications (
    uid text NOT NULL,
    user_uid text NOT NULL,
    page_uid text NOT NULL,
    campaign_uid text NOT NULL,
    notification_type text NOT NULL,
    notification_sub_type text,
    notification_data jsonb DEFAULT '{}'::jsonb NOT NULL,
    thread_id text,
    meta_data jsonb DEFAULT '{}'::jsonb NOT NULL,
    created bigint NOT NULL
);


--
-- Name: oidc_flows; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE oidc_flows (
    state text NOT NULL,
    provider_id text NOT NULL,
    code_verifier text NOT NULL,
    nonce text NOT NULL,
    redirect_uri text NOT NULL,
    expires_at bigint NOT NULL,
    flow_secret_hash text NOT NULL,
    started_by text
);


--
-- Name: onsite_event_updates; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE onsite_event_updates (
    id bigint NOT NULL,
    store_id text NOT NULL,
    event_id text NOT NULL,
    "time" bigint NOT NULL,
    updated_event jsonb NOT NULL
);


--
-- Name: onsite_event_updates_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE onsite_event_updates_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: onsite_event_updates_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE onsite_event_updates_id_seq OWNED BY onsite_event_updates.id;


--
-- Name: order_numbers; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE order_numbers
    START WITH 100001
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: order_refunds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE order_refunds (
    uid text NOT NULL,
    checkout_uid text NOT NULL,
    transaction_uid text NOT NULL,
    request_key text NOT NULL,
    amount bigint NOT NULL,
    currency text NOT NULL,
    status text NOT NULL,
    error text,
    requested_by text,
    created_at bigint NOT NULL,
    CONSTRAINT order_refunds_amount_check CHECK ((amount > 0)),
    CONSTRAINT order_refunds_status_check CHECK ((status = ANY (ARRAY['requested'::text, 'failed'::text])))
);


--
-- Name: pages; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE pages (
    uid text NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    terms text DEFAULT ''::text NOT NULL,
    cvr text DEFAULT ''::text NOT NULL,
    logo text,
    address jsonb NOT NULL,
    storefront jsonb NOT NULL,
    language text NOT NULL,
    currency text NOT NULL,
    allowed_origins jsonb DEFAULT '[]'::jsonb NOT NULL,
    player_settings jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    integrity_settings jsonb DEFAULT '{}'::jsonb NOT NULL,
    free_delivery_over jsonb DEFAULT '{}'::jsonb NOT NULL,
    time_zone text DEFAULT 'Europe/Copenhagen'::text NOT NULL,
    languages jsonb DEFAULT '[]'::jsonb NOT NULL,
    currencies jsonb DEFAULT '[]'::jsonb NOT NULL,
    shipping_methods jsonb DEFAULT '{}'::jsonb NOT NULL,
    pickup_stores jsonb DEFAULT '[]'::jsonb NOT NULL
);


--
-- Name: payment_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE payment_events (
    provider text NOT NULL,
    event_id text NOT NULL,
    transaction_uid text NOT NULL,
    type text NOT NULL,
    applied boolean NOT NULL,
    received_at bigint NOT NULL
);


--
-- Name: payment_transactions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE payment_transactions (
    uid text NOT NULL,
    checkout_uid text NOT NULL,
    provider text NOT NULL,
    status text NOT NULL,
    payment_ok boolean DEFAULT false NOT NULL,
    allow_reopen boolean DEFAULT false NOT NULL,
    amount_refunded bigint DEFAULT 0 NOT NULL,
    total_price bigint NOT NULL,
    currency text NOT NULL,
    return_path text NOT NULL,
    created bigint NOT NULL,
    updated bigint NOT NULL,
    refund_due bigint DEFAULT 0 NOT NULL,
    page_key_hash text,
    provider_session_id text,
    provider_payment_id text,
    payment_url text,
    CONSTRAINT payment_transactions_amount_refunded_check CHECK ((amount_refunded >= 0)),
    CONSTRAINT payment_transactions_refund_due_check CHECK ((refund_due >= 0)),
    CONSTRAINT payment_transactions_status_check CHECK ((status = ANY (ARRAY['awaiting_confirmation'::text, 'received'::text, 'declined'::text, 'abandoned'::text]))),
    CONSTRAINT payment_transactions_total_price_check CHECK ((total_price > 0))
);


--
-- Name: pending_credentials; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE pending_credentials (
    credential_hash text NOT NULL,
    user_uid text NOT NULL,
    expires_at bigint NOT NULL,
    used_at bigint
);


--
-- Name: premieres; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE premieres (
    event_id text NOT NULL,
    page_uid text NOT NULL,
    media_key text NOT NULL,
    file_name text NOT NULL,
    size_bytes bigint NOT NULL,
    duration_ms bigint NOT NULL,
    width integer NOT NULL,
    height integer NOT NULL,
    video_codec text NOT NULL,
    audio_codec text,
    starts_at bigint,
    state text DEFAULT 'ready'::text NOT NULL,
    error text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: product_variants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE product_variants (
    uid text NOT NULL,
    product_uid text NOT NULL,
    "position" integer NOT NULL,
    name text NOT NULL,
    sku text DEFAULT ''::text NOT NULL,
    prices jsonb NOT NULL,
    stock integer,
    options jsonb DEFAULT '[]'::jsonb NOT NULL,
    CONSTRAINT product_variants_stock_check CHECK ((stock >= 0))
);


--
-- Name: products; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE products (
    uid text NOT NULL,
    page_uid text NOT NULL,
    external_id text DEFAULT ''::text NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    sku text DEFAULT ''::text NOT NULL,
    url text,
    images jsonb DEFAULT '[]'::jsonb NOT NULL,
    prices jsonb NOT NULL,
    stock integer,
    options jsonb DEFAULT '[]'::jsonb NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    archived_at bigint,
    CONSTRAINT products_stock_check CHECK ((stock >= 0))
);


--
-- Name: purchases; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE purchases (
    uid text NOT NULL,
    page_uid text NOT NULL,
    campaign_uid text NOT NULL,
    product_uid text NOT NULL,
    buyer_name text DEFAULT ''::text NOT NULL,
    "time" bigint NOT NULL
);


--
-- Name: rate_limits; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE rate_limits (
    key text NOT NULL,
    window_start bigint NOT NULL,
    count integer NOT NULL
);


--
-- Name: reactions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE reactions (
    uid text NOT NULL,
    page_uid text NOT NULL,
    campaign_uid text NOT NULL,
    user_uid text,
    source text DEFAULT 'player'::text NOT NULL,
    type text DEFAULT 'love'::text NOT NULL,
    "time" bigint NOT NULL
);


--
-- Name: read_versions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE read_versions (
    scope text NOT NULL,
    version bigint NOT NULL
);


--
-- Name: refresh_token_families; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE refresh_token_families (
    id text NOT NULL,
    user_uid text NOT NULL,
    created_at bigint NOT NULL,
    revoked_at bigint,
    revoked_reason text
);


--
-- Name: refresh_tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE refresh_tokens (
    token_hash text NOT NULL,
    family_id text NOT NULL,
    issued_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    spent_at bigint
);


--
-- Name: restream_destinations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE restream_destinations (
    id text NOT NULL,
    event_id text NOT NULL,
    page_uid text NOT NULL,
    label text NOT NULL,
    server_url text NOT NULL,
    stream_key_sealed text NOT NULL,
    stream_key_masked text NOT NULL,
    started boolean DEFAULT false NOT NULL,
    state text DEFAULT 'stopped'::text NOT NULL,
    reason text,
    bytes_sent bigint DEFAULT 0 NOT NULL,
    bitrate_kbps double precision,
    state_since bigint,
    runner text,
    lease_until bigint,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE schema_migrations (
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: server_secrets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE server_secrets (
    name text NOT NULL,
    value text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: show_chat_state; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE show_chat_state (
    page_uid text NOT NULL,
    campaign_uid text NOT NULL,
    slow_mode_seconds integer DEFAULT 0 NOT NULL,
    announcement text,
    announcement_at bigint,
    announcement_by_name text
);


--
-- Name: staff_audit_log; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE staff_audit_log (
    id bigint NOT NULL,
    page_uid text NOT NULL,
    at bigint NOT NULL,
    actor_uid text,
    action text NOT NULL,
    target jsonb DEFAULT '{}'::jsonb NOT NULL,
    details jsonb
);


--
-- Name: staff_audit_log_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE staff_audit_log_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: staff_audit_log_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE staff_audit_log_id_seq OWNED BY staff_audit_log.id;


--
-- Name: staff_invitations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE staff_invitations (
    uid text NOT NULL,
    page_uid text NOT NULL,
    email text NOT NULL,
    role text NOT NULL,
    token_hash text NOT NULL,
    invited_by text,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    accepted_at bigint,
    accepted_by text,
    revoked_at bigint,
    CONSTRAINT staff_invitations_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'host'::text, 'moderator'::text])))
);


--
-- Name: store_staff; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE store_staff (
    page_uid text NOT NULL,
    user_uid text NOT NULL,
    role text NOT NULL,
    added_at bigint NOT NULL,
    CONSTRAINT store_staff_role_check CHECK ((role = ANY (ARRAY['owner'::text, 'host'::text, 'moderator'::text])))
);


--
-- Name: studio_links; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE studio_links (
    token_hash text NOT NULL,
    user_uid text NOT NULL,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL,
    used_at bigint
);


--
-- Name: test_payment_confirmations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE test_payment_confirmations (
    transaction_uid text NOT NULL,
    due_at bigint NOT NULL
);


--
-- Name: tracking_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE tracking_events (
    id bigint NOT NULL,
    received_at timestamp with time zone DEFAULT now() NOT NULL,
    tracking_event text NOT NULL,
    page_uid text NOT NULL,
    user_uid text,
    campaign_uid text,
    event_uid text,
    payload jsonb NOT NULL,
    viewer_uid text,
    replay boolean DEFAULT false NOT NULL,
    watched_seconds real DEFAULT 0 NOT NULL,
    product_uid text,
    product_shown boolean DEFAULT false NOT NULL
);


--
-- Name: tracking_events_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE tracking_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: tracking_events_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE tracking_events_id_seq OWNED BY tracking_events.id;


--
-- Name: user_identities; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE user_identities (
    provider_id text NOT NULL,
    subject text NOT NULL,
    user_uid text NOT NULL,
    email text,
    created_at bigint NOT NULL
);


--
-- Name: user_passwords; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE user_passwords (
    user_uid text NOT NULL,
    password_hash text NOT NULL,
    updated_at bigint NOT NULL
);


--
-- Name: user_reservations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE user_reservations (
    page_uid text NOT NULL,
    user_uid text NOT NULL,
    language text,
    currency text,
    show_checkout_presentation boolean DEFAULT false NOT NULL,
    updated_at bigint NOT NULL
);


--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE users (
    uid text NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    is_anonymous boolean DEFAULT true NOT NULL,
    email text,
    avatar text,
    locale_code text,
    currency_code text,
    tracking_id text,
    competitions_participated jsonb DEFAULT '[]'::jsonb NOT NULL,
    competitions_dismissed jsonb DEFAULT '[]'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: chat_moderation_log id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY chat_moderation_log ALTER COLUMN id SET DEFAULT nextval('chat_moderation_log_id_seq'::regclass);


--
-- Name: event_product_cues id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY event_product_cues ALTER COLUMN id SET DEFAULT nextval('event_product_cues_id_seq'::regclass);


--
-- Name: onsite_event_updates id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY onsite_event_updates ALTER COLUMN id SET DEFAULT nextval('onsite_event_updates_id_seq'::regclass);


--
-- Name: staff_audit_log id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY staff_audit_log ALTER COLUMN id SET DEFAULT nextval('staff_audit_log_id_seq'::regclass);


--
-- Name: tracking_events id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY tracking_events ALTER COLUMN id SET DEFAULT nextval('tracking_events_id_seq'::regclass);


--
-- Data for Name: analytics_competition_minutes; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: analytics_cursor; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: analytics_minutes; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: analytics_order_minutes; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: analytics_product_orders; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: analytics_shows; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: analytics_viewer_minutes; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: analytics_viewer_products; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: analytics_viewers; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: bulk_comments; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: campaign_presentations; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: campaigns; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO campaigns (uid, page_uid, name, deadline, using_checkout, updated_at) VALUES ('demo-autumn-living', 'demo-store', 'Autumn living', 1796385600000, false, '2026-11-28 23:25:57.65013+00');
INSERT INTO campaigns (uid, page_uid, name, deadline, using_checkout, updated_at) VALUES ('demo-winter-textiles', 'demo-store', 'Winter textiles preview', 1796497200000, false, '2026-11-28 23:25:57.666495+00');
INSERT INTO campaigns (uid, page_uid, name, deadline, using_checkout, updated_at) VALUES ('demo-kitchen-favourites', 'demo-store', 'Kitchen favourites', 1798372800000, false, '2026-11-28 23:25:57.675486+00');


--
-- Data for Name: chat_bans; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: chat_moderation_log; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: chat_moderation_settings; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: checkout_lines; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO checkout_lines (checkout_uid, product_uid, variant_uid, qty, unit_price, product_name, variant_name, sku, image, reserved_until, added_at) VALUES ('lNCWJDr9HpiBA-dY', 'nordlys-ceramic-mug', '', 2, 17900, 'Ceramic mug', NULL, 'NL-CM', '/demo-media/product-ceramic-mug.jpg', NULL, 1795908357872);


--
-- Data for Name: checkout_reservations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO checkout_reservations (page_uid, campaign_uid, user_uid, data, updated_at) VALUES ('demo-store', 'demo-autumn-living', 'ocQ_vq88mG7dJJmldlLMuzES', '{"payed": false, "status": "ordered", "freight": 4900, "pageUid": "demo-store", "userUid": "ocQ_vq88mG7dJJmldlLMuzES", "currency": "DKK", "language": "en", "paidAmount": 0, "totalPrice": 35800, "campaignUid": "demo-autumn-living", "checkoutUid": "lNCWJDr9HpiBA-dY", "orderNumber": 100001, "reservations": [{"qty": 2, "sku": "NL-CM", "image": "/demo-media/product-ceramic-mug.jpg", "unitPrice": 17900, "totalPrice": 35800, "variantUid": null, "mainProduct": "nordlys-ceramic-mug", "productName": "Ceramic mug", "variantName": null, "reservedUntil": null}], "remainingAmount": 40700, "lastPaymentStatus": null}', '2026-11-28 23:25:57.913562+00');


--
-- Data for Name: checkouts; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO checkouts (uid, page_uid, campaign_uid, user_uid, status, currency, language, details, order_number, ordered_at, locked_at, payed, created_at, updated_at) VALUES ('lNCWJDr9HpiBA-dY', 'demo-store', 'demo-autumn-living', 'ocQ_vq88mG7dJJmldlLMuzES', 'ordered', 'DKK', 'en', '{"address": {"city": "Aarhus C", "name": "Upgrade Fixture", "note": "", "phone": "+45 12 34 56 78", "address": "Mejlgade 1", "lastName": "Fixture", "postCode": "8000", "firstName": "Upgrade", "commentField": "", "emailAddress": "ada@example.com", "postcodeAndCity": "8000 Aarhus C"}, "parcelShopId": null, "paymentMethod": "test_card", "termsAccepted": true, "shippingMethod": "home_delivery", "deliveryCountry": "DK", "pickupLocationUid": null}', 100001, 1795908357916, NULL, false, 1795908357872, 1795908357916);


--
-- Data for Name: comments; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: competition_participants; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: competition_winners; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: competitions; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: contact_captures; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: event_product_cues; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO event_product_cues (id, event_id, event_product_uid, source, presentation_start_timestamp, presentation_end_timestamp, deleted) VALUES (1, 'demo-autumn-living', 'nordlys-linen-shirt', 'control-center', 1795780215000, 1795780230000, false);
INSERT INTO event_product_cues (id, event_id, event_product_uid, source, presentation_start_timestamp, presentation_end_timestamp, deleted) VALUES (2, 'demo-autumn-living', 'nordlys-ceramic-mug', 'control-center', 1795780230000, 1795780245000, false);
INSERT INTO event_product_cues (id, event_id, event_product_uid, source, presentation_start_timestamp, presentation_end_timestamp, deleted) VALUES (3, 'demo-autumn-living', 'nordlys-wool-scarf', 'control-center', 1795780245000, 1795780260000, false);
INSERT INTO event_product_cues (id, event_id, event_product_uid, source, presentation_start_timestamp, presentation_end_timestamp, deleted) VALUES (4, 'demo-kitchen-favourites', 'nordlys-linen-shirt', 'control-center', 1795521615000, 1795521630000, false);
INSERT INTO event_product_cues (id, event_id, event_product_uid, source, presentation_start_timestamp, presentation_end_timestamp, deleted) VALUES (5, 'demo-kitchen-favourites', 'nordlys-ceramic-mug', 'control-center', 1795521630000, 1795521645000, false);
INSERT INTO event_product_cues (id, event_id, event_product_uid, source, presentation_start_timestamp, presentation_end_timestamp, deleted) VALUES (6, 'demo-kitchen-favourites', 'nordlys-wool-scarf', 'control-center', 1795521645000, 1795521660000, false);


--
-- Data for Name: event_products; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO event_products (uid, event_id, product_uid, relative_cues, absolute_cues, presentation_time, presentation_end_time, sorting, studio_controlled, show_all_products_when_event_starts, updated_at) VALUES ('nordlys-linen-shirt', 'demo-autumn-living', 'nordlys-linen-shirt', '[{"presentationTime": 15000, "presentationEndTime": 30000}]', '[]', NULL, NULL, 0, false, false, '2026-11-28 23:25:57.713919+00');
INSERT INTO event_products (uid, event_id, product_uid, relative_cues, absolute_cues, presentation_time, presentation_end_time, sorting, studio_controlled, show_all_products_when_event_starts, updated_at) VALUES ('nordlys-ceramic-mug', 'demo-autumn-living', 'nordlys-ceramic-mug', '[{"presentationTime": 30000, "presentationEndTime": 45000}]', '[]', NULL, NULL, 1, false, false, '2026-11-28 23:25:57.724395+00');
INSERT INTO event_products (uid, event_id, product_uid, relative_cues, absolute_cues, presentation_time, presentation_end_time, sorting, studio_controlled, show_all_products_when_event_starts, updated_at) VALUES ('nordlys-wool-scarf', 'demo-autumn-living', 'nordlys-wool-scarf', '[{"presentationTime": 45000, "presentationEndTime": 60000}]', '[]', NULL, NULL, 2, false, false, '2026-11-28 23:25:57.733013+00');
INSERT INTO event_products (uid, event_id, product_uid, relative_cues, absolute_cues, presentation_time, presentation_end_time, sorting, studio_controlled, show_all_products_when_event_starts, updated_at) VALUES ('nordlys-wool-scarf', 'demo-winter-textiles', 'nordlys-wool-scarf', '[]', '[]', NULL, NULL, 0, false, false, '2026-11-28 23:25:57.743553+00');
INSERT INTO event_products (uid, event_id, product_uid, relative_cues, absolute_cues, presentation_time, presentation_end_time, sorting, studio_controlled, show_all_products_when_event_starts, updated_at) VALUES ('nordlys-linen-shirt', 'demo-winter-textiles', 'nordlys-linen-shirt', '[]', '[]', NULL, NULL, 1, false, false, '2026-11-28 23:25:57.756518+00');
INSERT INTO event_products (uid, event_id, product_uid, relative_cues, absolute_cues, presentation_time, presentation_end_time, sorting, studio_controlled, show_all_products_when_event_starts, updated_at) VALUES ('nordlys-beeswax-candles', 'demo-winter-textiles', 'nordlys-beeswax-candles', '[]', '[]', NULL, NULL, 2, false, false, '2026-11-28 23:25:57.765509+00');
INSERT INTO event_products (uid, event_id, product_uid, relative_cues, absolute_cues, presentation_time, presentation_end_time, sorting, studio_controlled, show_all_products_when_event_starts, updated_at) VALUES ('nordlys-stoneware-vase', 'demo-winter-textiles', 'nordlys-stoneware-vase', '[]', '[]', NULL, NULL, 3, false, false, '2026-11-28 23:25:57.774265+00');
INSERT INTO event_products (uid, event_id, product_uid, relative_cues, absolute_cues, presentation_time, presentation_end_time, sorting, studio_controlled, show_all_products_when_event_starts, updated_at) VALUES ('nordlys-linen-shirt', 'demo-kitchen-favourites', 'nordlys-linen-shirt', '[{"presentationTime": 15000, "presentationEndTime": 30000}]', '[]', NULL, NULL, 0, false, false, '2026-11-28 23:25:57.781994+00');
INSERT INTO event_products (uid, event_id, product_uid, relative_cues, absolute_cues, presentation_time, presentation_end_time, sorting, studio_controlled, show_all_products_when_event_starts, updated_at) VALUES ('nordlys-ceramic-mug', 'demo-kitchen-favourites', 'nordlys-ceramic-mug', '[{"presentationTime": 30000, "presentationEndTime": 45000}]', '[]', NULL, NULL, 1, false, false, '2026-11-28 23:25:57.796771+00');
INSERT INTO event_products (uid, event_id, product_uid, relative_cues, absolute_cues, presentation_time, presentation_end_time, sorting, studio_controlled, show_all_products_when_event_starts, updated_at) VALUES ('nordlys-wool-scarf', 'demo-kitchen-favourites', 'nordlys-wool-scarf', '[{"presentationTime": 45000, "presentationEndTime": 60000}]', '[]', NULL, NULL, 2, false, false, '2026-11-28 23:25:57.811328+00');
INSERT INTO event_products (uid, event_id, product_uid, relative_cues, absolute_cues, presentation_time, presentation_end_time, sorting, studio_controlled, show_all_products_when_event_starts, updated_at) VALUES ('nordlys-oak-board', 'demo-kitchen-favourites', 'nordlys-oak-board', '[]', '[]', NULL, NULL, 3, false, false, '2026-11-28 23:25:57.81786+00');


--
-- Data for Name: live_events; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO live_events (id, page_uid, campaign_uid, status, current_status, event_name, event_start_timestamp, live_start_time, live_end_time, cdn, cdn_live_video_id, cdn_video_id, cdn_video_start_time, cdn_mp4_video_url, live_video_format, live_video_cover, cover_photo_path, video_has_overlay, onsite_cart_mode, lead_mode_after_deadline, use_onsite_cart, broadcast_delay_ms, cdn_delay_ms, video_current_status, updated_at, time_zone, first_published_at) VALUES ('demo-autumn-living', 'demo-store', 'demo-autumn-living', 'public', 'live', 'Autumn living — live now', 1795780200000, 1795780200000, NULL, 'vitrine', NULL, NULL, 1795780200000, '/demo-media/demo-show.mp4', '{"width": 540, "height": 960, "picture": "/demo-media/cover-live.jpg"}', NULL, '/demo-media/cover-live.jpg', false, NULL, false, false, 0, 0, NULL, '2026-11-28 23:25:57.695828+00', NULL, 1795908357694);
INSERT INTO live_events (id, page_uid, campaign_uid, status, current_status, event_name, event_start_timestamp, live_start_time, live_end_time, cdn, cdn_live_video_id, cdn_video_id, cdn_video_start_time, cdn_mp4_video_url, live_video_format, live_video_cover, cover_photo_path, video_has_overlay, onsite_cart_mode, lead_mode_after_deadline, use_onsite_cart, broadcast_delay_ms, cdn_delay_ms, video_current_status, updated_at, time_zone, first_published_at) VALUES ('demo-winter-textiles', 'demo-store', 'demo-winter-textiles', 'public', 'planned', 'Winter textiles preview', 1795892400000, NULL, NULL, 'vitrine', NULL, NULL, NULL, NULL, '{"width": 540, "height": 960, "picture": "/demo-media/cover-planned.jpg"}', NULL, '/demo-media/cover-planned.jpg', false, NULL, false, false, NULL, NULL, NULL, '2026-11-28 23:25:57.703382+00', NULL, 1795908357703);
INSERT INTO live_events (id, page_uid, campaign_uid, status, current_status, event_name, event_start_timestamp, live_start_time, live_end_time, cdn, cdn_live_video_id, cdn_video_id, cdn_video_start_time, cdn_mp4_video_url, live_video_format, live_video_cover, cover_photo_path, video_has_overlay, onsite_cart_mode, lead_mode_after_deadline, use_onsite_cart, broadcast_delay_ms, cdn_delay_ms, video_current_status, updated_at, time_zone, first_published_at) VALUES ('demo-kitchen-favourites', 'demo-store', 'demo-kitchen-favourites', 'public', 'vod', 'Kitchen favourites', 1795521600000, 1795521600000, 1795521660000, 'vitrine', NULL, NULL, 1795521600000, '/demo-media/demo-show.mp4', '{"width": 540, "height": 960, "picture": "/demo-media/cover-vod.jpg"}', NULL, '/demo-media/cover-vod.jpg', false, NULL, false, false, 0, 0, NULL, '2026-11-28 23:25:57.707838+00', NULL, 1795908357707);


--
-- Data for Name: live_streams; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: mail_outbox; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: notifications; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: oidc_flows; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: onsite_event_updates; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (1, 'demo-store', 'demo-autumn-living', 1795908357698, '{"id": "demo-autumn-living", "event": {"cdn": "vitrine", "status": "public", "eventName": "Autumn living — live now", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-autumn-living", "cdnDelayMs": 0, "cdnVideoId": null, "liveEndTime": null, "currentStatus": "live", "liveStartTime": 1795780200000, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": "/demo-media/demo-show.mp4", "coverPhotoPath": "/demo-media/cover-live.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-live.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": 0, "cdnVideoStartTime": 1795780200000, "eventStartTimestamp": 1795780200000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "live"}, "campaign": {"deadline": 1796385600000, "usingCheckout": false}, "shopSummary": {"productCount": 0, "previewProducts": []}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (2, 'demo-store', 'demo-winter-textiles', 1795908357704, '{"id": "demo-winter-textiles", "event": {"cdn": "vitrine", "status": "public", "eventName": "Winter textiles preview", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-winter-textiles", "cdnDelayMs": null, "cdnVideoId": null, "liveEndTime": null, "currentStatus": "planned", "liveStartTime": null, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": null, "coverPhotoPath": "/demo-media/cover-planned.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-planned.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": null, "cdnVideoStartTime": null, "eventStartTimestamp": 1795892400000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "planned"}, "campaign": {"deadline": 1796497200000, "usingCheckout": false}, "shopSummary": {"productCount": 0, "previewProducts": []}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (3, 'demo-store', 'demo-kitchen-favourites', 1795908357709, '{"id": "demo-kitchen-favourites", "event": {"cdn": "vitrine", "status": "public", "eventName": "Kitchen favourites", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-kitchen-favourites", "cdnDelayMs": 0, "cdnVideoId": null, "liveEndTime": 1795521660000, "currentStatus": "vod", "liveStartTime": 1795521600000, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": "/demo-media/demo-show.mp4", "coverPhotoPath": "/demo-media/cover-vod.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-vod.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": 0, "cdnVideoStartTime": 1795521600000, "eventStartTimestamp": 1795521600000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "vod"}, "campaign": {"deadline": 1798372800000, "usingCheckout": false}, "shopSummary": {"productCount": 0, "previewProducts": []}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (4, 'demo-store', 'demo-autumn-living', 1795908357720, '{"id": "demo-autumn-living", "event": {"cdn": "vitrine", "status": "public", "eventName": "Autumn living — live now", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-autumn-living", "cdnDelayMs": 0, "cdnVideoId": null, "liveEndTime": null, "currentStatus": "live", "liveStartTime": 1795780200000, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": "/demo-media/demo-show.mp4", "coverPhotoPath": "/demo-media/cover-live.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-live.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": 0, "cdnVideoStartTime": 1795780200000, "eventStartTimestamp": 1795780200000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "live"}, "campaign": {"deadline": 1796385600000, "usingCheckout": false}, "shopSummary": {"productCount": 1, "previewProducts": [{"uid": "nordlys-linen-shirt", "name": "Linen shirt", "image": "/demo-media/product-linen-shirt.jpg", "prices": {"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}}]}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (5, 'demo-store', 'demo-autumn-living', 1795908357728, '{"id": "demo-autumn-living", "event": {"cdn": "vitrine", "status": "public", "eventName": "Autumn living — live now", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-autumn-living", "cdnDelayMs": 0, "cdnVideoId": null, "liveEndTime": null, "currentStatus": "live", "liveStartTime": 1795780200000, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": "/demo-media/demo-show.mp4", "coverPhotoPath": "/demo-media/cover-live.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-live.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": 0, "cdnVideoStartTime": 1795780200000, "eventStartTimestamp": 1795780200000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "live"}, "campaign": {"deadline": 1796385600000, "usingCheckout": false}, "shopSummary": {"productCount": 2, "previewProducts": [{"uid": "nordlys-linen-shirt", "name": "Linen shirt", "image": "/demo-media/product-linen-shirt.jpg", "prices": {"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}}, {"uid": "nordlys-ceramic-mug", "name": "Ceramic mug", "image": "/demo-media/product-ceramic-mug.jpg", "prices": {"DKK": 17900, "EUR": 2395, "GBP": 1995, "NOK": 26900, "PLN": 10900, "SEK": 26900}}]}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (11, 'demo-store', 'demo-kitchen-favourites', 1795908357785, '{"id": "demo-kitchen-favourites", "event": {"cdn": "vitrine", "status": "public", "eventName": "Kitchen favourites", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-kitchen-favourites", "cdnDelayMs": 0, "cdnVideoId": null, "liveEndTime": 1795521660000, "currentStatus": "vod", "liveStartTime": 1795521600000, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": "/demo-media/demo-show.mp4", "coverPhotoPath": "/demo-media/cover-vod.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-vod.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": 0, "cdnVideoStartTime": 1795521600000, "eventStartTimestamp": 1795521600000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "vod"}, "campaign": {"deadline": 1798372800000, "usingCheckout": false}, "shopSummary": {"productCount": 1, "previewProducts": [{"uid": "nordlys-linen-shirt", "name": "Linen shirt", "image": "/demo-media/product-linen-shirt.jpg", "prices": {"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}}]}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (6, 'demo-store', 'demo-autumn-living', 1795908357737, '{"id": "demo-autumn-living", "event": {"cdn": "vitrine", "status": "public", "eventName": "Autumn living — live now", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-autumn-living", "cdnDelayMs": 0, "cdnVideoId": null, "liveEndTime": null, "currentStatus": "live", "liveStartTime": 1795780200000, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": "/demo-media/demo-show.mp4", "coverPhotoPath": "/demo-media/cover-live.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-live.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": 0, "cdnVideoStartTime": 1795780200000, "eventStartTimestamp": 1795780200000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "live"}, "campaign": {"deadline": 1796385600000, "usingCheckout": false}, "shopSummary": {"productCount": 3, "previewProducts": [{"uid": "nordlys-linen-shirt", "name": "Linen shirt", "image": "/demo-media/product-linen-shirt.jpg", "prices": {"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}}, {"uid": "nordlys-ceramic-mug", "name": "Ceramic mug", "image": "/demo-media/product-ceramic-mug.jpg", "prices": {"DKK": 17900, "EUR": 2395, "GBP": 1995, "NOK": 26900, "PLN": 10900, "SEK": 26900}}, {"uid": "nordlys-wool-scarf", "name": "Wool scarf", "image": "/demo-media/product-wool-scarf.jpg", "prices": {"DKK": 39900, "EUR": 5395, "GBP": 4495, "NOK": 59900, "PLN": 24900, "SEK": 59900}}]}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (7, 'demo-store', 'demo-winter-textiles', 1795908357747, '{"id": "demo-winter-textiles", "event": {"cdn": "vitrine", "status": "public", "eventName": "Winter textiles preview", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-winter-textiles", "cdnDelayMs": null, "cdnVideoId": null, "liveEndTime": null, "currentStatus": "planned", "liveStartTime": null, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": null, "coverPhotoPath": "/demo-media/cover-planned.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-planned.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": null, "cdnVideoStartTime": null, "eventStartTimestamp": 1795892400000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "planned"}, "campaign": {"deadline": 1796497200000, "usingCheckout": false}, "shopSummary": {"productCount": 1, "previewProducts": [{"uid": "nordlys-wool-scarf", "name": "Wool scarf", "image": "/demo-media/product-wool-scarf.jpg", "prices": {"DKK": 39900, "EUR": 5395, "GBP": 4495, "NOK": 59900, "PLN": 24900, "SEK": 59900}}]}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (8, 'demo-store', 'demo-winter-textiles', 1795908357761, '{"id": "demo-winter-textiles", "event": {"cdn": "vitrine", "status": "public", "eventName": "Winter textiles preview", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-winter-textiles", "cdnDelayMs": null, "cdnVideoId": null, "liveEndTime": null, "currentStatus": "planned", "liveStartTime": null, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": null, "coverPhotoPath": "/demo-media/cover-planned.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-planned.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": null, "cdnVideoStartTime": null, "eventStartTimestamp": 1795892400000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "planned"}, "campaign": {"deadline": 1796497200000, "usingCheckout": false}, "shopSummary": {"productCount": 2, "previewProducts": [{"uid": "nordlys-wool-scarf", "name": "Wool scarf", "image": "/demo-media/product-wool-scarf.jpg", "prices": {"DKK": 39900, "EUR": 5395, "GBP": 4495, "NOK": 59900, "PLN": 24900, "SEK": 59900}}, {"uid": "nordlys-linen-shirt", "name": "Linen shirt", "image": "/demo-media/product-linen-shirt.jpg", "prices": {"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}}]}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (9, 'demo-store', 'demo-winter-textiles', 1795908357768, '{"id": "demo-winter-textiles", "event": {"cdn": "vitrine", "status": "public", "eventName": "Winter textiles preview", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-winter-textiles", "cdnDelayMs": null, "cdnVideoId": null, "liveEndTime": null, "currentStatus": "planned", "liveStartTime": null, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": null, "coverPhotoPath": "/demo-media/cover-planned.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-planned.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": null, "cdnVideoStartTime": null, "eventStartTimestamp": 1795892400000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "planned"}, "campaign": {"deadline": 1796497200000, "usingCheckout": false}, "shopSummary": {"productCount": 3, "previewProducts": [{"uid": "nordlys-wool-scarf", "name": "Wool scarf", "image": "/demo-media/product-wool-scarf.jpg", "prices": {"DKK": 39900, "EUR": 5395, "GBP": 4495, "NOK": 59900, "PLN": 24900, "SEK": 59900}}, {"uid": "nordlys-linen-shirt", "name": "Linen shirt", "image": "/demo-media/product-linen-shirt.jpg", "prices": {"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}}, {"uid": "nordlys-beeswax-candles", "name": "Beeswax candles", "image": "/demo-media/product-beeswax-candles.jpg", "prices": {"DKK": 12900, "EUR": 1745, "GBP": 1495, "NOK": 18900, "PLN": 7900, "SEK": 18900}}]}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (10, 'demo-store', 'demo-winter-textiles', 1795908357776, '{"id": "demo-winter-textiles", "event": {"cdn": "vitrine", "status": "public", "eventName": "Winter textiles preview", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-winter-textiles", "cdnDelayMs": null, "cdnVideoId": null, "liveEndTime": null, "currentStatus": "planned", "liveStartTime": null, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": null, "coverPhotoPath": "/demo-media/cover-planned.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-planned.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": null, "cdnVideoStartTime": null, "eventStartTimestamp": 1795892400000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "planned"}, "campaign": {"deadline": 1796497200000, "usingCheckout": false}, "shopSummary": {"productCount": 4, "previewProducts": [{"uid": "nordlys-wool-scarf", "name": "Wool scarf", "image": "/demo-media/product-wool-scarf.jpg", "prices": {"DKK": 39900, "EUR": 5395, "GBP": 4495, "NOK": 59900, "PLN": 24900, "SEK": 59900}}, {"uid": "nordlys-linen-shirt", "name": "Linen shirt", "image": "/demo-media/product-linen-shirt.jpg", "prices": {"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}}, {"uid": "nordlys-beeswax-candles", "name": "Beeswax candles", "image": "/demo-media/product-beeswax-candles.jpg", "prices": {"DKK": 12900, "EUR": 1745, "GBP": 1495, "NOK": 18900, "PLN": 7900, "SEK": 18900}}, {"uid": "nordlys-stoneware-vase", "name": "Stoneware vase", "image": "/demo-media/product-stoneware-vase.jpg", "prices": {"DKK": 34900, "EUR": 4695, "GBP": 3995, "NOK": 52900, "PLN": 19900, "SEK": 52900}}]}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (12, 'demo-store', 'demo-kitchen-favourites', 1795908357805, '{"id": "demo-kitchen-favourites", "event": {"cdn": "vitrine", "status": "public", "eventName": "Kitchen favourites", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-kitchen-favourites", "cdnDelayMs": 0, "cdnVideoId": null, "liveEndTime": 1795521660000, "currentStatus": "vod", "liveStartTime": 1795521600000, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": "/demo-media/demo-show.mp4", "coverPhotoPath": "/demo-media/cover-vod.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-vod.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": 0, "cdnVideoStartTime": 1795521600000, "eventStartTimestamp": 1795521600000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "vod"}, "campaign": {"deadline": 1798372800000, "usingCheckout": false}, "shopSummary": {"productCount": 2, "previewProducts": [{"uid": "nordlys-linen-shirt", "name": "Linen shirt", "image": "/demo-media/product-linen-shirt.jpg", "prices": {"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}}, {"uid": "nordlys-ceramic-mug", "name": "Ceramic mug", "image": "/demo-media/product-ceramic-mug.jpg", "prices": {"DKK": 17900, "EUR": 2395, "GBP": 1995, "NOK": 26900, "PLN": 10900, "SEK": 26900}}]}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (13, 'demo-store', 'demo-kitchen-favourites', 1795908357814, '{"id": "demo-kitchen-favourites", "event": {"cdn": "vitrine", "status": "public", "eventName": "Kitchen favourites", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-kitchen-favourites", "cdnDelayMs": 0, "cdnVideoId": null, "liveEndTime": 1795521660000, "currentStatus": "vod", "liveStartTime": 1795521600000, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": "/demo-media/demo-show.mp4", "coverPhotoPath": "/demo-media/cover-vod.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-vod.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": 0, "cdnVideoStartTime": 1795521600000, "eventStartTimestamp": 1795521600000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "vod"}, "campaign": {"deadline": 1798372800000, "usingCheckout": false}, "shopSummary": {"productCount": 3, "previewProducts": [{"uid": "nordlys-linen-shirt", "name": "Linen shirt", "image": "/demo-media/product-linen-shirt.jpg", "prices": {"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}}, {"uid": "nordlys-ceramic-mug", "name": "Ceramic mug", "image": "/demo-media/product-ceramic-mug.jpg", "prices": {"DKK": 17900, "EUR": 2395, "GBP": 1995, "NOK": 26900, "PLN": 10900, "SEK": 26900}}, {"uid": "nordlys-wool-scarf", "name": "Wool scarf", "image": "/demo-media/product-wool-scarf.jpg", "prices": {"DKK": 39900, "EUR": 5395, "GBP": 4495, "NOK": 59900, "PLN": 24900, "SEK": 59900}}]}}');
INSERT INTO onsite_event_updates (id, store_id, event_id, "time", updated_event) VALUES (14, 'demo-store', 'demo-kitchen-favourites', 1795908357820, '{"id": "demo-kitchen-favourites", "event": {"cdn": "vitrine", "status": "public", "eventName": "Kitchen favourites", "storeInfo": {"id": "demo-store", "currency": "DKK", "language": "en"}, "campaignId": "demo-kitchen-favourites", "cdnDelayMs": 0, "cdnVideoId": null, "liveEndTime": 1795521660000, "currentStatus": "vod", "liveStartTime": 1795521600000, "useOnsiteCart": false, "cdnLiveVideoId": null, "cdnMp4VideoUrl": "/demo-media/demo-show.mp4", "coverPhotoPath": "/demo-media/cover-vod.jpg", "liveVideoCover": null, "onsiteCartMode": null, "liveVideoFormat": {"width": 540, "height": 960, "picture": "/demo-media/cover-vod.jpg"}, "videoHasOverlay": false, "broadcastDelayMs": 0, "cdnVideoStartTime": 1795521600000, "eventStartTimestamp": 1795521600000, "leadModeAfterDeadline": false}, "video": {"cdn": "vitrine", "currentStatus": "vod"}, "campaign": {"deadline": 1798372800000, "usingCheckout": false}, "shopSummary": {"productCount": 4, "previewProducts": [{"uid": "nordlys-linen-shirt", "name": "Linen shirt", "image": "/demo-media/product-linen-shirt.jpg", "prices": {"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}}, {"uid": "nordlys-ceramic-mug", "name": "Ceramic mug", "image": "/demo-media/product-ceramic-mug.jpg", "prices": {"DKK": 17900, "EUR": 2395, "GBP": 1995, "NOK": 26900, "PLN": 10900, "SEK": 26900}}, {"uid": "nordlys-wool-scarf", "name": "Wool scarf", "image": "/demo-media/product-wool-scarf.jpg", "prices": {"DKK": 39900, "EUR": 5395, "GBP": 4495, "NOK": 59900, "PLN": 24900, "SEK": 59900}}, {"uid": "nordlys-oak-board", "name": "Oak serving board", "image": "/demo-media/product-oak-board.jpg", "prices": {"DKK": 44900, "EUR": 5995, "GBP": 4995, "NOK": 64900, "PLN": 27900, "SEK": 64900}}]}}');


--
-- Data for Name: order_refunds; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: pages; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO pages (uid, name, description, terms, cvr, logo, address, storefront, language, currency, allowed_origins, player_settings, created_at, updated_at, integrity_settings, free_delivery_over, time_zone, languages, currencies, shipping_methods, pickup_stores) VALUES ('demo-store', 'Nordlys Living', 'Nordlys Living is a small Aarhus homeware studio. We make and curate linen, wool, stoneware and oak for calm Nordic homes, and we present new collections live every month.', 'These terms apply to all purchases from Nordlys Living ApS, CVR 12345678, Mejlgade 12, 8000 Aarhus C. Prices include Danish VAT. Your order is binding once you have paid for it; the confirmation page shows your order and what you paid. We do not send order confirmations by e-mail.

We ship to Denmark, Sweden, Norway, Finland, Poland, Germany, the Netherlands, Spain, France and the United Kingdom. Home delivery costs 49 kr and delivery to a parcel shop 39 kr, both free on orders of 999 kr or more (in your own currency, the checkout shows the prices and the limit); picking your order up at our Aarhus studio is free. Orders placed before 14:00 on weekdays leave our studio the same day.

The law gives you 14 days to cancel a purchase; we give you 30 days from the day you receive it. Return the items unused and in their original packaging, and we refund the purchase price, including the original delivery cost, within 14 days of receiving the return.

This is a demonstration store: the only payment method is a test card, and no money is ever charged.

Complaints can be sent to hello@nordlys.example. You may also complain to the Danish Centre for Complaint Resolution or through the EU online dispute resolution platform.', '12345678', '/demo-media/logo.svg', '{"city": "Aarhus C", "name": "Nordlys Living ApS", "email": "hello@nordlys.example", "phone": "+45 86 12 34 56", "street": "Mejlgade 12", "postCode": "8000"}', '{"cards": {"returns": {"text": "Not quite right at home? Send it back unused within 30 days for a full refund.", "image": null, "title": "30 days to change your mind"}, "delivery": {"text": "Orders placed before 14:00 on weekdays leave our Aarhus studio the same day.", "image": null, "title": "Free delivery from 999 kr"}, "showroom": {"text": "Mejlgade 12, Aarhus C. Open Thursday to Saturday, 10-17.", "image": "/demo-media/product-stoneware-vase.jpg", "title": "Visit the studio"}}, "frontpageText": "Slow living, shown live. Join our monthly shows to see new linen, wool and stoneware up close, ask questions in the chat and shop straight from the video."}', 'en', 'DKK', '[]', '{}', '2026-11-28 23:25:57.549243+00', '2026-11-28 23:25:57.549243+00', '{}', '{"DKK": 99900, "EUR": 13395, "GBP": 11495, "NOK": 139900, "PLN": 59900, "SEK": 139900}', 'Europe/Copenhagen', '[]', '[]', '{"parcel_shop": {"prices": {"DKK": 3900, "EUR": 495, "GBP": 395, "NOK": 4900, "PLN": 1900, "SEK": 4900}, "enabled": true}, "store_pickup": {"prices": {"DKK": 0, "EUR": 0, "GBP": 0, "NOK": 0, "PLN": 0, "SEK": 0}, "enabled": true}, "home_delivery": {"prices": {"DKK": 4900, "EUR": 695, "GBP": 595, "NOK": 6900, "PLN": 2900, "SEK": 6900}, "enabled": true}}', '[{"uid": "demo-store-store", "city": "Aarhus C", "name": "Nordlys Living", "street": "Mejlgade 12", "postCode": "8000", "openingHours": "Thursday to Saturday, 10-17"}]');


--
-- Data for Name: payment_events; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: payment_transactions; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: pending_credentials; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: premieres; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: product_variants; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO product_variants (uid, product_uid, "position", name, sku, prices, stock, options) VALUES ('nordlys-linen-shirt-sand-s', 'nordlys-linen-shirt', 0, 'Sand / S', 'NL-LS-SAND-S', '{"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}', 6, '[{"optionId": "colour", "optionValueId": "sand"}, {"optionId": "size", "optionValueId": "s"}]');
INSERT INTO product_variants (uid, product_uid, "position", name, sku, prices, stock, options) VALUES ('nordlys-linen-shirt-sand-m', 'nordlys-linen-shirt', 1, 'Sand / M', 'NL-LS-SAND-M', '{"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}', 1, '[{"optionId": "colour", "optionValueId": "sand"}, {"optionId": "size", "optionValueId": "m"}]');
INSERT INTO product_variants (uid, product_uid, "position", name, sku, prices, stock, options) VALUES ('nordlys-linen-shirt-sand-l', 'nordlys-linen-shirt', 2, 'Sand / L', 'NL-LS-SAND-L', '{"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}', 8, '[{"optionId": "colour", "optionValueId": "sand"}, {"optionId": "size", "optionValueId": "l"}]');
INSERT INTO product_variants (uid, product_uid, "position", name, sku, prices, stock, options) VALUES ('nordlys-linen-shirt-sage-s', 'nordlys-linen-shirt', 3, 'Sage / S', 'NL-LS-SAGE-S', '{"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}', 5, '[{"optionId": "colour", "optionValueId": "sage"}, {"optionId": "size", "optionValueId": "s"}]');
INSERT INTO product_variants (uid, product_uid, "position", name, sku, prices, stock, options) VALUES ('nordlys-linen-shirt-sage-m', 'nordlys-linen-shirt', 4, 'Sage / M', 'NL-LS-SAGE-M', '{"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}', 9, '[{"optionId": "colour", "optionValueId": "sage"}, {"optionId": "size", "optionValueId": "m"}]');
INSERT INTO product_variants (uid, product_uid, "position", name, sku, prices, stock, options) VALUES ('nordlys-linen-shirt-sage-l', 'nordlys-linen-shirt', 5, 'Sage / L', 'NL-LS-SAGE-L', '{"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}', 0, '[{"optionId": "colour", "optionValueId": "sage"}, {"optionId": "size", "optionValueId": "l"}]');
INSERT INTO product_variants (uid, product_uid, "position", name, sku, prices, stock, options) VALUES ('nordlys-wool-scarf-rust', 'nordlys-wool-scarf', 0, 'Rust', 'NL-WS-RUST', '{"DKK": 39900, "EUR": 5395, "GBP": 4495, "NOK": 59900, "PLN": 24900, "SEK": 59900}', 14, '[{"optionId": "colour", "optionValueId": "rust"}]');
INSERT INTO product_variants (uid, product_uid, "position", name, sku, prices, stock, options) VALUES ('nordlys-wool-scarf-charcoal', 'nordlys-wool-scarf', 1, 'Charcoal', 'NL-WS-CHARCOAL', '{"DKK": 39900, "EUR": 5395, "GBP": 4495, "NOK": 59900, "PLN": 24900, "SEK": 59900}', 3, '[{"optionId": "colour", "optionValueId": "charcoal"}]');
INSERT INTO product_variants (uid, product_uid, "position", name, sku, prices, stock, options) VALUES ('nordlys-wool-scarf-oat', 'nordlys-wool-scarf', 2, 'Oat', 'NL-WS-OAT', '{"DKK": 39900, "EUR": 5395, "GBP": 4495, "NOK": 59900, "PLN": 24900, "SEK": 59900}', 11, '[{"optionId": "colour", "optionValueId": "oat"}]');
INSERT INTO product_variants (uid, product_uid, "position", name, sku, prices, stock, options) VALUES ('nordlys-oak-board-small', 'nordlys-oak-board', 0, 'Small', 'NL-OB-S', '{"DKK": 44900, "EUR": 5995, "GBP": 4995, "NOK": 64900, "PLN": 27900, "SEK": 64900}', 15, '[{"optionId": "size", "optionValueId": "small"}]');
INSERT INTO product_variants (uid, product_uid, "position", name, sku, prices, stock, options) VALUES ('nordlys-oak-board-large', 'nordlys-oak-board', 1, 'Large', 'NL-OB-L', '{"DKK": 59900, "EUR": 7995, "GBP": 6495, "NOK": 84900, "PLN": 36900, "SEK": 84900}', 9, '[{"optionId": "size", "optionValueId": "large"}]');


--
-- Data for Name: products; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO products (uid, page_uid, external_id, name, description, sku, url, images, prices, stock, options, updated_at, archived_at) VALUES ('nordlys-linen-shirt', 'demo-store', 'NL-linen-shirt', 'Linen shirt', 'A relaxed shirt in washed European linen that gets softer with every wash. Mother-of-pearl buttons, a single chest pocket and a straight hem to wear in or out.', 'NL-LS', 'https://nordlys.example/products/linen-shirt', '["/demo-media/product-linen-shirt.jpg"]', '{"DKK": 54900, "EUR": 7395, "GBP": 6395, "NOK": 79900, "PLN": 33900, "SEK": 79900}', 29, '[{"id": "colour", "name": "Colour", "optionType": "color", "optionValues": [{"id": "sand", "name": "Sand", "images": [], "styleUrl": null, "minimumPrice": null}, {"id": "sage", "name": "Sage", "images": [], "styleUrl": null, "minimumPrice": null}]}, {"id": "size", "name": "Size", "optionType": "size", "optionValues": [{"id": "s", "name": "S", "images": [], "styleUrl": null, "minimumPrice": null}, {"id": "m", "name": "M", "images": [], "styleUrl": null, "minimumPrice": null}, {"id": "l", "name": "L", "images": [], "styleUrl": null, "minimumPrice": null}]}]', '2026-11-28 23:25:57.571034+00', NULL);
INSERT INTO products (uid, page_uid, external_id, name, description, sku, url, images, prices, stock, options, updated_at, archived_at) VALUES ('nordlys-wool-scarf', 'demo-store', 'NL-wool-scarf', 'Wool scarf', 'A generous scarf woven from soft lambswool in Jutland, with cream stripes and a knotted fringe. 200 x 35 cm.', 'NL-WS', 'https://nordlys.example/products/wool-scarf', '["/demo-media/product-wool-scarf.jpg"]', '{"DKK": 39900, "EUR": 5395, "GBP": 4495, "NOK": 59900, "PLN": 24900, "SEK": 59900}', 28, '[{"id": "colour", "name": "Colour", "optionType": "color", "optionValues": [{"id": "rust", "name": "Rust", "images": [], "styleUrl": null, "minimumPrice": null}, {"id": "charcoal", "name": "Charcoal", "images": [], "styleUrl": null, "minimumPrice": null}, {"id": "oat", "name": "Oat", "images": [], "styleUrl": null, "minimumPrice": null}]}]', '2026-11-28 23:25:57.603902+00', NULL);
INSERT INTO products (uid, page_uid, external_id, name, description, sku, url, images, prices, stock, options, updated_at, archived_at) VALUES ('nordlys-oak-board', 'demo-store', 'NL-oak-board', 'Oak serving board', 'Cut from a single piece of FSC-certified Danish oak and finished with food-safe oil. Made for bread, cheese and long dinners.', 'NL-OB', 'https://nordlys.example/products/oak-board', '["/demo-media/product-oak-board.jpg"]', '{"DKK": 44900, "EUR": 5995, "GBP": 4995, "NOK": 64900, "PLN": 27900, "SEK": 64900}', 24, '[{"id": "size", "name": "Size", "optionType": "size", "optionValues": [{"id": "small", "name": "Small, 30 x 20 cm", "images": [], "styleUrl": null, "minimumPrice": null}, {"id": "large", "name": "Large, 45 x 28 cm", "images": [], "styleUrl": null, "minimumPrice": null}]}]', '2026-11-28 23:25:57.611199+00', NULL);
INSERT INTO products (uid, page_uid, external_id, name, description, sku, url, images, prices, stock, options, updated_at, archived_at) VALUES ('nordlys-stoneware-vase', 'demo-store', 'NL-stoneware-vase', 'Stoneware vase', 'A round-bellied vase in speckled sage stoneware, glazed inside so it holds water. Beautiful with dried grasses or a single branch. Height 24 cm.', 'NL-SV', 'https://nordlys.example/products/stoneware-vase', '["/demo-media/product-stoneware-vase.jpg"]', '{"DKK": 34900, "EUR": 4695, "GBP": 3995, "NOK": 52900, "PLN": 19900, "SEK": 52900}', 7, '[]', '2026-11-28 23:25:57.615236+00', NULL);
INSERT INTO products (uid, page_uid, external_id, name, description, sku, url, images, prices, stock, options, updated_at, archived_at) VALUES ('nordlys-beeswax-candles', 'demo-store', 'NL-beeswax-candles', 'Beeswax candles', 'Three hand-dipped candles of pure Danish beeswax with cotton wicks. They burn slowly, clean and with a faint scent of honey. Set of three, 25 cm.', 'NL-BC', 'https://nordlys.example/products/beeswax-candles', '["/demo-media/product-beeswax-candles.jpg"]', '{"DKK": 12900, "EUR": 1745, "GBP": 1495, "NOK": 18900, "PLN": 7900, "SEK": 18900}', 60, '[]', '2026-11-28 23:25:57.620113+00', NULL);
INSERT INTO products (uid, page_uid, external_id, name, description, sku, url, images, prices, stock, options, updated_at, archived_at) VALUES ('nordlys-ceramic-mug', 'demo-store', 'NL-ceramic-mug', 'Ceramic mug', 'Wheel-thrown stoneware mug with a terracotta body and a cream glaze that runs a little differently on each one. Holds 350 ml; dishwasher safe.', 'NL-CM', 'https://nordlys.example/products/ceramic-mug', '["/demo-media/product-ceramic-mug.jpg"]', '{"DKK": 17900, "EUR": 2395, "GBP": 1995, "NOK": 26900, "PLN": 10900, "SEK": 26900}', 38, '[]', '2026-11-28 23:25:57.584247+00', NULL);


--
-- Data for Name: purchases; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO purchases (uid, page_uid, campaign_uid, product_uid, buyer_name, "time") VALUES ('exm_cx0jgwcjDR4M', 'demo-store', 'demo-autumn-living', 'nordlys-ceramic-mug', 'Upgrade', 1795908357916);


--
-- Data for Name: rate_limits; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO rate_limits (key, window_start, count) VALUES ('anonymous:127.0.0.1', 1795908357824, 1);
INSERT INTO rate_limits (key, window_start, count) VALUES ('cartChange:user:ocQ_vq88mG7dJJmldlLMuzES', 1795908357850, 1);
INSERT INTO rate_limits (key, window_start, count) VALUES ('cartChange:address:127.0.0.1', 1795908357851, 1);


--
-- Data for Name: reactions; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: read_versions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO read_versions (scope, version) VALUES ('page:demo-store', 35);
INSERT INTO read_versions (scope, version) VALUES ('user:ocQ_vq88mG7dJJmldlLMuzES', 1);


--
-- Data for Name: refresh_token_families; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO refresh_token_families (id, user_uid, created_at, revoked_at, revoked_reason) VALUES ('wTCVAavwQbkE2fhawCiRwA', 'ocQ_vq88mG7dJJmldlLMuzES', 1795908357835, NULL, NULL);


--
-- Data for Name: refresh_tokens; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO refresh_tokens (token_hash, family_id, issued_at, expires_at, spent_at) VALUES ('-4Bdttkcn4XZMlQN7Ihu3DJ-NyMxEcZ0ZazA6VkU8BA', 'wTCVAavwQbkE2fhawCiRwA', 1795908357838, 1798500357838, NULL);


--
-- Data for Name: restream_destinations; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO schema_migrations (name, applied_at) VALUES ('0001_foundation.sql', '2026-11-28 23:25:56.752067+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0002_server_secrets.sql', '2026-11-28 23:25:56.85128+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0003_live_feature_tables.sql', '2026-11-28 23:25:56.8627+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0004_tracking.sql', '2026-11-28 23:25:56.951298+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0005_cart_checkout.sql', '2026-11-28 23:25:56.967298+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0006_accounts_interaction.sql', '2026-11-28 23:25:57.035299+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0007_identity_hardening.sql', '2026-11-28 23:25:57.103095+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0008_payment_hardening.sql', '2026-11-28 23:25:57.106258+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0009_abuse_limits.sql', '2026-11-28 23:25:57.124086+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0011_free_delivery.sql', '2026-11-28 23:25:57.130827+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0012_studio_staff.sql', '2026-11-28 23:25:57.142956+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0013_catalogue_archive.sql', '2026-11-28 23:25:57.163824+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0014_studio_shows.sql', '2026-11-28 23:25:57.166839+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0015_studio_orders_mail.sql', '2026-11-28 23:25:57.169751+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0016_store_settings.sql', '2026-11-28 23:25:57.180179+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0017_live_streams.sql', '2026-11-28 23:25:57.183303+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0019_analytics.sql', '2026-11-28 23:25:57.187112+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0021_premieres.sql', '2026-11-28 23:25:57.203889+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0022_chat_moderation.sql', '2026-11-28 23:25:57.208105+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0024_competition_stamps.sql', '2026-11-28 23:25:57.221804+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0025_read_versions.sql', '2026-11-28 23:25:57.22362+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0026_take_stock.sql', '2026-11-28 23:25:57.229752+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0027_checkout_add.sql', '2026-11-28 23:25:57.231542+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0028_checkout_add_batch.sql', '2026-11-28 23:25:57.233772+00');
INSERT INTO schema_migrations (name, applied_at) VALUES ('0041_restream.sql', '2026-11-28 23:25:57.236228+00');


--
-- Data for Name: server_secrets; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO server_secrets (name, value, created_at) VALUES ('id_token_signing', 'PJcbx6Q0zsEyWGiAWt-4siCTaflUR9Bo0WBX1JtSwGY', '2026-11-28 23:25:57.842404+00');


--
-- Data for Name: show_chat_state; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: staff_audit_log; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: staff_invitations; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: store_staff; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: studio_links; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: test_payment_confirmations; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: tracking_events; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: user_identities; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: user_passwords; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: user_reservations; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: users; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO users (uid, name, is_anonymous, email, avatar, locale_code, currency_code, tracking_id, competitions_participated, competitions_dismissed, created_at, updated_at) VALUES ('ocQ_vq88mG7dJJmldlLMuzES', '', true, NULL, NULL, NULL, NULL, NULL, '[]', '[]', '2026-11-28 23:25:57.826278+00', '2026-11-28 23:25:57.826278+00');


--
-- Name: chat_moderation_log_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('chat_moderation_log_id_seq', 1, false);


--
-- Name: event_product_cues_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('event_product_cues_id_seq', 6, true);


--
-- Name: onsite_event_updates_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('onsite_event_updates_id_seq', 14, true);


--
-- Name: order_numbers; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('order_numbers', 100001, true);


--
-- Name: staff_audit_log_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('staff_audit_log_id_seq', 1, false);


--
-- Name: tracking_events_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('tracking_events_id_seq', 1, false);


--
-- Name: analytics_competition_minutes analytics_competition_minutes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY analytics_competition_minutes
    ADD CONSTRAINT analytics_competition_minutes_pkey PRIMARY KEY (campaign_uid, minute);


--
-- Name: analytics_cursor analytics_cursor_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY analytics_cursor
    ADD CONSTRAINT analytics_cursor_pkey PRIMARY KEY (name);


--
-- Name: analytics_minutes analytics_minutes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY analytics_minutes
    ADD CONSTRAINT analytics_minutes_pkey PRIMARY KEY (campaign_uid, minute);


--
-- Name: analytics_order_minutes analytics_order_minutes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY analytics_order_minutes
    ADD CONSTRAINT analytics_order_minutes_pkey PRIMARY KEY (campaign_uid, minute, currency);


--
-- Name: analytics_product_orders analytics_product_orders_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY analytics_product_orders
    ADD CONSTRAINT analytics_product_orders_pkey PRIMARY KEY (campaign_uid, product_uid, currency);


--
-- Name: analytics_shows analytics_shows_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY analytics_shows
    ADD CONSTRAINT analytics_shows_pkey PRIMARY KEY (campaign_uid);


--
-- Name: analytics_viewer_minutes analytics_viewer_minutes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY analytics_viewer_minutes
    ADD CONSTRAINT analytics_viewer_minutes_pkey PRIMARY KEY (campaign_uid, minute, viewer_key);


--
-- Name: analytics_viewer_products analytics_viewer_products_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY analytics_viewer_products
    ADD CONSTRAINT analytics_viewer_products_pkey PRIMARY KEY (campaign_uid, product_uid, viewer_key);


--
-- Name: analytics_viewers analytics_viewers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY analytics_viewers
    ADD CONSTRAINT analytics_viewers_pkey PRIMARY KEY (campaign_uid, viewer_key);


--
-- Name: bulk_comments bulk_comments_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY bulk_comments
    ADD CONSTRAINT bulk_comments_pkey PRIMARY KEY (page_uid, campaign_uid);


--
-- Name: campaign_presentations campaign_presentations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY campaign_presentations
    ADD CONSTRAINT campaign_presentations_pkey PRIMARY KEY (page_uid, campaign_uid);


--
-- Name: campaigns campaigns_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY campaigns
    ADD CONSTRAINT campaigns_pkey PRIMARY KEY (uid);


--
-- Name: chat_bans chat_bans_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY chat_bans
    ADD CONSTRAINT chat_bans_pkey PRIMARY KEY (page_uid, user_uid);


--
-- Name: chat_moderation_log chat_moderation_log_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY chat_moderation_log
    ADD CONSTRAINT chat_moderation_log_pkey PRIMARY KEY (id);


--
-- Name: chat_moderation_settings chat_moderation_settings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY chat_moderation_settings
    ADD CONSTRAINT chat_moderation_settings_pkey PRIMARY KEY (page_uid);


--
-- Name: checkout_lines checkout_lines_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY checkout_lines
    ADD CONSTRAINT checkout_lines_pkey PRIMARY KEY (checkout_uid, product_uid, variant_uid);


--
-- Name: checkout_reservations checkout_reservations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY checkout_reservations
    ADD CONSTRAINT checkout_reservations_pkey PRIMARY KEY (page_uid, campaign_uid, user_uid);


--
-- Name: checkouts checkouts_order_number_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY checkouts
    ADD CONSTRAINT checkouts_order_number_key UNIQUE (order_number);


--
-- Name: checkouts checkouts_page_uid_campaign_uid_user_uid_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY checkouts
    ADD CONSTRAINT checkouts_page_uid_campaign_uid_user_uid_key UNIQUE (page_uid, campaign_uid, user_uid);


--
-- Name: checkouts checkouts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY checkouts
    ADD CONSTRAINT checkouts_pkey PRIMARY KEY (uid);


--
-- Name: comments comments_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY comments
    ADD CONSTRAINT comments_pkey PRIMARY KEY (uid);


--
-- Name: competition_participants competition_participants_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY competition_participants
    ADD CONSTRAINT competition_participants_pkey PRIMARY KEY (competition_uid, user_uid);


--
-- Name: competition_winners competition_winners_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY competition_winners
    ADD CONSTRAINT competition_winners_pkey PRIMARY KEY (competition_uid, user_uid);


--
-- Name: competitions competitions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY competitions
    ADD CONSTRAINT competitions_pkey PRIMARY KEY (uid);


--
-- Name: contact_captures contact_captures_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY contact_captures
    ADD CONSTRAINT contact_captures_pkey PRIMARY KEY (uid);


--
-- Name: event_product_cues event_product_cues_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY event_product_cues
    ADD CONSTRAINT event_product_cues_pkey PRIMARY KEY (id);


--
-- Name: event_products event_products_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY event_products
    ADD CONSTRAINT event_products_pkey PRIMARY KEY (event_id, uid);


--
-- Name: live_events live_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY live_events
    ADD CONSTRAINT live_events_pkey PRIMARY KEY (id);


--
-- Name: live_streams live_streams_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY live_streams
    ADD CONSTRAINT live_streams_pkey PRIMARY KEY (event_id);


--
-- Name: live_streams live_streams_stream_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY live_streams
    ADD CONSTRAINT live_streams_stream_key_key UNIQUE (stream_key);


--
-- Name: mail_outbox mail_outbox_dedupe_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY mail_outbox
    ADD CONSTRAINT mail_outbox_dedupe_key_key UNIQUE (dedupe_key);


--
-- Name: mail_outbox mail_outbox_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY mail_outbox
    ADD CONSTRAINT mail_outbox_pkey PRIMARY KEY (uid);


--
-- Name: notifications notifications_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY notifications
    ADD CONSTRAINT notifications_pkey PRIMARY KEY (uid);


--
-- Name: oidc_flows oidc_flows_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY oidc_flows
    ADD CONSTRAINT oidc_flows_pkey PRIMARY KEY (state);


--
-- Name: onsite_event_updates onsite_event_updates_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY onsite_event_updates
    ADD CONSTRAINT onsite_event_updates_pkey PRIMARY KEY (id);


--
-- Name: order_refunds order_refunds_checkout_uid_request_key_transaction_uid_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY order_refunds
    ADD CONSTRAINT order_refunds_checkout_uid_request_key_transaction_uid_key UNIQUE (checkout_uid, request_key, transaction_uid);


--
-- Name: order_refunds order_refunds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY order_refunds
    ADD CONSTRAINT order_refunds_pkey PRIMARY KEY (uid);


--
-- Name: pages pages_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY pages
    ADD CONSTRAINT pages_pkey PRIMARY KEY (uid);


--
-- Name: payment_events payment_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY payment_events
    ADD CONSTRAINT payment_events_pkey PRIMARY KEY (provider, event_id);


--
-- Name: payment_transactions payment_transactions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY payment_transactions
    ADD CONSTRAINT payment_transactions_pkey PRIMARY KEY (uid);


--
-- Name: pending_credentials pending_credentials_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY pending_credentials
    ADD CONSTRAINT pending_credentials_pkey PRIMARY KEY (credential_hash);


--
-- Name: premieres premieres_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY premieres
    ADD CONSTRAINT premieres_pkey PRIMARY KEY (event_id);


--
-- Name: product_variants product_variants_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY product_variants
    ADD CONSTRAINT product_variants_pkey PRIMARY KEY (product_uid, uid);


--
-- Name: products products_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY products
    ADD CONSTRAINT products_pkey PRIMARY KEY (uid);


--
-- Name: purchases purchases_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY purchases
    ADD CONSTRAINT purchases_pkey PRIMARY KEY (uid);


--
-- Name: rate_limits rate_limits_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY rate_limits
    ADD CONSTRAINT rate_limits_pkey PRIMARY KEY (key);


--
-- Name: reactions reactions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY reactions
    ADD CONSTRAINT reactions_pkey PRIMARY KEY (uid);


--
-- Name: read_versions read_versions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY read_versions
    ADD CONSTRAINT read_versions_pkey PRIMARY KEY (scope);


--
-- Name: refresh_token_families refresh_token_families_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY refresh_token_families
    ADD CONSTRAINT refresh_token_families_pkey PRIMARY KEY (id);


--
-- Name: refresh_tokens refresh_tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY refresh_tokens
    ADD CONSTRAINT refresh_tokens_pkey PRIMARY KEY (token_hash);


--
-- Name: restream_destinations restream_destinations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY restream_destinations
    ADD CONSTRAINT restream_destinations_pkey PRIMARY KEY (id);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (name);


--
-- Name: server_secrets server_secrets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY server_secrets
    ADD CONSTRAINT server_secrets_pkey PRIMARY KEY (name);


--
-- Name: show_chat_state show_chat_state_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY show_chat_state
    ADD CONSTRAINT show_chat_state_pkey PRIMARY KEY (page_uid, campaign_uid);


--
-- Name: staff_audit_log staff_audit_log_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY staff_audit_log
    ADD CONSTRAINT staff_audit_log_pkey PRIMARY KEY (id);


--
-- Name: staff_invitations staff_invitations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY staff_invitations
    ADD CONSTRAINT staff_invitations_pkey PRIMARY KEY (uid);


--
-- Name: staff_invitations staff_invitations_token_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY staff_invitations
    ADD CONSTRAINT staff_invitations_token_hash_key UNIQUE (token_hash);


--
-- Name: store_staff store_staff_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY store_staff
    ADD CONSTRAINT store_staff_pkey PRIMARY KEY (page_uid, user_uid);


--
-- Name: studio_links studio_links_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY studio_links
    ADD CONSTRAINT studio_links_pkey PRIMARY KEY (token_hash);


--
-- Name: test_payment_confirmations test_payment_confirmations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY test_payment_confirmations
    ADD CONSTRAINT test_payment_confirmations_pkey PRIMARY KEY (transaction_uid);


--
-- Name: tracking_events tracking_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY tracking_events
    ADD CONSTRAINT tracking_events_pkey PRIMARY KEY (id);


--
-- Name: user_identities user_identities_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY user_identities
    ADD CONSTRAINT user_identities_pkey PRIMARY KEY (provider_id, subject);


--
-- Name: user_passwords user_passwords_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY user_passwords
    ADD CONSTRAINT user_passwords_pkey PRIMARY KEY (user_uid);


--
-- Name: user_reservations user_reservations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY user_reservations
    ADD CONSTRAINT user_reservations_pkey PRIMARY KEY (page_uid, user_uid);


--
-- Name: users users_email_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY users
    ADD CONSTRAINT users_email_key UNIQUE (email);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY users
    ADD CONSTRAINT users_pkey PRIMARY KEY (uid);


--
-- Name: analytics_shows_page_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX analytics_shows_page_idx ON analytics_shows USING btree (page_uid);


--
-- Name: campaigns_page_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX campaigns_page_idx ON campaigns USING btree (page_uid);


--
-- Name: chat_moderation_log_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX chat_moderation_log_idx ON chat_moderation_log USING btree (page_uid, campaign_uid, id DESC);


--
-- Name: checkout_lines_product_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX checkout_lines_product_idx ON checkout_lines USING btree (product_uid, variant_uid);


--
-- Name: checkout_lines_reserved_until_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX checkout_lines_reserved_until_idx ON checkout_lines USING btree (reserved_until) WHERE (reserved_until IS NOT NULL);


--
-- Name: checkouts_campaign_orders_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX checkouts_campaign_orders_idx ON checkouts USING btree (page_uid, campaign_uid, ordered_at DESC, uid DESC) WHERE (order_number IS NOT NULL);


--
-- Name: checkouts_store_orders_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX checkouts_store_orders_idx ON checkouts USING btree (page_uid, ordered_at DESC, uid DESC) WHERE (order_number IS NOT NULL);


--
-- Name: comments_campaign_time_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX comments_campaign_time_idx ON comments USING btree (page_uid, campaign_uid, "time" DESC);


--
-- Name: comments_moderation_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX comments_moderation_idx ON comments USING btree (page_uid, campaign_uid, moderation_state, "time" DESC);


--
-- Name: comments_questions_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX comments_questions_idx ON comments USING btree (page_uid, campaign_uid, question_state, "time" DESC) WHERE (question_state <> 'none'::text);


--
-- Name: comments_recipient_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX comments_recipient_idx ON comments USING btree (recipient_uid, page_uid, campaign_uid);


--
-- Name: comments_thread_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX comments_thread_idx ON comments USING btree (thread_id) WHERE (thread_id IS NOT NULL);


--
-- Name: comments_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX comments_user_idx ON comments USING btree (user_uid, page_uid, campaign_uid);


--
-- Name: competition_participants_person_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX competition_participants_person_idx ON competition_participants USING btree (competition_uid, person_key) WHERE (person_key IS NOT NULL);


--
-- Name: competitions_campaign_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX competitions_campaign_idx ON competitions USING btree (page_uid, campaign_uid);


--
-- Name: contact_captures_page_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX contact_captures_page_idx ON contact_captures USING btree (page_uid, created_at);


--
-- Name: event_product_cues_product_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX event_product_cues_product_idx ON event_product_cues USING btree (event_id, event_product_uid);


--
-- Name: live_events_campaign_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX live_events_campaign_idx ON live_events USING btree (campaign_uid);


--
-- Name: live_events_page_start_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX live_events_page_start_idx ON live_events USING btree (page_uid, event_start_timestamp);


--
-- Name: live_events_page_status_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX live_events_page_status_idx ON live_events USING btree (page_uid, current_status);


--
-- Name: mail_outbox_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX mail_outbox_due_idx ON mail_outbox USING btree (next_attempt_at) WHERE (status = 'queued'::text);


--
-- Name: mail_outbox_page_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX mail_outbox_page_idx ON mail_outbox USING btree (page_uid, created_at DESC, uid DESC);


--
-- Name: notifications_user_campaign_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX notifications_user_campaign_idx ON notifications USING btree (user_uid, campaign_uid, created DESC);


--
-- Name: onsite_event_updates_store_time_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX onsite_event_updates_store_time_idx ON onsite_event_updates USING btree (store_id, "time" DESC);


--
-- Name: order_refunds_checkout_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX order_refunds_checkout_idx ON order_refunds USING btree (checkout_uid, created_at);


--
-- Name: payment_transactions_checkout_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX payment_transactions_checkout_idx ON payment_transactions USING btree (checkout_uid, created);


--
-- Name: payment_transactions_provider_payment_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX payment_transactions_provider_payment_idx ON payment_transactions USING btree (provider, provider_payment_id) WHERE (provider_payment_id IS NOT NULL);


--
-- Name: premieres_pending_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX premieres_pending_idx ON premieres USING btree (state) WHERE (state = ANY (ARRAY['scheduled'::text, 'playing'::text]));


--
-- Name: products_page_external_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX products_page_external_idx ON products USING btree (page_uid, external_id);


--
-- Name: products_page_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX products_page_idx ON products USING btree (page_uid);


--
-- Name: purchases_campaign_time_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX purchases_campaign_time_idx ON purchases USING btree (page_uid, campaign_uid, "time");


--
-- Name: reactions_campaign_time_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX reactions_campaign_time_idx ON reactions USING btree (page_uid, campaign_uid, "time");


--
-- Name: refresh_token_families_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX refresh_token_families_user_idx ON refresh_token_families USING btree (user_uid);


--
-- Name: refresh_tokens_family_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX refresh_tokens_family_idx ON refresh_tokens USING btree (family_id);


--
-- Name: restream_destinations_event; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX restream_destinations_event ON restream_destinations USING btree (event_id, created_at);


--
-- Name: restream_destinations_started; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX restream_destinations_started ON restream_destinations USING btree (lease_until) WHERE started;


--
-- Name: staff_audit_log_page_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX staff_audit_log_page_idx ON staff_audit_log USING btree (page_uid, id DESC);


--
-- Name: staff_invitations_page_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX staff_invitations_page_idx ON staff_invitations USING btree (page_uid);


--
-- Name: store_staff_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX store_staff_user_idx ON store_staff USING btree (user_uid);


--
-- Name: tracking_events_page_campaign_received_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tracking_events_page_campaign_received_idx ON tracking_events USING btree (page_uid, campaign_uid, received_at);


--
-- Name: tracking_events_received_brin; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tracking_events_received_brin ON tracking_events USING brin (received_at);


--
-- Name: user_identities_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX user_identities_user_idx ON user_identities USING btree (user_uid);


--
-- Name: campaigns campaigns_read_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER campaigns_read_version AFTER INSERT OR DELETE OR UPDATE ON campaigns FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_row('page_uid', 'page:');


--
-- Name: event_products event_products_read_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER event_products_read_version AFTER INSERT OR DELETE OR UPDATE ON event_products FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_show_product();


--
-- Name: live_events live_events_read_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER live_events_read_version AFTER INSERT OR DELETE OR UPDATE ON live_events FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_row('page_uid', 'page:');


--
-- Name: pages pages_read_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER pages_read_version AFTER INSERT OR DELETE OR UPDATE ON pages FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_row('uid', 'page:');


--
-- Name: product_variants product_variants_read_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER product_variants_read_version AFTER INSERT OR DELETE OR UPDATE OF uid, product_uid, "position", name, sku, prices, options ON product_variants FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_variant();


--
-- Name: products products_read_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER products_read_version AFTER INSERT OR DELETE OR UPDATE OF uid, page_uid, external_id, name, description, sku, url, images, prices, options, archived_at ON products FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_row('page_uid', 'page:');


--
-- Name: user_reservations user_reservations_read_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER user_reservations_read_version AFTER INSERT OR DELETE OR UPDATE ON user_reservations FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_row('user_uid', 'user:');


--
-- Name: users users_read_version; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER users_read_version AFTER INSERT OR DELETE OR UPDATE ON users FOR EACH ROW EXECUTE FUNCTION bump_read_version_of_row('uid', 'user:');


--
-- Name: bulk_comments bulk_comments_campaign_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY bulk_comments
    ADD CONSTRAINT bulk_comments_campaign_uid_fkey FOREIGN KEY (campaign_uid) REFERENCES campaigns(uid) ON DELETE CASCADE;


--
-- Name: bulk_comments bulk_comments_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY bulk_comments
    ADD CONSTRAINT bulk_comments_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: campaign_presentations campaign_presentations_campaign_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY campaign_presentations
    ADD CONSTRAINT campaign_presentations_campaign_uid_fkey FOREIGN KEY (campaign_uid) REFERENCES campaigns(uid) ON DELETE CASCADE;


--
-- Name: campaign_presentations campaign_presentations_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY campaign_presentations
    ADD CONSTRAINT campaign_presentations_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: campaigns campaigns_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY campaigns
    ADD CONSTRAINT campaigns_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: chat_bans chat_bans_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY chat_bans
    ADD CONSTRAINT chat_bans_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: chat_bans chat_bans_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY chat_bans
    ADD CONSTRAINT chat_bans_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: chat_moderation_log chat_moderation_log_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY chat_moderation_log
    ADD CONSTRAINT chat_moderation_log_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: chat_moderation_settings chat_moderation_settings_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY chat_moderation_settings
    ADD CONSTRAINT chat_moderation_settings_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: checkout_lines checkout_lines_checkout_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY checkout_lines
    ADD CONSTRAINT checkout_lines_checkout_uid_fkey FOREIGN KEY (checkout_uid) REFERENCES checkouts(uid) ON DELETE CASCADE;


--
-- Name: checkout_reservations checkout_reservations_campaign_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY checkout_reservations
    ADD CONSTRAINT checkout_reservations_campaign_uid_fkey FOREIGN KEY (campaign_uid) REFERENCES campaigns(uid) ON DELETE CASCADE;


--
-- Name: checkout_reservations checkout_reservations_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY checkout_reservations
    ADD CONSTRAINT checkout_reservations_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: checkout_reservations checkout_reservations_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY checkout_reservations
    ADD CONSTRAINT checkout_reservations_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: checkouts checkouts_campaign_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY checkouts
    ADD CONSTRAINT checkouts_campaign_uid_fkey FOREIGN KEY (campaign_uid) REFERENCES campaigns(uid) ON DELETE CASCADE;


--
-- Name: checkouts checkouts_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY checkouts
    ADD CONSTRAINT checkouts_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: checkouts checkouts_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY checkouts
    ADD CONSTRAINT checkouts_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: comments comments_campaign_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY comments
    ADD CONSTRAINT comments_campaign_uid_fkey FOREIGN KEY (campaign_uid) REFERENCES campaigns(uid) ON DELETE CASCADE;


--
-- Name: comments comments_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY comments
    ADD CONSTRAINT comments_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: comments comments_recipient_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY comments
    ADD CONSTRAINT comments_recipient_uid_fkey FOREIGN KEY (recipient_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: comments comments_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY comments
    ADD CONSTRAINT comments_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: competition_participants competition_participants_competition_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY competition_participants
    ADD CONSTRAINT competition_participants_competition_uid_fkey FOREIGN KEY (competition_uid) REFERENCES competitions(uid) ON DELETE CASCADE;


--
-- Name: competition_participants competition_participants_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY competition_participants
    ADD CONSTRAINT competition_participants_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: competition_winners competition_winners_competition_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY competition_winners
    ADD CONSTRAINT competition_winners_competition_uid_fkey FOREIGN KEY (competition_uid) REFERENCES competitions(uid) ON DELETE CASCADE;


--
-- Name: competition_winners competition_winners_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY competition_winners
    ADD CONSTRAINT competition_winners_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: competitions competitions_campaign_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY competitions
    ADD CONSTRAINT competitions_campaign_uid_fkey FOREIGN KEY (campaign_uid) REFERENCES campaigns(uid) ON DELETE CASCADE;


--
-- Name: competitions competitions_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY competitions
    ADD CONSTRAINT competitions_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: contact_captures contact_captures_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY contact_captures
    ADD CONSTRAINT contact_captures_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: contact_captures contact_captures_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY contact_captures
    ADD CONSTRAINT contact_captures_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE SET NULL;


--
-- Name: event_product_cues event_product_cues_event_id_event_product_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY event_product_cues
    ADD CONSTRAINT event_product_cues_event_id_event_product_uid_fkey FOREIGN KEY (event_id, event_product_uid) REFERENCES event_products(event_id, uid) ON DELETE CASCADE;


--
-- Name: event_products event_products_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY event_products
    ADD CONSTRAINT event_products_event_id_fkey FOREIGN KEY (event_id) REFERENCES live_events(id) ON DELETE CASCADE;


--
-- Name: event_products event_products_product_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY event_products
    ADD CONSTRAINT event_products_product_uid_fkey FOREIGN KEY (product_uid) REFERENCES products(uid) ON DELETE CASCADE;


--
-- Name: live_events live_events_campaign_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY live_events
    ADD CONSTRAINT live_events_campaign_uid_fkey FOREIGN KEY (campaign_uid) REFERENCES campaigns(uid) ON DELETE CASCADE;


--
-- Name: live_events live_events_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY live_events
    ADD CONSTRAINT live_events_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: live_streams live_streams_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY live_streams
    ADD CONSTRAINT live_streams_event_id_fkey FOREIGN KEY (event_id) REFERENCES live_events(id) ON DELETE CASCADE;


--
-- Name: mail_outbox mail_outbox_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY mail_outbox
    ADD CONSTRAINT mail_outbox_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: notifications notifications_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY notifications
    ADD CONSTRAINT notifications_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: order_refunds order_refunds_checkout_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY order_refunds
    ADD CONSTRAINT order_refunds_checkout_uid_fkey FOREIGN KEY (checkout_uid) REFERENCES checkouts(uid) ON DELETE CASCADE;


--
-- Name: order_refunds order_refunds_requested_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY order_refunds
    ADD CONSTRAINT order_refunds_requested_by_fkey FOREIGN KEY (requested_by) REFERENCES users(uid) ON DELETE SET NULL;


--
-- Name: order_refunds order_refunds_transaction_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY order_refunds
    ADD CONSTRAINT order_refunds_transaction_uid_fkey FOREIGN KEY (transaction_uid) REFERENCES payment_transactions(uid) ON DELETE CASCADE;


--
-- Name: payment_transactions payment_transactions_checkout_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY payment_transactions
    ADD CONSTRAINT payment_transactions_checkout_uid_fkey FOREIGN KEY (checkout_uid) REFERENCES checkouts(uid) ON DELETE CASCADE;


--
-- Name: pending_credentials pending_credentials_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY pending_credentials
    ADD CONSTRAINT pending_credentials_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: premieres premieres_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY premieres
    ADD CONSTRAINT premieres_event_id_fkey FOREIGN KEY (event_id) REFERENCES live_events(id) ON DELETE CASCADE;


--
-- Name: product_variants product_variants_product_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY product_variants
    ADD CONSTRAINT product_variants_product_uid_fkey FOREIGN KEY (product_uid) REFERENCES products(uid) ON DELETE CASCADE;


--
-- Name: products products_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY products
    ADD CONSTRAINT products_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: purchases purchases_campaign_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY purchases
    ADD CONSTRAINT purchases_campaign_uid_fkey FOREIGN KEY (campaign_uid) REFERENCES campaigns(uid) ON DELETE CASCADE;


--
-- Name: purchases purchases_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY purchases
    ADD CONSTRAINT purchases_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: reactions reactions_campaign_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY reactions
    ADD CONSTRAINT reactions_campaign_uid_fkey FOREIGN KEY (campaign_uid) REFERENCES campaigns(uid) ON DELETE CASCADE;


--
-- Name: reactions reactions_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY reactions
    ADD CONSTRAINT reactions_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: reactions reactions_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY reactions
    ADD CONSTRAINT reactions_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE SET NULL;


--
-- Name: refresh_token_families refresh_token_families_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY refresh_token_families
    ADD CONSTRAINT refresh_token_families_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: refresh_tokens refresh_tokens_family_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY refresh_tokens
    ADD CONSTRAINT refresh_tokens_family_id_fkey FOREIGN KEY (family_id) REFERENCES refresh_token_families(id) ON DELETE CASCADE;


--
-- Name: restream_destinations restream_destinations_event_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY restream_destinations
    ADD CONSTRAINT restream_destinations_event_id_fkey FOREIGN KEY (event_id) REFERENCES live_events(id) ON DELETE CASCADE;


--
-- Name: show_chat_state show_chat_state_campaign_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY show_chat_state
    ADD CONSTRAINT show_chat_state_campaign_uid_fkey FOREIGN KEY (campaign_uid) REFERENCES campaigns(uid) ON DELETE CASCADE;


--
-- Name: show_chat_state show_chat_state_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY show_chat_state
    ADD CONSTRAINT show_chat_state_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: staff_audit_log staff_audit_log_actor_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY staff_audit_log
    ADD CONSTRAINT staff_audit_log_actor_uid_fkey FOREIGN KEY (actor_uid) REFERENCES users(uid) ON DELETE SET NULL;


--
-- Name: staff_audit_log staff_audit_log_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY staff_audit_log
    ADD CONSTRAINT staff_audit_log_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: staff_invitations staff_invitations_accepted_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY staff_invitations
    ADD CONSTRAINT staff_invitations_accepted_by_fkey FOREIGN KEY (accepted_by) REFERENCES users(uid) ON DELETE SET NULL;


--
-- Name: staff_invitations staff_invitations_invited_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY staff_invitations
    ADD CONSTRAINT staff_invitations_invited_by_fkey FOREIGN KEY (invited_by) REFERENCES users(uid) ON DELETE SET NULL;


--
-- Name: staff_invitations staff_invitations_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY staff_invitations
    ADD CONSTRAINT staff_invitations_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: store_staff store_staff_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY store_staff
    ADD CONSTRAINT store_staff_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: store_staff store_staff_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY store_staff
    ADD CONSTRAINT store_staff_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: studio_links studio_links_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY studio_links
    ADD CONSTRAINT studio_links_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: test_payment_confirmations test_payment_confirmations_transaction_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY test_payment_confirmations
    ADD CONSTRAINT test_payment_confirmations_transaction_uid_fkey FOREIGN KEY (transaction_uid) REFERENCES payment_transactions(uid) ON DELETE CASCADE;


--
-- Name: user_identities user_identities_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY user_identities
    ADD CONSTRAINT user_identities_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: user_passwords user_passwords_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY user_passwords
    ADD CONSTRAINT user_passwords_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
-- Name: user_reservations user_reservations_page_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY user_reservations
    ADD CONSTRAINT user_reservations_page_uid_fkey FOREIGN KEY (page_uid) REFERENCES pages(uid) ON DELETE CASCADE;


--
-- Name: user_reservations user_reservations_user_uid_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY user_reservations
    ADD CONSTRAINT user_reservations_user_uid_fkey FOREIGN KEY (user_uid) REFERENCES users(uid) ON DELETE CASCADE;


--
--


