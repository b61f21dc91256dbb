-- Live chat moderation (issue 16 §3).

-- feature: comments. A comment's moderation state: visible; hidden (by a moderator, can come
-- back); deleted (for good); held (a blocked word, waiting for review); rejected (a held one
-- refused). `moderation_version` counts moderation actions on the comment: an action states the
-- version it saw, so a stale one (two staff on one comment) is refused. `question_state`: none,
-- open (asks something: a "?" or flagged) or answered. The staff member's name is kept beside
-- the uid so the studio shows who did what after they leave the store.
ALTER TABLE comments ADD COLUMN moderation_state TEXT NOT NULL DEFAULT 'visible';
ALTER TABLE comments ADD COLUMN moderation_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE comments ADD COLUMN moderated_by_uid TEXT;
ALTER TABLE comments ADD COLUMN moderated_by_name TEXT;
ALTER TABLE comments ADD COLUMN moderated_at BIGINT;
-- The text as written when blocked words were masked (moderators only).
ALTER TABLE comments ADD COLUMN original_text TEXT;
ALTER TABLE comments ADD COLUMN question_state TEXT NOT NULL DEFAULT 'none';
ALTER TABLE comments ADD COLUMN answered_by_name TEXT;
ALTER TABLE comments ADD COLUMN answered_how TEXT;
CREATE INDEX comments_moderation_idx ON comments (page_uid, campaign_uid, moderation_state, time DESC);
CREATE INDEX comments_questions_idx ON comments (page_uid, campaign_uid, question_state, time DESC)
  WHERE question_state <> 'none';

-- feature: comments. Viewers banned from a store's chat: they cannot post and their comments are
-- left out of every show's chat of the store.
CREATE TABLE chat_bans (
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  user_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  user_name TEXT NOT NULL DEFAULT '',
  reason TEXT,
  banned_by_uid TEXT,
  banned_by_name TEXT NOT NULL,
  banned_at BIGINT NOT NULL,
  PRIMARY KEY (page_uid, user_uid)
);

-- feature: comments. A show's chat state viewers see: slow mode and the pinned announcement.
CREATE TABLE show_chat_state (
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  campaign_uid TEXT NOT NULL REFERENCES campaigns (uid) ON DELETE CASCADE,
  slow_mode_seconds INTEGER NOT NULL DEFAULT 0,
  announcement TEXT,
  announcement_at BIGINT,
  announcement_by_name TEXT,
  PRIMARY KEY (page_uid, campaign_uid)
);

-- feature: comments. A store's blocked words (folded: lower case, no accents) and what a comment
-- containing one gets: held for review or masked.
CREATE TABLE chat_moderation_settings (
  page_uid TEXT PRIMARY KEY REFERENCES pages (uid) ON DELETE CASCADE,
  blocked_words JSONB NOT NULL DEFAULT '[]',
  blocked_word_action TEXT NOT NULL DEFAULT 'hold'
);

-- feature: comments. Who did what in a show's chat, newest first in the studio.
CREATE TABLE chat_moderation_log (
  id BIGSERIAL PRIMARY KEY,
  page_uid TEXT NOT NULL REFERENCES pages (uid) ON DELETE CASCADE,
  campaign_uid TEXT,
  at BIGINT NOT NULL,
  actor_uid TEXT,
  actor_name TEXT NOT NULL,
  action TEXT NOT NULL,
  comment_uid TEXT,
  target_user_uid TEXT,
  target_user_name TEXT,
  detail TEXT
);
CREATE INDEX chat_moderation_log_idx ON chat_moderation_log (page_uid, campaign_uid, id DESC);
