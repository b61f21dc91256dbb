-- feature: live. A show's stream (issue 15): its stream key (one per show; rotating it replaces
-- the key, so the old one is refused at once), where its lifecycle stands and the recording's
-- segments, so the replay survives a restart. Kept in plain text: the studio shows it to the host.
CREATE TABLE live_streams (
  event_id TEXT PRIMARY KEY REFERENCES live_events (id) ON DELETE CASCADE,
  page_uid TEXT NOT NULL,
  stream_key TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL DEFAULT 'idle',
  key_rotated_at BIGINT NOT NULL,
  live_start_time BIGINT,
  live_end_time BIGINT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
