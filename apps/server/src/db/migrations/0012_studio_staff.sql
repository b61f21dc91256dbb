-- The studio (issue 14): store staff and their roles, one-time studio links, invitations and
-- the audit log of staff actions.

-- feature: staff. Who works in which store, and as what (domain staff-roles.ts: owner, host,
-- moderator). A user may be staff of several stores, with a role in each.
CREATE TABLE store_staff (
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'host', 'moderator')),
  added_at BIGINT NOT NULL,
  PRIMARY KEY (page_uid, user_uid)
);
CREATE INDEX store_staff_user_idx ON store_staff (user_uid);

-- feature: staff. One-time links that sign a staff member in to the studio (the link `npm start`
-- prints for the demo owner, and the first owner's of a fresh deployment). Only the token's
-- SHA-256 is kept; a link works once, before it expires.
CREATE TABLE studio_links (
  token_hash TEXT PRIMARY KEY,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  used_at BIGINT
);

-- feature: staff. An owner's invitation of someone, by e-mail, to a role in the store; accepting
-- it (signed in as any account) makes that account staff. The token is kept as its SHA-256.
CREATE TABLE staff_invitations (
  uid TEXT PRIMARY KEY,
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  email TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('owner', 'host', 'moderator')),
  token_hash TEXT NOT NULL UNIQUE,
  -- the inviting owner; null when invited with the admin key
  invited_by TEXT REFERENCES users (uid) ON DELETE SET NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  accepted_at BIGINT,
  accepted_by TEXT REFERENCES users (uid) ON DELETE SET NULL,
  revoked_at BIGINT
);
CREATE INDEX staff_invitations_page_idx ON staff_invitations (page_uid);

-- feature: staff. Every change a staff member (or the admin key) made through a studio call:
-- who, when, which call, on what, with what. Written by the call layer after the change
-- succeeded (http/register-call.ts), read by owners.
CREATE TABLE staff_audit_log (
  id BIGSERIAL PRIMARY KEY,
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  at BIGINT NOT NULL,
  -- null: the admin key (automation)
  actor_uid TEXT REFERENCES users (uid) ON DELETE SET NULL,
  action TEXT NOT NULL,
  target JSONB NOT NULL DEFAULT '{}',
  details JSONB
);
CREATE INDEX staff_audit_log_page_idx ON staff_audit_log (page_uid, id DESC);
