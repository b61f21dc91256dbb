-- feature: competitions. Every change of a competition's openForParticipation / playing, stamped
-- with the server's clock as it happened ([{ at, openForParticipation, playing }], the last 50), so
-- viewers see it when their video reaches that moment (issue 15 §9) and a closed competition still
-- takes entries for a short grace from viewers whose video showed it open.
ALTER TABLE competitions ADD COLUMN state_changes JSONB NOT NULL DEFAULT '[]';
