-- Abuse limits and stock hoarding (issue 12 items 5 and 7).

-- feature: stores. The store's integrity settings (IntegritySettingsInput of the protocol):
-- units per shopper per product, who can win a raffle, who can vote in a poll.
ALTER TABLE pages ADD COLUMN integrity_settings JSONB NOT NULL DEFAULT '{}';

-- feature: competitions. Who took part, as a person (account e-mail or contact e-mail/phone),
-- when the store counts persons: one vote per person, one prize per person.
ALTER TABLE competition_participants ADD COLUMN person_key TEXT;
CREATE UNIQUE INDEX competition_participants_person_idx
  ON competition_participants (competition_uid, person_key) WHERE person_key IS NOT NULL;

