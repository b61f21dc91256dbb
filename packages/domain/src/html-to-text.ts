// Product descriptions arrive as HTML (a Shopify CSV's "Body (HTML)") and are kept as plain text:
// nothing a retailer's file holds is ever rendered as HTML.

/** The named entities any markup may hold: XML's five, and the no-break space read as a space. */
export const MARKUP_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

const NAMED_ENTITIES: Record<string, string> = {
  ...MARKUP_ENTITIES,
  ndash: '–',
  mdash: '—',
  hellip: '…',
  laquo: '«',
  raquo: '»',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  euro: '€',
  pound: '£',
  copy: '©',
  reg: '®',
  trade: '™',
  deg: '°',
  times: '×',
  aring: 'å',
  Aring: 'Å',
  aelig: 'æ',
  AElig: 'Æ',
  oslash: 'ø',
  Oslash: 'Ø',
  auml: 'ä',
  Auml: 'Ä',
  ouml: 'ö',
  Ouml: 'Ö',
  uuml: 'ü',
  Uuml: 'Ü',
  szlig: 'ß',
  eacute: 'é',
  egrave: 'è',
};

/** Tags that end a line or a paragraph of the text they hold. */
const BLOCK_TAG = /^(p|div|br|li|ul|ol|h[1-6]|tr|table|section|article|blockquote|pre)$/i;

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code =
        entity[1] === 'x' || entity[1] === 'X'
          ? Number.parseInt(entity.slice(2), 16)
          : Number(entity.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '';
    }
    return NAMED_ENTITIES[entity] ?? whole;
  });
}

/**
 * The text of an HTML fragment: scripts, styles and comments dropped, tags removed (blocks and
 * <br> become line breaks, list items get a "• "), entities decoded, blank runs collapsed.
 */
export function htmlToPlainText(html: string): string {
  const withoutHidden = html
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .replace(/<(script|style|template|noscript)\b[\s\S]*?(<\/\1\s*>|$)/gi, '');
  const text = withoutHidden.replace(/<\/?([a-zA-Z][a-zA-Z0-9]*)\b[^>]*>/g, (_tag, name: string) => {
    if (name.toLowerCase() === 'li') return _tag.startsWith('</') ? '' : '\n• ';
    return BLOCK_TAG.test(name) ? '\n' : '';
  });
  return decodeEntities(text.replace(/<[^>]*>/g, ''))
    .replace(/[ \t\u00a0]+/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Plain text as HTML for a Shopify CSV: special characters escaped, line breaks as <br>. */
export function plainTextToHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r?\n/g, '<br>');
}
