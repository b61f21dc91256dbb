-- Bans that hold (issue 33 §4): a ban covers the banned viewer's device and, as a store option,
-- their address, so a new anonymous account from the same browser or network is banned too.

-- feature: comments. Whether a store's bans also cover the addresses the banned viewer used.
ALTER TABLE chat_moderation_settings ADD COLUMN ban_by_address BOOLEAN NOT NULL DEFAULT false;

-- feature: comments. Where a viewer took part in a store's chat, reactions or competitions
-- from: the player's viewer id ('device') and, only when the store bans by address, a keyed
-- hash of the client address ('address'; http/address-hash.ts: never the address itself).
CREATE TABLE chat_viewer_marks (
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('device', 'address')),
  mark TEXT NOT NULL,
  seen_at BIGINT NOT NULL,
  PRIMARY KEY (page_uid, user_uid, kind, mark)
);

-- feature: comments. The devices and addresses a ban covers, copied from chat_viewer_marks when
-- the viewer is banned; an unban (deleting the chat_bans row) deletes them.
CREATE TABLE chat_ban_marks (
  page_uid TEXT NOT NULL,
  user_uid TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('device', 'address')),
  mark TEXT NOT NULL,
  banned_at BIGINT NOT NULL,
  PRIMARY KEY (page_uid, kind, mark, user_uid),
  FOREIGN KEY (page_uid, user_uid) REFERENCES chat_bans (page_uid, user_uid) ON DELETE CASCADE
);
