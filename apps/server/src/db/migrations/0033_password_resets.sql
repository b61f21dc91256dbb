-- Account recovery by e-mail (issue 28 item 3).

-- feature: auth. One-time password reset links e-mailed to an account's address. Only the
-- token's SHA-256 is kept; a link works once, before it expires (30 minutes).
CREATE TABLE password_reset_tokens (
  token_hash TEXT PRIMARY KEY,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
CREATE INDEX password_reset_tokens_expiry_idx ON password_reset_tokens (expires_at);
