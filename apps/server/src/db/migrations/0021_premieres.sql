-- feature: premiere. A show's pre-recorded premiere (issue 15 item 6): the uploaded video (its
-- file under the live directory and what ffprobe read of it), when it plays as live, and where it
-- stands, so a premiere that was playing resumes at the right point after a restart.
CREATE TABLE premieres (
  event_id TEXT PRIMARY KEY REFERENCES live_events (id) ON DELETE CASCADE,
  page_uid TEXT NOT NULL,
  media_key TEXT NOT NULL,
  file_name TEXT NOT NULL,
  size_bytes BIGINT NOT NULL,
  duration_ms BIGINT NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  video_codec TEXT NOT NULL,
  audio_codec TEXT,
  starts_at BIGINT,
  state TEXT NOT NULL DEFAULT 'ready',
  error TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- The runner re-arms the premieres still to play when the server starts.
CREATE INDEX premieres_pending_idx ON premieres (state) WHERE state IN ('scheduled', 'playing');
