-- A description keeps its formatting (issue 33 §8): paragraphs, lists, bold, italic and http(s)
-- links, as HTML the catalogue passed through an allow-list before writing it (description-html.ts).
-- `description` keeps the plain text (search, page metadata); NULL: no formatting.

-- feature: catalog
ALTER TABLE products ADD COLUMN description_html TEXT;
