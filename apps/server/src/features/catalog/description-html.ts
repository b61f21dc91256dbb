import sanitizeHtml from 'sanitize-html';

/** The longest formatted description kept; a longer one is kept as plain text only. */
export const MAX_DESCRIPTION_HTML = 20_000;

/**
 * The formatting a product description keeps (issue 33 §8): paragraphs, line breaks, lists, bold,
 * italic and links to http(s) pages. Everything else is dropped by an allow-list (sanitize-html):
 * scripts and styles with their content, every attribute but a link's href (so no event
 * handlers), and any href whose scheme is not http or https (javascript:, data:, …): such a
 * link keeps its text, without the link.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'ul', 'ol', 'li', 'strong', 'b', 'em', 'i', 'a'],
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'template', 'title', 'iframe', 'object'],
  // Headings and divs become paragraphs rather than runs of text glued together.
  transformTags: {
    div: 'p',
    h1: 'p',
    h2: 'p',
    h3: 'p',
    h4: 'p',
    h5: 'p',
    h6: 'p',
  },
};

/** Tags that make a description formatted rather than plain text. */
const FORMATTING = /<(ul|ol|li|strong|b|em|i|a)\b/i;

/**
 * The safe formatted form of a description's HTML, or null when it has no formatting beyond
 * paragraphs (plain text says as much) or is too long to keep.
 */
export function safeDescriptionHtml(html: string | null | undefined): string | null {
  if (!html) return null;
  const clean = sanitizeHtml(html, OPTIONS).trim();
  if (!FORMATTING.test(clean) || clean.length > MAX_DESCRIPTION_HTML) return null;
  return clean;
}
