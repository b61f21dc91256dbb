-- Accounts and live interaction (issue 6): credentials, refresh tokens, social identities,
-- rate limits, comment edits and threads, competitions.

-- feature: auth. An e-mail + password credential (the e-mail itself is users.email, unique).
-- The hash is "scrypt$N$r$p$salt$key" (base64url), so parameters can be raised later.
CREATE TABLE user_passwords (
  user_uid TEXT PRIMARY KEY REFERENCES users (uid) ON DELETE CASCADE,
  password_hash TEXT NOT NULL,
  updated_at BIGINT NOT NULL
);

-- feature: auth. One sign-in: every refresh token rotated from its first one shares the family.
CREATE TABLE refresh_token_families (
  id TEXT PRIMARY KEY,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  -- set when the family is logged out or a spent token of it was replayed
  revoked_at BIGINT,
  revoked_reason TEXT
);
CREATE INDEX refresh_token_families_user_idx ON refresh_token_families (user_uid);

-- feature: auth. Refresh tokens, stored only as SHA-256 hashes (they are 32 random bytes, so a
-- fast hash is enough: there is nothing to guess).
CREATE TABLE refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  family_id TEXT NOT NULL REFERENCES refresh_token_families (id) ON DELETE CASCADE,
  issued_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  -- set when exchanged for the next token; presenting it again revokes the family
  spent_at BIGINT
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);

-- feature: auth. A social (OpenID Connect) identity linked to a user.
CREATE TABLE user_identities (
  provider_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  email TEXT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (provider_id, subject)
);
CREATE INDEX user_identities_user_idx ON user_identities (user_uid);

-- feature: auth. An authorization-code + PKCE flow in progress (state → verifier, nonce).
CREATE TABLE oidc_flows (
  state TEXT PRIMARY KEY,
  provider_id TEXT NOT NULL,
  code_verifier TEXT NOT NULL,
  nonce TEXT NOT NULL,
  -- the redirect_uri the flow was started with; the code exchange must repeat it
  redirect_uri TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);

-- feature: auth. A one-time credential handed out with a 409 credential_in_use (spec §8), hashed.
CREATE TABLE pending_credentials (
  credential_hash TEXT PRIMARY KEY,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);

-- feature: http (rate-limit.ts). Fixed-window counters shared by every server node (comment and
-- reaction limits, sign-in attempts).
CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  window_start BIGINT NOT NULL,
  count INTEGER NOT NULL
);

-- feature: comments
ALTER TABLE comments ADD COLUMN edited_at BIGINT;
CREATE INDEX comments_thread_idx ON comments (thread_id) WHERE thread_id IS NOT NULL;

-- feature: competitions. A raffle, quiz or poll presented during a campaign.
CREATE TABLE competitions (
  uid TEXT PRIMARY KEY,
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  campaign_uid TEXT NOT NULL REFERENCES campaigns (uid) ON DELETE CASCADE,
  type TEXT NOT NULL CHECK (type IN ('raffle', 'quiz', 'poll')),
  name TEXT NOT NULL,
  presentation_primary_text TEXT NOT NULL DEFAULT '',
  show_onsite BOOLEAN NOT NULL DEFAULT true,
  cues JSONB NOT NULL DEFAULT '[]',
  options JSONB NOT NULL DEFAULT '[]',
  correct_option_id TEXT,
  open_for_participation BOOLEAN NOT NULL DEFAULT false,
  playing BOOLEAN NOT NULL DEFAULT false,
  created_at BIGINT NOT NULL
);
CREATE INDEX competitions_campaign_idx ON competitions (page_uid, campaign_uid);

-- feature: competitions. Who took part in a competition, and the option they chose.
CREATE TABLE competition_participants (
  competition_uid TEXT NOT NULL REFERENCES competitions (uid) ON DELETE CASCADE,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  option_id TEXT,
  comment_uid TEXT,
  time BIGINT NOT NULL,
  PRIMARY KEY (competition_uid, user_uid)
);

-- feature: competitions. The winners drawn in a raffle.
CREATE TABLE competition_winners (
  competition_uid TEXT NOT NULL REFERENCES competitions (uid) ON DELETE CASCADE,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  name TEXT NOT NULL,
  drawn_at BIGINT NOT NULL,
  PRIMARY KEY (competition_uid, user_uid)
);

-- feature: contacts. Contact details a social-live viewer leaves (spec §2, §5 "Contact step").
CREATE TABLE contact_captures (
  uid TEXT PRIMARY KEY,
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  campaign_uid TEXT,
  user_uid TEXT REFERENCES users (uid) ON DELETE SET NULL,
  name TEXT NOT NULL DEFAULT '',
  phone TEXT NOT NULL DEFAULT '',
  email TEXT NOT NULL DEFAULT '',
  consent BOOLEAN NOT NULL,
  source TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX contact_captures_page_idx ON contact_captures (page_uid, created_at);
