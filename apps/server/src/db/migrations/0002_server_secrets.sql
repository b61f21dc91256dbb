-- feature: db (server-secrets.ts). Secrets every server node must share (the id-token signing
-- key, the test payment provider's webhook secret), created once by whichever node needs one
-- first (INSERT … ON CONFLICT DO NOTHING, then SELECT).
CREATE TABLE server_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
