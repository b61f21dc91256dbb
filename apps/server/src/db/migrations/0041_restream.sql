-- feature: restream. Where a show is sent on to (issue 29 item 8): an RTMP/RTMPS server and its
-- stream key, sealed with AES-256-GCM under a key in server_secrets (never stored in the clear,
-- never answered but masked). `started` is the host's wish; the node running its ffmpeg holds a
-- lease (`runner`, `lease_until`) and writes its health (state, reason, bytes, bitrate, since),
-- so every node shows it and another node takes over when the runner's lease runs out.
CREATE TABLE restream_destinations (
  id TEXT PRIMARY KEY,
  event_id TEXT NOT NULL REFERENCES live_events (id) ON DELETE CASCADE,
  page_uid TEXT NOT NULL,
  label TEXT NOT NULL,
  server_url TEXT NOT NULL,
  stream_key_sealed TEXT NOT NULL,
  stream_key_masked TEXT NOT NULL,
  started BOOLEAN NOT NULL DEFAULT false,
  state TEXT NOT NULL DEFAULT 'stopped',
  reason TEXT,
  bytes_sent BIGINT NOT NULL DEFAULT 0,
  bitrate_kbps DOUBLE PRECISION,
  state_since BIGINT,
  runner TEXT,
  lease_until BIGINT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX restream_destinations_event ON restream_destinations (event_id, created_at);
CREATE INDEX restream_destinations_started ON restream_destinations (lease_until) WHERE started;
