-- First run of a real store (issue 28 item 2).

-- feature: staff. One-time tokens of the setup page that makes the first store and its owner,
-- printed in the server's log at start while there is no store. Only the SHA-256 is kept; any
-- one of them works once, and none once a store exists.
CREATE TABLE setup_tokens (
  token_hash TEXT PRIMARY KEY,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);
