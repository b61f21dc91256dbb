-- feature: clips
-- A short video cut from a show's recording (issue 32 item 4): one per presented product, at its
-- chapter, and one per highlight the control room marked. Times are on the stream clock (ms, the
-- recording's program date times). bounds_* is what a host may trim within (the chapter, or the
-- highlight's window); start_at/end_at is the chosen part; cut_* what the cut really covers
-- (whole 1 s segments, keyframe to keyframe). The file is in the segment store under media_key.
CREATE TABLE show_clips (
  uid text PRIMARY KEY,
  page_uid text NOT NULL,
  event_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('chapter', 'highlight')),
  event_product_uid text,
  bounds_start bigint NOT NULL,
  bounds_end bigint NOT NULL,
  start_at bigint NOT NULL,
  end_at bigint NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'ready', 'failed')),
  media_key text,
  cut_start bigint,
  duration_ms integer,
  version integer NOT NULL DEFAULT 0,
  hidden boolean NOT NULL DEFAULT false,
  error text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX show_clips_event_idx ON show_clips (event_id, bounds_start);
CREATE UNIQUE INDEX show_clips_chapter_idx ON show_clips (event_id, event_product_uid) WHERE kind = 'chapter';
CREATE INDEX show_clips_page_idx ON show_clips (page_uid, updated_at) WHERE state = 'ready' AND NOT hidden;
