-- Shows scheduled in the studio (issue 14 item 4). Columns of the events feature's live_events.

-- The IANA time zone the show was scheduled in (the store's), so the studio shows and edits its
-- times as they were given; null for events made before the studio (shown in the store's zone).
ALTER TABLE live_events ADD COLUMN time_zone TEXT;

-- When the show was first published (ms): a draft that never was can be deleted; one that was
-- may have viewers' comments and shoppers' orders, so it is only made a draft again.
ALTER TABLE live_events ADD COLUMN first_published_at BIGINT;
UPDATE live_events SET first_published_at = event_start_timestamp WHERE status <> 'draft';

-- The studio lists a store's shows by start time.
CREATE INDEX live_events_page_start_idx ON live_events (page_uid, event_start_timestamp);
