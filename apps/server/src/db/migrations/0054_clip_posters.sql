-- feature: clips
-- A clip's poster: its first frame as a JPEG beside its MP4 in the segment store, cut with it. The
-- clip's page shows it while the video loads (on a slow phone the page's largest paint), chat apps
-- and search engines get it as the clip's picture. Clips cut before this have none (null).
ALTER TABLE show_clips ADD COLUMN poster_key text;
